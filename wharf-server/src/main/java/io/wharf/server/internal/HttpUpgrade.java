package io.wharf.server.internal;

import java.util.List;
import java.util.Objects;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ProtocolUpgrade;

/**
 * The {@link ProtocolUpgrade} of one HTTP/1.1 request: what the client offered and, once a
 * handler accepted, the 101 response to write and the connection to switch to. Made on the
 * first {@code getProtocolUpgrade()} of an exchange that asked for a switch; used on the
 * handler's thread, then read by the thread that completes the exchange (the handler's
 * callback publishes it).
 */
final class HttpUpgrade implements ProtocolUpgrade {

    private final ServerResponse response;
    private final List<String> offered;
    private String protocol;
    private HttpFields fields;
    private Function<EndPoint, Connection> factory;

    private HttpUpgrade(ServerResponse response, List<String> offered) {
        this.response = response;
        this.offered = offered;
    }

    /** @return the offer of a request that asks to switch protocols, or null when it does not or cannot */
    static HttpUpgrade offeredBy(HttpVersion version, HttpFields requestFields, ServerResponse response) {
        if (version != HttpVersion.HTTP_1_1 || !requestFields.contains(HttpHeader.UPGRADE)
                || !requestFields.contains(HttpHeader.CONNECTION, HttpHeaderValue.UPGRADE.asString())) {
            return null;
        }
        List<String> protocols = requestFields.getCommaSeparated(HttpHeader.UPGRADE);
        return protocols.isEmpty() ? null : new HttpUpgrade(response, List.copyOf(protocols));
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
    boolean isAccepted() {
        return factory != null;
    }

    /** The handler failed: the switch will not happen and the failure is answered instead. */
    void lapse() {
        factory = null;
    }

    /** @return the {@code 101 Switching Protocols} head to write */
    MetaData.Response switchingProtocols() {
        HttpFields.Mutable head = HttpFields.build(fields.size() + 2);
        for (var field : fields) {
            if (field.getHeader() != HttpHeader.UPGRADE && field.getHeader() != HttpHeader.CONNECTION) {
                head.add(field);
            }
        }
        head.add(HttpHeader.UPGRADE, protocol);
        head.add(HttpHeader.CONNECTION, HttpHeaderValue.UPGRADE.asString());
        return new MetaData.Response(HttpStatus.SWITCHING_PROTOCOLS_101, null, HttpVersion.HTTP_1_1, head, -1, null);
    }

    /** @return the connection that takes over {@code endPoint}, made by the handler's factory */
    Connection newConnection(EndPoint endPoint) {
        Connection next = factory.apply(endPoint);
        if (next == null) {
            throw new IllegalStateException("the upgrade factory for " + protocol + " made no connection");
        }
        return next;
    }

    @Override
    public String toString() {
        return "HttpUpgrade{offered=" + offered + (protocol != null ? ",accepted=" + protocol : "") + "}";
    }
}
