package io.wharf.io.ssl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.ReentrantLock;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.EofException;
import io.wharf.io.ssl.SslStateMachine.Pending;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS over the JDK {@link SSLEngine}, as a connection on the network endpoint (where the bytes
 * are encrypted) that exposes a decrypted {@link SslEndPoint}, on which the application's
 * connection runs as if on a plain socket.
 *
 * <pre>
 *   application Connection ──fill/flush/write──▶ SslEndPoint (decrypted)
 *                                                    │ SslStateMachine: wrap / unwrap / wait
 *   SslConnection ◀──onFillable── network EndPoint ◀─┘ fill / flush / write (encrypted)
 * </pre>
 *
 * <p>Who calls what: the creator (a server's opener through {@link SslConnectionFactory}, or
 * {@link io.wharf.io.connect.ClientConnector#connectTls}) makes this connection for a new network
 * endpoint, sets the application's connection on {@link #getDecryptedEndPoint()}, and opens
 * this one: {@link #onOpen()} starts the handshake, opens the decrypted endpoint, then the
 * application's connection. The handshake runs with the application's reads and writes, on
 * both sides. The network tells this connection when it is readable ({@link #onFillable()})
 * and its write callback when encrypted bytes were written; each wakes what waits on the
 * decrypted side, on the network's thread, and declares that waiter's invocation type: the
 * read callback the fill interest's (and the pending write's, when a write waits for the
 * handshake to read); the write callback the pending write's (and the fill interest's, when a
 * read waits for a wrap). Delegated engine tasks (certificate checks, key agreement: CPU work)
 * run inline on the thread that meets them.
 *
 * <p>Threads: any thread may use the decrypted endpoint. One lock guards the state machine;
 * it is never held while calling out (to callbacks, listeners or the network endpoint's
 * write, interest or close): the machine records actions that run after the unlock.
 *
 * <p>Rules: TLS 1.2 renegotiation is refused (the connection fails with an
 * {@link javax.net.ssl.SSLHandshakeException}); TLS 1.3 key updates are not renegotiation.
 * ALPN is configured on the engine (see {@link SslConnectionFactory}) and reported to
 * {@link Listener}s, which are told before the first application byte is delivered and may
 * upgrade the decrypted endpoint to the negotiated protocol's connection.
 *
 * <p>It is a {@link Connection.Carrier}: a graceful shutdown asked of the network endpoint goes to
 * the application's connection ({@link io.wharf.io.GracefulConnection#shutdown(EndPoint)}), which
 * says its protocol's goodbye and then closes the decrypted endpoint; that close sends the
 * close_notify, after the goodbye's last byte.
 *
 * <p>Buffers: every encrypted and decrypted buffer is borrowed from the given pool when bytes
 * are there and returned as soon as it is empty; an idle TLS connection holds none, and closing
 * returns them all. A buffer handed over by an upgrade ({@link #onUpgradeTo}) becomes the
 * encrypted input and goes back the same way.
 */
public final class SslConnection extends AbstractConnection implements Connection.Carrier, Connection.UpgradeTo {

    private static final Logger LOG = LoggerFactory.getLogger(SslConnection.class);

    /**
     * Told how the handshake ended, once per connection, on the thread that finished it, with
     * no lock held. Must not block. Runs before any application byte is delivered.
     */
    public interface Listener {
        /** The handshake completed; {@code event} says what was negotiated. */
        default void handshakeSucceeded(SslHandshake event) {
        }

        /** The handshake failed or the connection closed before it completed. */
        default void handshakeFailed(SslEndPoint endPoint, Throwable cause) {
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final SSLEngine engine;
    private final SslStateMachine machine;
    private final SslEndPoint decrypted;
    private final Callback networkWrite = new NetworkWriteCallback();
    private final List<Listener> listeners = new CopyOnWriteArrayList<>();

    /** A TLS connection with heap buffers. */
    public SslConnection(EndPoint network, Executor executor, ByteBufferPool pool, SSLEngine engine) {
        this(network, executor, pool, engine, false);
    }

    /**
     * @param network the endpoint carrying the encrypted bytes
     * @param executor runs wake-ups that must not recurse into the caller, and input-shutdown events
     * @param pool lends the encrypted and decrypted buffers
     * @param engine the TLS engine, already in client or server mode and configured
     * @param directBuffers whether the pooled buffers are direct
     */
    public SslConnection(EndPoint network, Executor executor, ByteBufferPool pool, SSLEngine engine, boolean directBuffers) {
        super(network, Objects.requireNonNull(executor, "executor"));
        this.engine = Objects.requireNonNull(engine, "engine");
        this.machine = new SslStateMachine(engine, network, new SslBuffers(Objects.requireNonNull(pool, "pool"), directBuffers));
        this.decrypted = new SslEndPoint(this, executor);
        machine.attach(decrypted);
    }

    /** @return the endpoint on which the application's connection runs */
    public SslEndPoint getDecryptedEndPoint() {
        return decrypted;
    }

    /** @return the decrypted endpoint, which carries the application's connection */
    @Override
    public EndPoint getCarriedEndPoint() {
        return decrypted;
    }

    /** @return the TLS engine */
    public SSLEngine getSslEngine() {
        return engine;
    }

    /** Adds a listener of the handshake's outcome; before the connection opens. */
    public void addListener(Listener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /** @return how many pooled buffers this connection holds now (zero when idle) */
    public int getHeldBuffers() {
        lock.lock();
        try {
            return machine.heldBuffers();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The network endpoint was upgraded to this connection by one that had read past its own
     * protocol (a PROXY header reader that also read the ClientHello): those bytes are the
     * first encrypted input. Before {@link #onOpen()}.
     */
    @Override
    public void onUpgradeTo(RetainableByteBuffer prefilled) {
        lock.lock();
        try {
            machine.prefill(prefilled);
        } finally {
            lock.unlock();
        }
    }

    @Override
    public void onOpen() {
        super.onOpen();
        SSLException failed = null;
        lock.lock();
        try {
            machine.open();
        } catch (SSLException x) {
            failed = x;
        } finally {
            lock.unlock();
        }
        if (failed != null) {
            decrypted.close(failed);
            return;
        }
        decrypted.onOpen();
        Connection application = decrypted.getConnection();
        if (application == null) {
            decrypted.close(new IllegalStateException("No connection set on the decrypted endpoint of " + this));
            return;
        }
        application.onOpen();
    }

    /** The network is readable: wakes the decrypted side's waiting read or write. */
    @Override
    public void onFillable() {
        step(machine::onNetworkReadable);
    }

    /** @return the type of what waits on the decrypted side for the network to be readable */
    @Override
    public InvocationType invocationType() {
        return machine.networkReadInvocationType();
    }

    /** The network endpoint closed: so does the decrypted one (once the current locked section, if any, ends). */
    @Override
    public void onClose(Throwable cause) {
        if (lock.isHeldByCurrentThread()) {
            machine.deferClose(cause);
            return;
        }
        decrypted.close(cause);
    }

    /** The network endpoint was idle: the application's connection decides. */
    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        Connection application = decrypted.getConnection();
        return application == null || application.onIdleExpired(timeout);
    }

    // ---- the decrypted endpoint's operations ----

    int fill(ByteBuffer target) throws IOException {
        Connection reader = decrypted.getConnection();
        while (true) {
            int filled = 0;
            Throwable thrown = null;
            Pending pending;
            lock.lock();
            try {
                filled = machine.fill(target);
            } catch (Throwable x) {
                thrown = x;
                machine.fail(x);
            } finally {
                pending = machine.takePending();
                lock.unlock();
            }
            perform(pending);
            if (thrown != null) {
                throw asIOException(thrown);
            }
            if (filled < 0) {
                decrypted.inputEnded();
                return -1;
            }
            // This thread told the listeners: read on, unless one of them upgraded the connection.
            if (filled == 0 && pending.has(SslStateMachine.NOTIFY_SUCCEEDED) && decrypted.getConnection() == reader) {
                continue;
            }
            return filled;
        }
    }

    /** @return whether no decrypted or encrypted byte waits here, and the network's last read drained it */
    boolean isDrained() {
        lock.lock();
        try {
            return machine.holdsNoInput() && getEndPoint().isDrained();
        } finally {
            lock.unlock();
        }
    }

    boolean flush(ByteBuffer[] sources) throws IOException {
        boolean flushed = false;
        Throwable thrown = null;
        Pending pending;
        lock.lock();
        try {
            flushed = machine.flush(sources);
        } catch (Throwable x) {
            thrown = x;
            machine.fail(x);
        } finally {
            pending = machine.takePending();
            lock.unlock();
        }
        perform(pending);
        if (thrown != null) {
            throw asIOException(thrown);
        }
        return flushed;
    }

    void needsFillInterest() {
        step(machine::needsFillInterest);
    }

    void onIncompleteFlush() {
        step(machine::onIncompleteFlush);
    }

    void shutdownOutput() {
        step(machine::shutdownOutput);
    }

    /** The decrypted endpoint is closing: best-effort close_notify. */
    void closing() {
        lock.lock();
        try {
            machine.closing();
        } finally {
            lock.unlock();
        }
    }

    /** The decrypted endpoint closed: buffers back, listeners told if the handshake never completed, network closed. */
    void closed(Throwable cause) {
        boolean handshakeFailed;
        lock.lock();
        try {
            handshakeFailed = machine.closed();
        } finally {
            lock.unlock();
        }
        if (handshakeFailed) {
            notifyHandshakeFailed(cause != null ? cause : new EofException("Closed before the TLS handshake completed: " + decrypted));
        }
        getEndPoint().close(cause);
    }

    // ---- actions ----

    /** Runs one machine step under the lock, then its actions. */
    private void step(Runnable step) {
        Pending pending;
        lock.lock();
        try {
            step.run();
        } finally {
            pending = machine.takePending();
            lock.unlock();
        }
        perform(pending);
    }

    private void perform(Pending pending) {
        if (pending.actions() == 0) {
            return;
        }
        if (pending.has(SslStateMachine.NOTIFY_FAILED)) {
            notifyHandshakeFailed(pending.cause());
        }
        if (pending.has(SslStateMachine.NOTIFY_SUCCEEDED)) {
            notifyHandshakeSucceeded(SslHandshake.of(decrypted, engine));
            step(machine::handshakeNotified);
        }
        if (pending.has(SslStateMachine.START_NETWORK_WRITE)) {
            getEndPoint().write(networkWrite, pending.write());
        }
        if (pending.has(SslStateMachine.SHUT_NETWORK_OUTPUT)) {
            getEndPoint().shutdownOutput();
        }
        if (pending.has(SslStateMachine.REGISTER_NETWORK_READ)) {
            tryFillInterested();
        }
        if (pending.has(SslStateMachine.WAKE_FLUSH)) {
            decrypted.wakeWrite();
        }
        if (pending.has(SslStateMachine.WAKE_FILL)) {
            decrypted.wakeFill();
        }
        if (pending.has(SslStateMachine.DISPATCH_FLUSH)) {
            dispatch(decrypted::wakeWrite);
        }
        if (pending.has(SslStateMachine.DISPATCH_FILL)) {
            dispatch(decrypted::wakeFill);
        }
        if (pending.has(SslStateMachine.CLOSE)) {
            decrypted.close(pending.cause());
        }
    }

    /** Wake-ups that would otherwise recurse into the caller run on the executor. */
    private void dispatch(Runnable task) {
        try {
            getExecutor().execute(task);
        } catch (RejectedExecutionException x) {
            decrypted.close(x);
        }
    }

    private static IOException asIOException(Throwable cause) {
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException(cause);
    }

    private void notifyHandshakeSucceeded(SslHandshake event) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Handshake succeeded {} {}", event, this);
        }
        for (Listener listener : listeners) {
            try {
                listener.handshakeSucceeded(event);
            } catch (Throwable x) {
                LOG.warn("{} threw on handshake success of {}", listener, this, x);
            }
        }
    }

    private void notifyHandshakeFailed(Throwable cause) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("Handshake failed {}", this, cause);
        }
        for (Listener listener : listeners) {
            try {
                listener.handshakeFailed(decrypted, cause);
            } catch (Throwable x) {
                LOG.warn("{} threw on handshake failure of {}", listener, this, x);
            }
        }
    }

    /** Completes the network write of the encrypted output the machine lent it. */
    private final class NetworkWriteCallback implements Callback {
        @Override
        public void succeeded() {
            step(machine::onNetworkWritten);
        }

        @Override
        public void failed(Throwable cause) {
            step(() -> machine.onNetworkWriteFailed(cause));
        }

        @Override
        public InvocationType invocationType() {
            return machine.networkWriteInvocationType();
        }

        @Override
        public String toString() {
            return "NetworkWrite@" + SslConnection.this;
        }
    }

    @Override
    public String toString() {
        return "SslConnection@" + Integer.toHexString(hashCode()) + "{" + (engine.getUseClientMode() ? "client" : "server")
            + "," + machine + "}";
    }
}
