package io.wharf.io.internal;

import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.function.Consumer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A non-blocking server channel registered for OP_ACCEPT on a selector. When selected it
 * accepts, on the selector thread, up to a bounded number of connections (so that one busy
 * listener cannot starve the selector's other keys) and hands each to its consumer.
 */
public final class AcceptingChannel implements Selectable, Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(AcceptingChannel.class);
    private static final int MAX_ACCEPTS_PER_SELECT = 64;

    private final ServerSocketChannel server;
    private final SelectorLoop loop;
    private final Consumer<SocketChannel> accepted;
    private volatile SelectionKey key;

    public AcceptingChannel(ServerSocketChannel server, SelectorLoop loop, Consumer<SocketChannel> accepted) {
        this.server = server;
        this.loop = loop;
        this.accepted = accepted;
    }

    /** Registers for OP_ACCEPT; on the selector thread. */
    public void register() {
        try {
            key = server.register(loop.selector(), SelectionKey.OP_ACCEPT, this);
        } catch (ClosedChannelException x) {
            LOG.warn("Cannot accept from closed {}", server);
        }
    }

    @Override
    public Runnable onSelected() {
        for (int i = 0; i < MAX_ACCEPTS_PER_SELECT; i++) {
            SocketChannel channel;
            try {
                channel = server.accept();
            } catch (IOException x) {
                if (server.isOpen()) {
                    LOG.warn("Accept failed on {}", server, x);
                }
                return null;
            }
            if (channel == null) {
                return null;
            }
            accepted.accept(channel);
        }
        return null;
    }

    @Override
    public void updateKey() {
        // Interest stays OP_ACCEPT.
    }

    @Override
    public void onSelectorClosing() {
        SelectionKey key = this.key;
        if (key != null) {
            key.cancel();
        }
    }

    /** Stops accepting; the server channel stays open (its owner closes it). */
    @Override
    public void close() {
        loop.submit((Runnable) this::onSelectorClosing);
    }

    @Override
    public String toString() {
        return "AcceptingChannel@" + Integer.toHexString(hashCode()) + "{" + server + "}";
    }
}
