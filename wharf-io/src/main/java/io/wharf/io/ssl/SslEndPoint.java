package io.wharf.io.ssl;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.Executor;

import javax.net.ssl.SSLEngine;

import io.wharf.io.AbstractEndPoint;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;

/**
 * The decrypted side of a TLS connection: the {@link EndPoint} on which the application's
 * connection (HTTP/1.1, HTTP/2, WebSocket, an echo) runs exactly as on a plain socket.
 *
 * <p>Created by its {@link SslConnection}, which sits on the network endpoint. {@code fill}
 * returns application bytes and -1 after the peer's close_notify or the network's end of
 * input; {@code flush} and {@code write} encrypt and return (or complete) only when the
 * encrypted bytes reached the network; {@link #shutdownOutput()} sends close_notify and then
 * shuts the network output; {@code close} sends close_notify if it can without waiting and
 * closes the network endpoint. The handshake is driven by these calls, on both sides.
 *
 * <p>Threads: as for any endpoint, any thread may fill, flush, register interest or close.
 * Callbacks run on the thread that completes them, as their invocation types allow.
 *
 * <p>Buffers: the caller's buffers are only read ({@code flush}) or appended to ({@code fill});
 * the encrypted and decrypted buffers are the {@link SslConnection}'s, from its pool. The idle
 * timeout is the network endpoint's: reading or setting it here reads or sets that one.
 */
public final class SslEndPoint extends AbstractEndPoint {

    private final SslConnection sslConnection;

    SslEndPoint(SslConnection sslConnection, Executor executor) {
        super(null, executor);
        this.sslConnection = sslConnection;
    }

    /** @return the connection on the network endpoint that owns the TLS engine */
    public SslConnection getSslConnection() {
        return sslConnection;
    }

    /** @return the TLS engine, for the negotiated session and protocol */
    public SSLEngine getSslEngine() {
        return sslConnection.getSslEngine();
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return sslConnection.getEndPoint().getLocalSocketAddress();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return sslConnection.getEndPoint().getRemoteSocketAddress();
    }

    @Override
    public Object getTransport() {
        return sslConnection.getSslEngine();
    }

    @Override
    public boolean isSecure() {
        return true;
    }

    @Override
    public long getIdleTimeout() {
        return sslConnection.getEndPoint().getIdleTimeout();
    }

    @Override
    public void setIdleTimeout(long idleTimeoutMillis) {
        sslConnection.getEndPoint().setIdleTimeout(idleTimeoutMillis);
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        return sslConnection.fill(buffer);
    }

    @Override
    public boolean isDrained() {
        return sslConnection.isDrained();
    }

    @Override
    public boolean flush(ByteBuffer... buffers) throws IOException {
        return sslConnection.flush(buffers);
    }

    @Override
    protected void needsFillInterest() {
        sslConnection.needsFillInterest();
    }

    @Override
    protected void onIncompleteFlush() {
        sslConnection.onIncompleteFlush();
    }

    @Override
    protected void doShutdownOutput() {
        sslConnection.shutdownOutput();
    }

    @Override
    protected void doClose() {
        sslConnection.closing();
    }

    @Override
    protected void onClosed(Throwable cause) {
        sslConnection.closed(cause);
    }

    // ---- for SslConnection, which performs the state machine's actions ----

    void wakeFill() {
        fillable();
    }

    void wakeWrite() {
        completeWrite();
    }

    void inputEnded() {
        onInputEnd();
    }

    InvocationType fillInvocationType() {
        return fillInterest().invocationType();
    }

    InvocationType writeInvocationType() {
        return writeFlusher().invocationType();
    }

    @Override
    public String toString() {
        return super.toString() + "{" + sslConnection + "}";
    }
}
