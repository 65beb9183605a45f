package io.wharf.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import io.wharf.util.Index;

/**
 * The header names Wharf knows, each with its canonical spelling, its lower-case form (the
 * HTTP/2 and HTTP/3 spelling) and its bytes. A known name lets code compare headers by
 * identity instead of by string, and lets the HTTP/1 parser recognise a name in the network
 * buffer with {@link #CACHE} without making a String. The HTTP/2 pseudo-headers
 * ({@code :path}, {@code :status}...) are here too.
 *
 * <p>Names are case-insensitive (RFC 9110 section 5.1); unknown names are carried as
 * strings in an {@link HttpField} whose header is null.
 */
public enum HttpHeader {
    CONNECTION("Connection"),
    CACHE_CONTROL("Cache-Control"),
    DATE("Date"),
    PRAGMA("Pragma"),
    PROXY_CONNECTION("Proxy-Connection"),
    TRAILER("Trailer"),
    TRANSFER_ENCODING("Transfer-Encoding"),
    UPGRADE("Upgrade"),
    VIA("Via"),
    WARNING("Warning"),
    KEEP_ALIVE("Keep-Alive"),
    ALLOW("Allow"),
    CONTENT_ENCODING("Content-Encoding"),
    CONTENT_LANGUAGE("Content-Language"),
    CONTENT_LENGTH("Content-Length"),
    CONTENT_LOCATION("Content-Location"),
    CONTENT_MD5("Content-MD5"),
    CONTENT_RANGE("Content-Range"),
    CONTENT_TYPE("Content-Type"),
    EXPIRES("Expires"),
    LAST_MODIFIED("Last-Modified"),
    ACCEPT("Accept"),
    ACCEPT_CHARSET("Accept-Charset"),
    ACCEPT_ENCODING("Accept-Encoding"),
    ACCEPT_LANGUAGE("Accept-Language"),
    AUTHORIZATION("Authorization"),
    EXPECT("Expect"),
    FORWARDED("Forwarded"),
    FROM("From"),
    HOST("Host"),
    IF_MATCH("If-Match"),
    IF_MODIFIED_SINCE("If-Modified-Since"),
    IF_NONE_MATCH("If-None-Match"),
    IF_RANGE("If-Range"),
    IF_UNMODIFIED_SINCE("If-Unmodified-Since"),
    MAX_FORWARDS("Max-Forwards"),
    PROXY_AUTHORIZATION("Proxy-Authorization"),
    RANGE("Range"),
    REQUEST_RANGE("Request-Range"),
    REFERER("Referer"),
    TE("TE"),
    USER_AGENT("User-Agent"),
    X_FORWARDED_FOR("X-Forwarded-For"),
    X_FORWARDED_PORT("X-Forwarded-Port"),
    X_FORWARDED_PROTO("X-Forwarded-Proto"),
    X_FORWARDED_SERVER("X-Forwarded-Server"),
    X_FORWARDED_HOST("X-Forwarded-Host"),
    X_FORWARDED_PREFIX("X-Forwarded-Prefix"),
    ACCEPT_RANGES("Accept-Ranges"),
    AGE("Age"),
    ALT_SVC("Alt-Svc"),
    ETAG("ETag"),
    LOCATION("Location"),
    PROXY_AUTHENTICATE("Proxy-Authenticate"),
    RETRY_AFTER("Retry-After"),
    SERVER("Server"),
    SERVLET_ENGINE("Servlet-Engine"),
    VARY("Vary"),
    WWW_AUTHENTICATE("WWW-Authenticate"),
    ORIGIN("Origin"),
    SEC_WEBSOCKET_KEY("Sec-WebSocket-Key"),
    SEC_WEBSOCKET_VERSION("Sec-WebSocket-Version"),
    SEC_WEBSOCKET_EXTENSIONS("Sec-WebSocket-Extensions"),
    SEC_WEBSOCKET_SUBPROTOCOL("Sec-WebSocket-Subprotocol"),
    SEC_WEBSOCKET_PROTOCOL("Sec-WebSocket-Protocol"),
    SEC_WEBSOCKET_ACCEPT("Sec-WebSocket-Accept"),
    COOKIE("Cookie"),
    SET_COOKIE("Set-Cookie"),
    SET_COOKIE2("Set-Cookie2"),
    MIME_VERSION("MIME-Version"),
    IDENTITY("Identity"),
    X_POWERED_BY("X-Powered-By"),
    HTTP2_SETTINGS("HTTP2-Settings"),
    STRICT_TRANSPORT_SECURITY("Strict-Transport-Security"),
    LINK("Link"),
    CONTENT_DISPOSITION("Content-Disposition"),
    ACCESS_CONTROL_ALLOW_ORIGIN("Access-Control-Allow-Origin"),
    ACCESS_CONTROL_ALLOW_CREDENTIALS("Access-Control-Allow-Credentials"),
    ACCESS_CONTROL_ALLOW_HEADERS("Access-Control-Allow-Headers"),
    ACCESS_CONTROL_ALLOW_METHODS("Access-Control-Allow-Methods"),
    ACCESS_CONTROL_EXPOSE_HEADERS("Access-Control-Expose-Headers"),
    ACCESS_CONTROL_MAX_AGE("Access-Control-Max-Age"),
    ACCESS_CONTROL_REQUEST_HEADERS("Access-Control-Request-Headers"),
    ACCESS_CONTROL_REQUEST_METHOD("Access-Control-Request-Method"),
    PRIORITY("Priority"),
    SEC_FETCH_DEST("Sec-Fetch-Dest"),
    SEC_FETCH_MODE("Sec-Fetch-Mode"),
    SEC_FETCH_SITE("Sec-Fetch-Site"),
    SEC_FETCH_USER("Sec-Fetch-User"),
    UPGRADE_INSECURE_REQUESTS("Upgrade-Insecure-Requests"),
    DNT("DNT"),
    X_REQUESTED_WITH("X-Requested-With"),
    X_CONTENT_TYPE_OPTIONS("X-Content-Type-Options"),
    X_FRAME_OPTIONS("X-Frame-Options"),
    CONTENT_SECURITY_POLICY("Content-Security-Policy"),
    REFERRER_POLICY("Referrer-Policy"),
    C_AUTHORITY(":authority"),
    C_METHOD(":method"),
    C_PATH(":path"),
    C_SCHEME(":scheme"),
    C_STATUS(":status"),
    C_PROTOCOL(":protocol");

