package io.wharf.client.internal.route;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.client.Proxy;
import io.wharf.client.ProxyException;
import io.wharf.io.AbstractConnection;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The first connection on the network endpoint to a proxy: asks the proxy for a tunnel to the
 * origin (a subclass speaks the protocol: {@link HttpConnectTunnel}, {@link Socks5Tunnel}),
 * and when the proxy agrees, hands the endpoint to the {@link RouteOpening}'s next step, which
 * upgrades it. Any other outcome — a refusal, an answer that is not the protocol, the proxy
 * closing, a silence past the idle timeout — closes the endpoint and fails the opening with
 * a {@link ProxyException} (or a {@link TimeoutException}) naming the proxy and its answer.
 *
 * <pre>
 *  onOpen ──► send(request) ──written──► read the answer ──► parse: more bytes? read on
 *                  ▲                                            │ next request: send (a SOCKS5 step)
 *                  └────────────────────────────────────────────┤ agreed: established() ──► upgrade
 *                                                               └ refused / nonsense: fail() ──► close
 * </pre>
 *
 * <p><b>Threads.</b> {@link #onOpen()} runs on the selector thread that connected; reads run on
 * the selector thread (this connection never blocks); a write's completion may run on any
 * thread and only asks to read. Reads and writes alternate, so one thread at a time runs the
 * subclass. <b>Buffers.</b> A network buffer is borrowed from the client's pool for each read
 * and returned before waiting again: the subclass keeps what it needs of a partial answer.
 * Requests are a few bytes in heap buffers of their own.
 */
abstract class TunnelConnection extends AbstractConnection {

    private static final int READ_BUFFER_SIZE = 1024;

    protected final RouteOpening<?> opening;
    protected final Proxy proxy;
    private final AtomicBoolean over = new AtomicBoolean();
    private final Callback written = Callback.from(InvocationType.NON_BLOCKING, this::fillInterested, this::writeFailed);

    TunnelConnection(EndPoint endPoint, RouteOpening<?> opening) {
        super(endPoint, opening.connector().getExecutor());
        this.opening = opening;
        this.proxy = opening.proxy();
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    @Override
    public void onOpen() {
        super.onOpen();
        try {
            start();
        } catch (ProxyException x) {
            fail(x);
        }
    }

    /** Sends the first request. On the connecting thread. */
    protected abstract void start() throws ProxyException;

    /**
     * Consumes the answer's bytes that arrived (all of them, keeping what it needs) and acts:
     * sends the next request, calls {@link #established}, or throws.
     *
     * @return true to read more bytes of the same answer, false when it sent a request or established the tunnel
     * @throws ProxyException the proxy refused or answered nonsense
     */
    protected abstract boolean parse(ByteBuffer bytes) throws ProxyException;

    /** @return what was asked of the proxy, for messages: {@code CONNECT localhost:8443} */
    protected abstract String asked();

    /** Writes {@code request}; when written, the answer is read. */
    protected final void send(byte[] request) {
        getEndPoint().write(written, ByteBuffer.wrap(request));
    }

    private void writeFailed(Throwable cause) {
        fail(new ProxyException(proxy, "writing " + asked() + " to proxy " + proxy + " failed: " + cause, cause));
    }

    /**
     * The proxy agreed: the endpoint goes on to the next step. Bytes it sent after its answer
     * would belong to the origin, which cannot speak first: they fail the opening.
     */
    protected final void established(ByteBuffer rest) throws ProxyException {
        if (rest.hasRemaining()) {
            throw new ProxyException(proxy, "proxy " + proxy + " sent " + rest.remaining() + " bytes after agreeing to "
                    + asked() + ", before the origin could have spoken");
        }
        if (over.compareAndSet(false, true)) {
            opening.tunnelEstablished(getEndPoint());
        }
    }

    @Override
    public void onFillable() {
        RetainableByteBuffer buffer = opening.connector().getByteBufferPool().acquire(READ_BUFFER_SIZE, false);
        try {
            ByteBuffer bytes = buffer.byteBuffer();
            while (true) {
                bytes.position(0).limit(0);
                int filled = getEndPoint().fill(bytes);
                if (filled < 0) {
                    fail(new ProxyException(proxy, "proxy " + proxy + " closed the connection before answering " + asked()));
                    return;
                }
                if (filled == 0) {
                    fillInterested();
                    return;
                }
                if (!parse(bytes)) {
                    return;
                }
            }
        } catch (ProxyException x) {
            fail(x);
        } catch (IOException x) {
            fail(new ProxyException(proxy, "reading the answer of proxy " + proxy + " to " + asked() + " failed: " + x, x));
        } finally {
            buffer.release();
        }
    }

    @Override
    public boolean onIdleExpired(TimeoutException timeout) {
        fail(new TimeoutException("idle timeout of " + getEndPoint().getIdleTimeout() + " ms elapsed waiting for proxy "
                + proxy + " to answer " + asked()));
        return false;
    }

    /** Ends the tunnel attempt with {@code cause}: the endpoint closes and the opening fails. Any thread; once. */
    protected final void fail(Throwable cause) {
        if (over.compareAndSet(false, true)) {
            opening.failed(cause);
            getEndPoint().close(cause);
        }
    }

    /** Closed by the network (a reset, the client stopping) before an answer; also told, and ignored, at the upgrade. */
    @Override
    public void onClose(Throwable cause) {
        if (over.compareAndSet(false, true)) {
            opening.failed(new ProxyException(proxy, "the connection to proxy " + proxy + " closed before it answered "
                    + asked() + (cause == null ? "" : ": " + cause), cause));
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode()) + "{" + asked() + " via " + proxy + "}";
    }
}
