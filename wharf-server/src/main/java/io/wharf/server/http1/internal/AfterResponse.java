package io.wharf.server.http1.internal;

import io.wharf.io.EndPoint;
import io.wharf.server.internal.ProtocolSwitch;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.RetainableByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What an {@link HttpConnection} does once an exchange's response is done. It is the callback
 * every exchange of the connection completes ({@link Http1Stream#responseDone()}), which
 * resumes the connection's request loop, and {@link #finish()} is the decision the loop then
 * takes about the exchange: the connection carries another request (the codec reset for it),
 * switches to the protocol a 101 accepted (handing it the endpoint with the bytes read past
 * the request), or closes.
 *
 * <p>One per connection, made with it, so that completing an exchange allocates nothing.
 * <b>Threads.</b> The callback is NON_BLOCKING and runs on the thread that completed the
 * response; {@link #finish()} runs on the thread that carries the request loop on at that point,
 * one at a time as the connection's loop state hands over. <b>Buffers.</b> On a close the
 * connection's network buffer is dropped, unread bytes and all; on a switch it goes to the next
 * protocol's connection ({@link HttpConnection#onUpgradeFrom()}).
 */
final class AfterResponse implements Callback {

    private static final Logger LOG = LoggerFactory.getLogger(AfterResponse.class);

    private final HttpConnection connection;

    AfterResponse(HttpConnection connection) {
        this.connection = connection;
    }

    @Override
    public void succeeded() {
        connection.onExchangeComplete();
    }

    /** The exchange's response could not be completed: the connection closes. */
    @Override
    public void failed(Throwable cause) {
        connection.getEndPoint().close(cause);
        connection.onExchangeComplete();
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    /**
     * Ends the connection's exchange: resets the parser (when another request follows),
     * generator, fields and guard, or switches protocols, or closes.
     *
     * @return whether the connection stays open for another request
     */
    boolean finish() {
        Http1Stream done = connection.exchange();
        HttpCodec codec = connection.codec();
        EndPoint endPoint = connection.getEndPoint();
        // Skipped while still the current exchange, so that the parser's end-of-message reaches it.
        ProtocolSwitch upgrade = done == null ? null : done.exchange().acceptedSwitch();
        boolean goesOn = done != null && endPoint.isOpen() && (upgrade != null || done.isPersistent() && !connection.isShutdown());
        boolean contentDone = goesOn && done.skipRemainingContent() && codec.parser.isComplete();
        connection.forgetExchange();
        if (upgrade != null && endPoint.isOpen()) {
            switchProtocols(codec, upgrade, contentDone);
            return false;
        }
        boolean persistent = contentDone && done.isPersistent() && !connection.isShutdown();
        if (persistent) {
            codec.parser.reset();
        }
        codec.endExchange();
        if (!persistent) {
            connection.releaseNetworkIfUnused();
            endPoint.shutdownOutput();
            RetainableByteBuffer network = connection.network();
            if (network != null) {
                network.byteBuffer().position(network.byteBuffer().limit());
                connection.releaseNetworkIfUnused();
            }
            endPoint.close();
            return false;
        }
        return true;
    }

    /**
     * After a 101 was written: skips what is left of the request's content and hands the
     * endpoint, with the bytes already read past the request, to the accepted protocol's
     * connection. The request loop stops here; the connection is closed by the switch.
     */
    private void switchProtocols(HttpCodec codec, ProtocolSwitch upgrade, boolean contentDone) {
        codec.endExchange();
        EndPoint endPoint = connection.getEndPoint();
        try {
            if (!contentDone) {
                throw new IllegalStateException("the request content was not all read before switching protocols");
            }
            codec.parser.reset();
            connection.releaseNetworkIfUnused();
            // A graceful stop that began during the exchange reaches the next protocol's connection through the upgrade.
            endPoint.upgrade(upgrade.newConnection(endPoint));
        } catch (Throwable x) {
            LOG.debug("Switching protocols failed on {}", connection, x);
            connection.releaseNetwork();
            endPoint.close(x);
        }
    }

    @Override
    public String toString() {
        return "AfterResponse{" + connection + "}";
    }
}