    /** Case-insensitive lookup of a known header name. */
    public static final Index<HttpHeader> CACHE = Index.<HttpHeader>builder()
            .caseSensitive(false)
            .withAll(values(), HttpHeader::asString)
            .build();

    private final String string;
    private final String lowerCase;
    private final byte[] bytes;
    private final byte[] bytesColonSpace;

    HttpHeader(String string) {
        this.string = string;
        this.lowerCase = string.toLowerCase(Locale.ROOT);
        this.bytes = string.getBytes(StandardCharsets.US_ASCII);
        this.bytesColonSpace = (string + ": ").getBytes(StandardCharsets.US_ASCII);
    }

    /** @return the canonical spelling, e.g. {@code "Content-Length"} */
    public String asString() {
        return string;
    }

    /** @return the lower-case spelling, e.g. {@code "content-length"} */
    public String lowerCaseName() {
        return lowerCase;
    }

    /** @return the canonical spelling's bytes; do not modify */
    public byte[] getBytes() {
        return bytes;
    }

    /** @return the bytes of {@code "Name: "}, ready for an HTTP/1 generator; do not modify */
    public byte[] getBytesColonSpace() {
        return bytesColonSpace;
    }

    /** @return whether this is an HTTP/2 or HTTP/3 pseudo-header ({@code :path}...) */
    public boolean isPseudo() {
        return string.charAt(0) == ':';
    }

    /** @return whether {@code name} is this header's name, ignoring ASCII case */
    public boolean is(String name) {
        return string.equalsIgnoreCase(name);
    }

    /** @return the known header named {@code name} in any case, or null */
    public static HttpHeader fromString(String name) {
        return CACHE.get(name);
    }

    /** @return the known header named by the buffer's remaining bytes, or null */
    public static HttpHeader fromBuffer(ByteBuffer buffer) {
        return CACHE.get(buffer);
    }

    @Override
    public String toString() {
        return string;
    }
}
