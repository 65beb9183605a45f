package io.wharf.io.internal;

import java.io.IOException;
import java.net.SocketAddress;
import java.net.SocketTimeoutException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import io.wharf.util.thread.Scheduler;

/**
 * A socket channel whose non-blocking connect is under way, registered for OP_CONNECT.
 *
 * <p>Exactly one of two things ends it: the selector reports the connect finished
 * ({@link #onSelected()} on the selector thread: success opens the endpoint on the same key,
 * failure reports the cause), or the connect timeout fires on the scheduler thread first and
 * reports a {@link SocketTimeoutException}. An atomic flag decides the race.
 */
public final class ConnectingChannel implements Selectable {

    private final SocketChannel channel;
    private final SocketAddress address;
    private final Consumer<SelectionKey> connected;
    private final Consumer<Throwable> failed;
    private final AtomicBoolean done = new AtomicBoolean();
    private volatile Scheduler.Task timeout;
    private volatile SelectionKey key;

    public ConnectingChannel(SocketChannel channel, SocketAddress address, Consumer<SelectionKey> connected, Consumer<Throwable> failed) {
        this.channel = channel;
        this.address = address;
        this.connected = connected;
        this.failed = failed;
    }

    /** Starts the connect timeout; on the caller's thread. */
    public void scheduleTimeout(Scheduler scheduler, long timeoutMillis) {
        try {
            timeout = scheduler.schedule(() -> fail(new SocketTimeoutException(
                "Connect to " + address + " timed out after " + timeoutMillis + " ms")), timeoutMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException x) {
            fail(x);
        }
    }

    /** Registers for OP_CONNECT; on the selector thread. */
    public void register(Selector selector) {
        if (done.get()) {
            return;
        }
        try {
            key = channel.register(selector, SelectionKey.OP_CONNECT, this);
        } catch (IOException x) {
            fail(x);
        }
    }

    @Override
    public Runnable onSelected() {
        try {
            if (!channel.finishConnect()) {
                return null;
            }
        } catch (IOException x) {
            fail(new IOException("Connect to " + address + " failed: " + x.getMessage(), x));
            return null;
        }
        if (done.compareAndSet(false, true)) {
            cancelTimeout();
            connected.accept(key);
        }
        return null;
    }

    private void fail(Throwable cause) {
        if (done.compareAndSet(false, true)) {
            cancelTimeout();
            SelectionKey key = this.key;
            if (key != null) {
                key.cancel();
            }
            failed.accept(cause);
        }
    }

    private void cancelTimeout() {
        Scheduler.Task task = timeout;
        if (task != null) {
            task.cancel();
        }
    }

    @Override
    public void updateKey() {
        // A connecting channel's interest does not change; the endpoint takes the key over.
    }

    @Override
    public void onSelectorClosing() {
        fail(new IOException("Selector closed while connecting to " + address));
    }

    @Override
    public String toString() {
        return "ConnectingChannel@" + Integer.toHexString(hashCode()) + "{" + address + ",done=" + done.get() + "}";
    }
}
