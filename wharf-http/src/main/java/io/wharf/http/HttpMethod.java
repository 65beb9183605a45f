package io.wharf.http;

import java.nio.charset.StandardCharsets;

import io.wharf.util.Index;

/**
 * The standard request methods (RFC 9110 section 9, PATCH from RFC 5789, PRI from RFC 9113
 * for the HTTP/2 preface, and the WebDAV ones seen in the wild). A method is case-sensitive.
 * Other tokens are legal methods too: the parser passes them on as strings.
 */
public enum HttpMethod {
    GET(true, true), POST(false, false), HEAD(true, true), PUT(false, true),
    DELETE(false, true), OPTIONS(true, true), TRACE(true, true), CONNECT(false, false),
    PATCH(false, false), PRI(false, false), PROPFIND(true, true), PROPPATCH(false, true),
    MKCOL(false, true), COPY(false, true), MOVE(false, true), LOCK(false, false),
    UNLOCK(false, true), SEARCH(true, true), QUERY(true, true);

    /** Exact, case-sensitive lookup of a method token. */
    public static final Index<HttpMethod> CACHE = Index.<HttpMethod>builder()
            .caseSensitive(true)
            .withAll(values(), HttpMethod::asString)
            .build();

    /**
     * Case-sensitive lookup of a method followed by its space ({@code "GET "}), used with
     * {@code getBest} at the start of a request line to skip the method in one step.
     */
    public static final Index<HttpMethod> LOOK_AHEAD = Index.<HttpMethod>builder()
            .caseSensitive(true)
            .withAll(values(), method -> method.asString() + " ")
            .build();

    private final boolean safe;
    private final boolean idempotent;
    private final byte[] bytes;

    HttpMethod(boolean safe, boolean idempotent) {
        this.safe = safe;
        this.idempotent = idempotent;
        this.bytes = name().getBytes(StandardCharsets.US_ASCII);
    }

    /** @return the token, e.g. {@code "GET"} */
    public String asString() {
        return name();
    }

    /** @return the token's ASCII bytes; do not modify */
    public byte[] toBytes() {
        return bytes;
    }

    /** @return whether the method is safe (RFC 9110 section 9.2.1) */
    public boolean isSafe() {
        return safe;
    }

    /** @return whether the method is idempotent (RFC 9110 section 9.2.2) */
    public boolean isIdempotent() {
        return idempotent;
    }

    /** @return whether {@code method} is this method's token, exactly */
    public boolean is(String method) {
        return name().equals(method);
    }

    /** @return the method named exactly {@code token}, or null for any other token */
    public static HttpMethod fromString(String token) {
        return CACHE.get(token);
    }
}
