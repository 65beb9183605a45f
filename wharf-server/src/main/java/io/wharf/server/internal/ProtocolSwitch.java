package io.wharf.server.internal;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ProtocolUpgrade;

/**
 * The {@link ProtocolUpgrade} of one request, whatever the protocol: what the client offered
 * (HTTP/1.1's {@code Upgrade} tokens, HTTP/2's {@code :protocol} of an extended CONNECT) and,
 * once a handler accepted, the protocol, the fields of the head that opens it and the factory
 * of the connection that takes over. The {@link ServerStream} writes that head (a 101, or a
 * 200 on the stream) and hands its transport over.
 *
 * <p>Made on a handler's first {@code getProtocolUpgrade()}; used on the handler's thread, then
 * read by the thread that completes the exchange (the handler's callback publishes it).
 */
public final class ProtocolSwitch implements ProtocolUpgrade {

    private final ExchangeResponse response;
    private final List<String> offered;
    private final int openingStatus;
    private String protocol;
    private HttpFields fields;
    private Function<EndPoint, Connection> factory;

    /**
     * @param offered the protocols the client offered, in its order; not empty
     * @param openingStatus the status of the head that opens the new protocol: 101 on HTTP/1.1, 200 on HTTP/2
     */
    public ProtocolSwitch(ExchangeResponse response, List<String> offered, int openingStatus) {
        this.response = response;
        this.offered = offered;
        this.openingStatus = openingStatus;
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
            throw new IllegalStateException("a switch to " + this.protocol + " was already accepted");
        }
        if (response.isCommitted()) {
            throw new IllegalStateException("the response is committed: too late to switch protocols");
        }
        this.protocol = protocol;
        this.fields = fields == null ? HttpFields.EMPTY : fields;
        this.factory = factory;
    }

    /** @return whether a handler accepted the switch and it has not lapsed */
    public boolean isAccepted() {
        return factory != null;
    }

    /** The handler failed: the switch will not happen and the failure is answered instead. */
    public void lapse() {
        factory = null;
    }

    /** @return the status of the head that opens the new protocol */
    public int openingStatus() {
        return openingStatus;
    }

    /** @return the protocol accepted */
    public String protocol() {
        return protocol;
    }

    /** @return the fields the handler gave for the head that opens the protocol */
    public HttpFields fields() {
        return fields;
    }

    /** @return the connection that takes over {@code endPoint}, made by the handler's factory */
    public Connection newConnection(EndPoint endPoint) {
        Connection next = factory.apply(endPoint);
        if (next == null) {
            throw new IllegalStateException("the upgrade factory for " + protocol + " made no connection");
        }
        return next;
    }

    @Override
    public String toString() {
        return "ProtocolSwitch{offered=" + offered + (protocol != null ? ",accepted=" + protocol : "") + "}";
    }
}
