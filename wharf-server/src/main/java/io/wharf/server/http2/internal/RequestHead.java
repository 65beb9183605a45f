package io.wharf.server.http2.internal;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.hpack.HeaderBlock;

/**
 * A request's header block turned into what the Handler API shows: the method, the target
 * parts, and the fields, with the {@code cookie} crumbs joined into one field (RFC 9113
 * section 8.2.3) and a {@code Host} field made from {@code :authority} when the request has
 * none. An extended CONNECT (RFC 8441) carries its {@code :protocol}. The session checked the
 * block by RFC 9113 sections 8.1 to 8.3 before: a malformed request never gets here.
 *
 * <p>Made on the connection's reading thread from a decoded block; immutable.
 *
 * @param protocol the {@code :protocol} of an extended CONNECT, else null
 * @param contentLength the request's {@code content-length}, -1 when none
 */
record RequestHead(String method, String scheme, String authority, String path, String protocol, HttpFields fields,
                   long contentLength) {

    /** A request without {@code :protocol}. */
    RequestHead(String method, String scheme, String authority, String path, HttpFields fields, long contentLength) {
        this(method, scheme, authority, path, null, fields, contentLength);
    }

    /**
     * @param block a request's header block the session found well-formed
     * @param contentLength its {@code content-length}, as the session read it; -1 when none
     * @param lastAuthority the connection's, which makes the {@code Host} field a request without one gets
     * @return the request the block carries
     */
    static RequestHead of(HeaderBlock block, long contentLength, LastAuthority lastAuthority) {
        String method = null;
        String scheme = null;
        String authority = null;
        String path = null;
        String protocol = null;
        // One pass over the pseudo-headers, which the session let through each once at most.
        for (HttpField pseudo : block.pseudoHeaders()) {
            switch (pseudo.getName()) {
                case ":method" -> method = pseudo.getValue();
                case ":scheme" -> scheme = pseudo.getValue();
                case ":authority" -> authority = pseudo.getValue();
                case ":path" -> path = pseudo.getValue();
                case ":protocol" -> protocol = pseudo.getValue();
                default -> {
                }
            }
        }
        HttpFields.Mutable fields = HttpFields.build(block.fields().size() + 1);
        StringBuilder cookie = null;
        boolean host = false;
        for (HttpField field : block.fields()) {
            HttpHeader header = field.getHeader();
            if (header == HttpHeader.COOKIE) {
                cookie = cookie == null ? new StringBuilder(field.getValue()) : cookie.append("; ").append(field.getValue());
                continue;
            }
            if (header == HttpHeader.HOST) {
                host = true;
            }
            fields.add(field);
        }
        if (cookie != null) {
            fields.add(HttpHeader.COOKIE, cookie.toString());
        }
        if (!host && authority != null && !authority.isEmpty()) {
            fields.add(lastAuthority.hostField(authority));
        }
        return new RequestHead(method, scheme, authority, path, protocol, fields.takeImmutable(), contentLength);
    }
}
