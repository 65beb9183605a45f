package io.wharf.server.http2.internal;

import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpVersion;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.Connector;
import io.wharf.server.http2.Http2CleartextConnectionFactory;

/**
 * HTTP/1.1's way to start h2c (RFC 7540 section 3.2): a request with {@code Upgrade: h2c},
 * {@code Connection: Upgrade, HTTP2-Settings} and one {@code HTTP2-Settings} field is answered
 * {@code 101 Switching Protocols}, then over HTTP/2 on stream 1. The HTTP/1.1 connection asks
 * the connector's h2c factory (as its {@link io.wharf.server.internal.Http1Handover}), which asks
 * {@link #of}, before handing a request to its handlers; a request with content, or on a
 * connector without an h2c factory, is served as HTTP/1.1 (the RFC lets a server ignore the offer).
 *
 * <p>Called on the HTTP/1.1 connection's thread; immutable.
 */
public final class H2cUpgrade {

    private H2cUpgrade() {
    }

    /**
     * @param length the request content's length, -1 when chunked
     * @return what makes the connection taking over after the 101, or null to serve the request as HTTP/1.1
     */
    public static Function<EndPoint, Connection> of(Http2CleartextConnectionFactory h2c, Connector connector, String method,
                                                    String target, HttpVersion version, HttpFields fields, long length) {
        if (version != HttpVersion.HTTP_1_1 || length != 0 || !target.startsWith("/") || !fields.contains(HttpHeader.UPGRADE)
                || !hasToken(fields, HttpHeader.UPGRADE, "h2c")
                || !hasToken(fields, HttpHeader.CONNECTION, "upgrade") || !hasToken(fields, HttpHeader.CONNECTION, "http2-settings")) {
            return null;
        }
        List<String> encoded = fields.getValuesList("HTTP2-Settings");
        Settings settings = encoded.size() == 1 ? decode(encoded.get(0)) : null;
        if (settings == null) {
            return null;
        }
        HttpFields.Mutable kept = HttpFields.build(fields.size());
        for (HttpField field : fields) {
            HttpHeader header = field.getHeader();
            if (header == HttpHeader.CONNECTION || header == HttpHeader.UPGRADE || header == HttpHeader.KEEP_ALIVE
                    || header == HttpHeader.PROXY_CONNECTION || header == HttpHeader.TRANSFER_ENCODING
                    || field.is("HTTP2-Settings")) {
                continue;
            }
            kept.add(field);
        }
        RequestHead head = new RequestHead(method, "http", fields.get(HttpHeader.HOST), target, kept.asImmutable(), -1);
        return endPoint -> {
            Http2ServerConnection connection = (Http2ServerConnection) h2c.newConnection(connector, endPoint);
            connection.upgradedFrom(settings, head);
            return connection;
        };
    }

    private static boolean hasToken(HttpFields fields, HttpHeader header, String token) {
        for (String value : fields.getCommaSeparated(header)) {
            if (value.trim().toLowerCase(Locale.ROOT).equals(token)) {
                return true;
            }
        }
        return false;
    }

    /** @return the settings of an {@code HTTP2-Settings} value (base64url of a SETTINGS payload), or null when malformed */
    static Settings decode(String value) {
        byte[] payload;
        try {
            payload = Base64.getUrlDecoder().decode(value.trim());
        } catch (IllegalArgumentException x) {
            return null;
        }
        if (payload.length % 6 != 0) {
            return null;
        }
        Settings.Builder settings = Settings.builder();
        for (int at = 0; at < payload.length; at += 6) {
            int id = (payload[at] & 0xFF) << 8 | payload[at + 1] & 0xFF;
            long number = ((long) (payload[at + 2] & 0xFF) << 24) | (payload[at + 3] & 0xFF) << 16 | (payload[at + 4] & 0xFF) << 8
                    | payload[at + 5] & 0xFF;
            Setting setting = Setting.from(id);
            if (setting != null) {
                if (setting.check(number) != null) {
                    return null;
                }
                settings.set(setting, number);
            }
        }
        return settings.build();
    }
}
