package io.wharf.io.ssl;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;

import io.wharf.io.AbstractConnection;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * TLS over the JDK {@link SSLEngine}, as a connection on the network endpoint (where the bytes
 * are encrypted) that exposes a decrypted {@link SslEndPoint}, on which the application's
 * connection runs as if on a plain socket.
 *
 * <pre>
 *   application Connection ──fill/flush/write──▶ SslEndPoint (decrypted)
 *                                                    │ wrap / unwrap (SslStateMachine)
 *   SslConnection ◀──onFillable── network EndPoint ◀─┘ fill / flush / write (encrypted)
 * </pre>
 *
 * <p>Who calls what: the creator (a server's opener, or {@link io.wharf.io.ClientConnector})
 * makes this connection for a new network endpoint, sets the application's connection on
 * {@link #getDecryptedEndPoint()}, and opens this one; {@link #onOpen()} starts the handshake,
 * opens the decrypted endpoint and then the application's connection. The handshake is driven
 * by the application's reads and writes; the network tells this connection when it is readable
 * ({@link #onFillable()}, which wakes whatever waits on the decrypted side) and its write
 * callback when encrypted bytes were written. Both declare the invocation type of what waits
 * on the decrypted side (see {@link SslStateMachine}).
 *
 * <p>Rules: renegotiation is refused (a TLS 1.2 peer that starts a second handshake fails the
 * connection with an {@link javax.net.ssl.SSLHandshakeException}); ALPN is configured on the
 * engine (see {@link SslConnectionFactory}) and reported to {@link Listener}s, which are told
 * before the first application byte is delivered and may upgrade the decrypted endpoint to the
 * negotiated protocol's connection.
 *
 * <p>Buffers: every encrypted and decrypted buffer is borrowed from the given pool when bytes
 * are there and returned as soon as it is empty; an idle TLS connection holds none, and closing
 * returns them all.
 */
public class SslConnection extends AbstractConnection {

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

    private final SSLEngine engine;
    private final SslStateMachine machine;
    private final SslEndPoint decrypted;
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
        this.machine = new SslStateMachine(this, network, engine, new SslBuffers(Objects.requireNonNull(pool, "pool"), directBuffers));
        this.decrypted = new SslEndPoint(this, machine, executor);
        machine.attach(decrypted);
    }

    /** @return the endpoint on which the application's connection runs */
    public SslEndPoint getDecryptedEndPoint() {
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
        return machine.heldBuffers();
    }

    @Override
    public void onOpen() {
        super.onOpen();
        try {
            machine.open();
        } catch (SSLException x) {
            decrypted.close(x);
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
        machine.onNetworkFillable();
    }

    /** @return the type of what waits on the decrypted side for the network to be readable */
    @Override
    public InvocationType invocationType() {
        return machine.networkReadInvocationType();
    }

    @Override
    public void onClose(Throwable cause) {
        machine.onNetworkClosed(cause);
    }

    /** The network endpoint was idle: the application's connection decides. */
    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        Connection application = decrypted.getConnection();
        return application == null || application.onIdleExpired(timeout);
    }

    void notifyHandshakeSucceeded(SslHandshake event) {
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

    void notifyHandshakeFailed(Throwable cause) {
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

    @Override
    public String toString() {
        return "SslConnection@" + Integer.toHexString(hashCode()) + "{" + (engine.getUseClientMode() ? "client" : "server")
            + "," + machine + "}";
    }
}
