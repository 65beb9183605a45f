package io.wharf.http;

import java.nio.ByteBuffer;

import io.wharf.util.Index;

/**
 * The HTTP versions Wharf speaks. The parser recognises a version straight from the
 * network buffer with {@link #CACHE}; an unknown version answers 505.
 */
public enum HttpVersion {
    HTTP_0_9("HTTP/0.9", 9),
    HTTP_1_0("HTTP/1.0", 10),
    HTTP_1_1("HTTP/1.1", 11),
    HTTP_2("HTTP/2.0", 20),
    HTTP_3("HTTP/3.0", 30);

    /** Case-sensitive lookup of the exact version token ({@code "HTTP/1.1"}). */
    public static final Index<HttpVersion> CACHE = Index.<HttpVersion>builder()
            .caseSensitive(true)
            .withAll(values(), HttpVersion::asString)
            .build();

    private final String string;
    private final byte[] bytes;
    private final int version;

    HttpVersion(String string, int version) {
        this.string = string;
        this.bytes = string.getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        this.version = version;
    }

    /** @return the token as sent on the wire, e.g. {@code "HTTP/1.1"} */
    public String asString() {
        return string;
    }

    /** @return the token's ASCII bytes; do not modify */
    public byte[] toBytes() {
        return bytes;
    }

    /** @return major times ten plus minor: 10, 11, 20... */
    public int getVersion() {
        return version;
    }

    /** @return the version whose token is {@code token}, or null */
    public static HttpVersion fromString(String token) {
        return CACHE.get(token);
    }

    /** @return the version whose token is exactly the buffer's remaining bytes, or null */
    public static HttpVersion fromBuffer(ByteBuffer buffer) {
        return CACHE.get(buffer);
    }

    @Override
    public String toString() {
        return string;
    }
}
