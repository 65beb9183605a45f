package io.wharf.server.proxy.internal;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ProxyHeader;
import io.wharf.server.internal.ProxyHeaderSource;
import io.wharf.util.Callback;

/**
 * The endpoint a connection sees after a PROXY protocol header: it reports the addresses the
 * header named (the client's, the balancer's) and delegates everything else — reading,
 * writing, interest, closing, idle timeout, the connection and upgrades — to the real
 * endpoint beneath, which keeps receiving the selector's events and calling its (the next
 * protocol's) connection. Where the header named no address (LOCAL, UNKNOWN, UNSPEC), the
 * real one shows through.
 *
 * <p>Made by the PROXY connection on a selector thread; thread-safe as the real endpoint is.
 * It owns no buffers. {@link #getProxyHeader()} gives the header, with its TLVs, to the
 * connections above, which find it through {@link ProxyHeaderSource} (the HTTP/1.1 connection
 * exposes it as {@link io.wharf.server.ConnectionMetaData#getProxyHeader()}).
 */
public final class ProxiedEndPoint implements EndPoint, ProxyHeaderSource {

    private final EndPoint real;
    private final ProxyHeader header;

    public ProxiedEndPoint(EndPoint real, ProxyHeader header) {
        this.real = real;
        this.header = header;
    }

    /** @return the header received before the client's bytes */
    @Override
    public ProxyHeader getProxyHeader() {
        return header;
    }

    /** @return the real endpoint beneath */
    public EndPoint getRealEndPoint() {
        return real;
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return header.destination().orElseGet(real::getLocalSocketAddress);
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return header.source().orElseGet(real::getRemoteSocketAddress);
    }

    @Override
    public boolean isOpen() {
        return real.isOpen();
    }

    @Override
    public long getCreatedTimeStamp() {
        return real.getCreatedTimeStamp();
    }

    @Override
    public boolean isInputShutdown() {
        return real.isInputShutdown();
    }

    @Override
    public boolean isOutputShutdown() {
        return real.isOutputShutdown();
    }

    @Override
    public void shutdownOutput() {
        real.shutdownOutput();
    }

    @Override
    public void close(Throwable cause) {
        real.close(cause);
    }

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        return real.fill(buffer);
    }

    @Override
    public boolean flush(ByteBuffer... buffers) throws IOException {
        return real.flush(buffers);
    }

    @Override
    public void fillInterested(Callback callback) {
        real.fillInterested(callback);
    }

    @Override
    public boolean tryFillInterested(Callback callback) {
        return real.tryFillInterested(callback);
    }

    @Override
    public boolean isFillInterested() {
        return real.isFillInterested();
    }

    @Override
    public void write(Callback callback, ByteBuffer... buffers) {
        real.write(callback, buffers);
    }

    @Override
    public Connection getConnection() {
        return real.getConnection();
    }

    @Override
    public void setConnection(Connection connection) {
        real.setConnection(connection);
    }

    @Override
    public void upgrade(Connection next) {
        real.upgrade(next);
    }

    @Override
    public long getIdleTimeout() {
        return real.getIdleTimeout();
    }

    @Override
    public void setIdleTimeout(long idleTimeoutMillis) {
        real.setIdleTimeout(idleTimeoutMillis);
    }

    @Override
    public Object getTransport() {
        return real.getTransport();
    }

    @Override
    public boolean isSecure() {
        return real.isSecure();
    }

    @Override
    public void onOpen() {
        // The real endpoint was opened by its connector; nothing more to open.
    }

    @Override
    public String toString() {
        return "ProxiedEndPoint{" + getRemoteSocketAddress() + "->" + getLocalSocketAddress() + "," + real + "}";
    }
}
