package io.wharf.http;

import io.wharf.util.Index;

/**
 * Header values common enough to compare by identity: the tokens of {@code Connection},
 * {@code Transfer-Encoding}, {@code Expect} and {@code Content-Encoding}. Tokens are
 * case-insensitive.
 */
public enum HttpHeaderValue {
    CLOSE("close"),
    CHUNKED("chunked"),
    GZIP("gzip"),
    BR("br"),
    DEFLATE("deflate"),
    IDENTITY("identity"),
    KEEP_ALIVE("keep-alive"),
    CONTINUE("100-continue"),
    PROCESSING("102-processing"),
    TE("TE"),
    BYTES("bytes"),
    NO_CACHE("no-cache"),
    UPGRADE("Upgrade"),
    WEBSOCKET("websocket"),
    H2C("h2c");

    /** Case-insensitive lookup of a known value. */
    public static final Index<HttpHeaderValue> CACHE = Index.<HttpHeaderValue>builder()
            .caseSensitive(false)
            .withAll(values(), HttpHeaderValue::asString)
            .build();

    private final String string;

    HttpHeaderValue(String string) {
        this.string = string;
    }

    /** @return the token, e.g. {@code "keep-alive"} */
    public String asString() {
        return string;
    }

    /** @return whether {@code token} is this value, ignoring ASCII case and surrounding blanks */
    public boolean is(String token) {
        return token != null && string.equalsIgnoreCase(token.strip());
    }

    /** @return the known value {@code token} in any case, or null */
    public static HttpHeaderValue fromString(String token) {
        return CACHE.get(token);
    }

    @Override
    public String toString() {
        return string;
    }
}
