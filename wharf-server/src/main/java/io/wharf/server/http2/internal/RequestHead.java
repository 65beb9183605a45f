package io.wharf.server.http2.internal;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http2.hpack.HeaderBlock;

/**
 * A request's header block checked by RFC 9113 sections 8.2 and 8.3 and turned into what the
 * Handler API shows: the method, the target parts, and the fields, with the {@code cookie}
 * crumbs joined into one field (section 8.2.3) and a {@code Host} field made from
 * {@code :authority} when the request has none. An extended CONNECT (RFC 8441) carries its
 * {@code :protocol}.
 *
 * <p>Made on the connection's reading thread from a decoded block; immutable.
 *
 * @param protocol the {@code :protocol} of an extended CONNECT, else null
 * @param problem null for a well-formed request, else why it is malformed (a stream PROTOCOL_ERROR)
 */
record RequestHead(String method, String scheme, String authority, String path, String protocol, HttpFields fields,
                   long contentLength, String problem) {

    /** A request without {@code :protocol}. */
    RequestHead(String method, String scheme, String authority, String path, HttpFields fields, long contentLength, String problem) {
        this(method, scheme, authority, path, null, fields, contentLength, problem);
    }

    /**
     * @param connectProtocol whether we announced SETTINGS_ENABLE_CONNECT_PROTOCOL, without which
     *     {@code :protocol} is malformed (RFC 8441 section 4)
     * @param lastAuthority the connection's, which makes the {@code Host} field a request without one gets
     * @return the request the block carries, or one whose {@link #problem} says why it is malformed
     */
    static RequestHead of(HeaderBlock block, boolean connectProtocol, LastAuthority lastAuthority) {
        if (block.pseudoHeaderAfterField()) {
            return malformed("a pseudo-header after a regular field (RFC 9113 section 8.3)");
        }
        String method = null;
        String scheme = null;
        String authority = null;
        String path = null;
        String protocol = null;
        for (HttpField pseudo : block.pseudoHeaders()) {
            String name = pseudo.getName();
            String value = pseudo.getValue();
            String previous;
            switch (name) {
                case ":method" -> {
                    previous = method;
                    method = value;
                }
                case ":scheme" -> {
                    previous = scheme;
                    scheme = value;
                }
                case ":authority" -> {
                    previous = authority;
                    authority = value;
                }
                case ":path" -> {
                    previous = path;
                    path = value;
                }
                case ":protocol" -> {
                    if (!connectProtocol) {
                        return malformed(":protocol without SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441 section 4)");
                    }
                    previous = protocol;
                    protocol = value;
                }
                default -> {
                    return malformed("pseudo-header " + name + " is not one of a request (RFC 9113 section 8.3.1)");
                }
            }
            if (previous != null) {
                return malformed("pseudo-header " + name + " twice (RFC 9113 section 8.3.1)");
            }
        }
        if (method == null) {
            return malformed("no :method (RFC 9113 section 8.3.1)");
        }
        if (protocol != null) {
            // Extended CONNECT (RFC 8441 section 4): :scheme and :path as for other requests, and :authority.
            if (!HttpMethod.CONNECT.is(method)) {
                return malformed(":protocol on " + method + ", not CONNECT (RFC 8441 section 4)");
            }
            if (protocol.isEmpty() || scheme == null || path == null || path.isEmpty() || authority == null) {
                return malformed("extended CONNECT needs a :protocol, :scheme, :path and :authority (RFC 8441 section 4)");
            }
        } else if (HttpMethod.CONNECT.is(method)) {
            if (authority == null || scheme != null || path != null) {
                return malformed("CONNECT needs :authority and neither :scheme nor :path (RFC 9113 section 8.5)");
            }
        } else if (scheme == null || path == null) {
            return malformed("no " + (scheme == null ? ":scheme" : ":path") + " (RFC 9113 section 8.3.1)");
        } else if (path.isEmpty()) {
            return malformed("empty :path (RFC 9113 section 8.3.1)");
        } else if (path.equals("*") && !HttpMethod.OPTIONS.is(method)) {
            return malformed(":path * on " + method + ", not OPTIONS (RFC 9113 section 8.3.1)");
        }
        HttpFields.Mutable fields = HttpFields.build(block.fields().size() + 1);
        StringBuilder cookie = null;
        long contentLength = -1;
        boolean host = false;
        for (HttpField field : block.fields()) {
            String name = field.getName();
            String problem = checkName(name);
            if (problem != null) {
                return malformed(problem);
            }
            HttpHeader header = field.getHeader();
            if (header == HttpHeader.TE && !"trailers".equals(field.getValue().trim())) {
                return malformed("te other than \"trailers\" (RFC 9113 section 8.2.2)");
            }
            if (header == HttpHeader.CONTENT_LENGTH) {
                long length = parseLength(field.getValue());
                if (length < 0 || contentLength >= 0 && contentLength != length) {
                    return malformed("bad content-length (RFC 9110 section 8.6)");
                }
                contentLength = length;
            }
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
        return new RequestHead(method, scheme, authority, path, protocol, fields.takeImmutable(), contentLength, null);
    }

    private static RequestHead malformed(String problem) {
        return new RequestHead(null, null, null, null, HttpFields.EMPTY, -1, problem);
    }

    /** @return why {@code name} may not be in an HTTP/2 request, or null */
    private static String checkName(String name) {
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c >= 'A' && c <= 'Z') {
                return "upper-case field name (RFC 9113 section 8.2.1)";
            }
        }
        return switch (name) {
            case "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade" ->
                    "connection-specific field " + name + " (RFC 9113 section 8.2.2)";
            default -> null;
        };
    }

    private static long parseLength(String value) {
        if (value.isEmpty() || value.length() > 18) {
            return -1;
        }
        long length = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            length = length * 10 + (c - '0');
        }
        return length;
    }
}
