package io.wharf.server;

import java.util.List;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;

/**
 * The switch of an HTTP/1.1 connection to another protocol (RFC 9110 section 7.8): what
 * WebSocket and h2c build on. {@link Request#getProtocolUpgrade()} offers it when the request
 * asked for a switch — an HTTP/1.1 request with an {@code Upgrade} field and the
 * {@code upgrade} option in {@code Connection}.
 *
 * <p>Over HTTP/2 an extended CONNECT (RFC 8441) offers its {@code :protocol} the same way; there
 * the server answers {@code 200} (not 101, and without {@code Upgrade} or {@code Connection})
 * and the factory's connection runs on an endpoint over the request's stream, while the HTTP/2
 * connection's other streams go on.
 *
 * <p>A handler that takes the offer calls {@link #accept} and then completes its callback
 * without writing a response. The server then writes {@code 101 Switching Protocols} with
 * the given fields, and once that is written it replaces the connection on the endpoint with
 * the one {@code factory} makes. The request's unread content is skipped first (the switch
 * fails, and the connection closes, when not all of it is already here), and the bytes the
 * client sent after the request are handed to the new connection when it implements
 * {@link Connection.UpgradeTo}. If the handler fails its callback instead, the offer lapses
 * and the failure is answered as usual.
 *
 * <p><b>Threads.</b> Used by the handler, on the thread that handles the request, before its
 * callback completes. {@code factory} runs on the thread that completes the 101 write.
 */
public interface ProtocolUpgrade {

    /** @return the protocols the client offered in its {@code Upgrade} field, in its order of preference */
    List<String> getOfferedProtocols();

    /**
     * Accepts the switch to {@code protocol}, to happen when the handler's callback succeeds.
     *
     * @param protocol one of the offered protocols, sent back in the {@code Upgrade} field
     * @param fields more fields for the 101 response (for example {@code Sec-WebSocket-Accept});
     *     {@code Upgrade} and {@code Connection: Upgrade} are added
     * @param factory makes the connection that takes over the endpoint
     * @throws IllegalArgumentException when {@code protocol} was not offered
     * @throws IllegalStateException when the response is committed or a switch was already accepted
     */
    void accept(String protocol, HttpFields fields, Function<EndPoint, Connection> factory);
}
