package io.wharf.websocket.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * What one {@link WebSocketClient#connect} asks for besides the URI: extra request fields
 * (cookies, authorization, an {@code Origin}) and the subprotocols offered in order of
 * preference. Immutable; change a copy with the {@code with...} methods. Any thread.
 *
 * @param headers extra fields of the opening handshake, in order; the handshake's own fields
 *     ({@code Host}, {@code Upgrade}, {@code Connection}, {@code Sec-WebSocket-*}) may not be set here
 * @param subprotocols the subprotocols offered in {@code Sec-WebSocket-Protocol}, in order
 * @param http2 whether to open the session over HTTP/2 (RFC 8441): an extended CONNECT on an h2
 *     connection for {@code wss://} (ALPN) or an h2c connection with prior knowledge for {@code ws://}
 */
public record ClientUpgradeRequest(Map<String, String> headers, List<String> subprotocols, boolean http2) {

    private static final List<String> RESERVED = List.of("host", "upgrade", "connection", "sec-websocket-key",
        "sec-websocket-version", "sec-websocket-protocol", "sec-websocket-extensions", "content-length", "transfer-encoding");
    /** Connection-specific fields HTTP/2 forbids (RFC 9113 section 8.2.2), besides those above. */
    private static final List<String> NOT_IN_HTTP2 = List.of("keep-alive", "proxy-connection", "te");

    public ClientUpgradeRequest {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
        subprotocols = List.copyOf(subprotocols);
        for (Map.Entry<String, String> field : headers.entrySet()) {
            checkField(field.getKey(), field.getValue());
            if (http2 && NOT_IN_HTTP2.contains(field.getKey().toLowerCase(Locale.ROOT))) {
                throw new IllegalArgumentException(field.getKey() + " is a connection-specific field, which HTTP/2 forbids");
            }
        }
        for (String subprotocol : subprotocols) {
            if (!subprotocol.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
                throw new IllegalArgumentException("a subprotocol is a token: \"" + subprotocol + "\"");
            }
        }
    }

    /** A request over HTTP/1.1. */
    public ClientUpgradeRequest(Map<String, String> headers, List<String> subprotocols) {
        this(headers, subprotocols, false);
    }

    /** @return a request over HTTP/1.1 with no extra field and no subprotocol */
    public static ClientUpgradeRequest defaults() {
        return new ClientUpgradeRequest(Map.of(), List.of(), false);
    }

    /**
     * @return a copy that opens the session over HTTP/2 (RFC 8441) when {@code http2}: the
     *     server must enable extended CONNECT in its SETTINGS, else the connect fails with a
     *     {@link WebSocketHandshakeException} saying so
     */
    public ClientUpgradeRequest withHttp2(boolean http2) {
        return new ClientUpgradeRequest(headers, subprotocols, http2);
    }

    /** @return a copy with the field {@code name: value} added (replacing a field of that name) */
    public ClientUpgradeRequest withHeader(String name, String value) {
        Map<String, String> more = new LinkedHashMap<>(headers);
        more.put(name, value);
        return new ClientUpgradeRequest(more, subprotocols, http2);
    }

    /** @return a copy that offers these subprotocols, in this order */
    public ClientUpgradeRequest withSubprotocols(String... offered) {
        return new ClientUpgradeRequest(headers, new ArrayList<>(List.of(offered)), http2);
    }

    private static void checkField(String name, String value) {
        Objects.requireNonNull(value, name);
        if (!name.matches("[!#$%&'*+.^_`|~0-9A-Za-z-]+")) {
            throw new IllegalArgumentException("a field name is a token: \"" + name + "\"");
        }
        if (RESERVED.contains(name.toLowerCase(Locale.ROOT))) {
            throw new IllegalArgumentException(name + " is set by the handshake itself");
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '\r' || c == '\n' || c == 0 || c > 0xFF) {
                throw new IllegalArgumentException("field " + name + " has a character a field value may not hold");
            }
        }
    }
}
