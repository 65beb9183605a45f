package io.wharf.server.http2.internal;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ProtocolUpgrade;

/**
 * The {@link ProtocolUpgrade} of an HTTP/2 extended CONNECT (RFC 8441): the client offered the
 * one protocol of its {@code :protocol}. Accepting it makes the server answer {@code 200} with
 * the handler's fields once the handler's callback succeeds, and then run the factory's
 * connection on an {@link io.wharf.http2.session.Http2StreamEndPoint} over the stream (see
 * {@link Http2Exchange}). Used on the handler's thread, then read by the thread that completes
 * the exchange (the handler's callback publishes it).
 */
final class Http2Upgrade implements ProtocolUpgrade {

    private final Http2Response response;
    private final List<String> offered;
    private HttpFields fields;
    private Function<EndPoint, Connection> factory;

    Http2Upgrade(Http2Response response, String protocol) {
        this.response = response;
        this.offered = List.of(protocol);
    }

    @Override
    public List<String> getOfferedProtocols() {
        return offered;
    }

    @Override
    public void accept(String protocol, HttpFields fields, Function<EndPoint, Connection> factory) {
        Objects.requireNonNull(factory, "factory");
        if (!offered.contains(protocol)) {
            throw new IllegalArgumentException("protocol '" + protocol + "' was not offered; the client offered " + offered);
        }
        if (this.factory != null) {
            throw new IllegalStateException("a switch to " + offered.get(0) + " was already accepted");
        }
        if (response.isCommitted()) {
            throw new IllegalStateException("the response is committed: too late to switch protocols");
        }
        this.fields = fields == null ? HttpFields.EMPTY : fields;
        this.factory = factory;
    }

    /** @return whether a handler accepted the switch */
    boolean isAccepted() {
        return factory != null;
    }

    /** The handler failed: the switch will not happen and the failure is answered instead. */
    void lapse() {
        factory = null;
    }

    /** @return the fields the handler gave for the {@code 200} */
    HttpFields fields() {
        return fields;
    }

    /** @return the connection that takes over {@code endPoint}, made by the handler's factory */
    Connection newConnection(EndPoint endPoint) {
        Connection next = factory.apply(endPoint);
        if (next == null) {
            throw new IllegalStateException("the upgrade factory for " + offered.get(0) + " made no connection");
        }
        return next;
    }

    @Override
    public String toString() {
        return "Http2Upgrade{offered=" + offered + (factory != null ? ",accepted" : "") + "}";
    }
}
