package io.wharf.http2.session;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.hpack.HeaderBlock;

/**
 * The rules that make an HTTP/2 message malformed (RFC 9113 sections 8.1, 8.2 and 8.3), for a
 * request, a response and trailers, whichever side of the connection receives them: the
 * octets of every name and value (checked by the HPACK decoder as it decodes, reported by
 * {@link HeaderBlock#problem()}), no connection-specific field, {@code te} only
 * {@code trailers}, one valid {@code content-length}, the pseudo-headers of the message's kind
 * each once and before the fields, none in trailers, and a request's {@code host} the same as
 * its {@code :authority}. A malformed message is a stream error of type PROTOCOL_ERROR.
 *
 * <p>Each check returns why the message is malformed, or null; what it read on the way (the
 * {@code content-length}, a response's {@code :status}) it keeps for {@link #contentLength()} and
 * {@link #status()}, so that no field is looked for or parsed twice. One per session, its
 * {@link FrameReceiver}'s: called on the connection's reading thread only, without the
 * session's lock.
 */
final class MessageRules {

    /** Parsed from a {@code content-length} that is not a number. */
    private static final long NOT_A_LENGTH = -2;

    /** The {@code content-length} of the message last checked, -1 when none or malformed. */
    private long contentLength = -1;
    /** The {@code :status} of the response last checked, -1 when none or malformed. */
    private int status = -1;

    /**
     * @param connectProtocol whether we announced SETTINGS_ENABLE_CONNECT_PROTOCOL, without which
     *     {@code :protocol} is malformed (RFC 8441 section 4)
     * @return why a request's header block (the HEADERS that open a stream, or a PUSH_PROMISE) is malformed, or null
     */
    String request(HeaderBlock block, boolean connectProtocol) {
        contentLength = -1;
        if (block.problem() != null) {
            return block.problem();
        }
        if (block.pseudoHeaderAfterField()) {
            return "a pseudo-header after a regular field (RFC 9113 section 8.3)";
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
                        return ":protocol without SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441 section 4)";
                    }
                    previous = protocol;
                    protocol = value;
                }
                default -> {
                    return "pseudo-header " + name + " is not one of a request (RFC 9113 section 8.3.1)";
                }
            }
            if (previous != null) {
                return "pseudo-header " + name + " twice (RFC 9113 section 8.3.1)";
            }
        }
        String problem = requestPseudoHeaders(method, scheme, authority, path, protocol);
        return problem != null ? problem : fields(block.fields(), authority);
    }

    private static String requestPseudoHeaders(String method, String scheme, String authority, String path, String protocol) {
        if (method == null) {
            return "no :method (RFC 9113 section 8.3.1)";
        }
        boolean connect = method.equals("CONNECT");
        if (protocol != null) {
            // Extended CONNECT (RFC 8441 section 4): :scheme and :path as for other requests, and :authority.
            if (!connect) {
                return ":protocol on " + method + ", not CONNECT (RFC 8441 section 4)";
            }
            if (protocol.isEmpty() || scheme == null || path == null || path.isEmpty() || authority == null) {
                return "extended CONNECT needs a :protocol, :scheme, :path and :authority (RFC 8441 section 4)";
            }
        } else if (connect) {
            if (authority == null || scheme != null || path != null) {
                return "CONNECT needs :authority and neither :scheme nor :path (RFC 9113 section 8.5)";
            }
        } else if (scheme == null || path == null) {
            return "no " + (scheme == null ? ":scheme" : ":path") + " (RFC 9113 section 8.3.1)";
        } else if (path.isEmpty()) {
            return "empty :path (RFC 9113 section 8.3.1)";
        } else if (path.equals("*") && !method.equals("OPTIONS")) {
            return ":path * on " + method + ", not OPTIONS (RFC 9113 section 8.3.1)";
        }
        return null;
    }

    /** @return why a response's header block (interim or final) is malformed, or null */
    String response(HeaderBlock block) {
        contentLength = -1;
        status = -1;
        if (block.tooLarge()) {
            return "response header list larger than our SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 section 6.5.2)";
        }
        if (block.problem() != null) {
            return block.problem();
        }
        if (block.pseudoHeaderAfterField()) {
            return "a pseudo-header after a regular field (RFC 9113 section 8.3)";
        }
        HttpFields pseudoHeaders = block.pseudoHeaders();
        if (pseudoHeaders.size() != 1 || !pseudoHeaders.getField(0).getName().equals(":status")) {
            for (HttpField pseudo : pseudoHeaders) {
                if (!pseudo.getName().equals(":status")) {
                    return "pseudo-header " + pseudo.getName() + " is not one of a response (RFC 9113 section 8.3.2)";
                }
            }
            return pseudoHeaders.isEmpty() ? "no :status (RFC 9113 section 8.3.2)" : ":status twice (RFC 9113 section 8.3.2)";
        }
        int code = parseStatus(pseudoHeaders.getField(0).getValue());
        if (code < 0) {
            return ":status is not three digits (RFC 9113 section 8.3.2)";
        }
        String problem = fields(block.fields(), null);
        if (problem == null) {
            status = code;
        }
        return problem;
    }

    /** @return why trailers are malformed, or null */
    String trailers(HeaderBlock block) {
        contentLength = -1;
        if (block.problem() != null) {
            return block.problem();
        }
        if (!block.pseudoHeaders().isEmpty()) {
            return "pseudo-header in trailers (RFC 9113 section 8.1)";
        }
        return fields(block.fields(), null);
    }

    /** @return the {@code :status} of the response {@link #response} last found well-formed, 100..999; else -1 */
    int status() {
        return status;
    }

    /** @return the {@code content-length} of the message last found well-formed, or -1 when it has none */
    long contentLength() {
        return contentLength;
    }

    /** @return the status code {@code status} spells, 100..999; -1 when it is not three digits */
    private static int parseStatus(String status) {
        if (status.length() != 3) {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < 3; i++) {
            char c = status.charAt(i);
            if (c < '0' || c > '9' || i == 0 && c == '0') {
                return -1;
            }
            value = value * 10 + c - '0';
        }
        return value;
    }

    /**
     * @param authority the request's {@code :authority}, which a {@code host} must equal; null
     *     for a response, trailers, or a request without one
     * @return why the regular fields make the message malformed, or null; when null, the
     *     {@code content-length} they carry is kept for {@link #contentLength()}
     */
    private String fields(HttpFields fields, String authority) {
        long length = -1;
        for (HttpField field : fields) {
            HttpHeader header = field.getHeader();
            if (header == null) {
                continue;
            }
            switch (header) {
                case CONNECTION, KEEP_ALIVE, PROXY_CONNECTION, TRANSFER_ENCODING, UPGRADE -> {
                    return "connection-specific field " + field.getName() + " (RFC 9113 section 8.2.2)";
                }
                case TE -> {
                    if (!field.getValue().equalsIgnoreCase("trailers")) {
                        return "te other than \"trailers\" (RFC 9113 section 8.2.2)";
                    }
                }
                case CONTENT_LENGTH -> {
                    long value = parseLength(field.getValue());
                    if (value == NOT_A_LENGTH || length >= 0 && length != value) {
                        return "content-length not one number of octets (RFC 9110 section 8.6)";
                    }
                    length = value;
                }
                case HOST -> {
                    if (authority != null && !authority.equalsIgnoreCase(field.getValue())) {
                        return "host other than :authority (RFC 9113 section 8.3.1)";
                    }
                }
                default -> {
                }
            }
        }
        contentLength = length;
        return null;
    }

    /** @return the decimal number {@code value} spells (at most 18 digits), or {@link #NOT_A_LENGTH} */
    private static long parseLength(String value) {
        if (value.isEmpty() || value.length() > 18) {
            return NOT_A_LENGTH;
        }
        long length = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return NOT_A_LENGTH;
            }
            length = length * 10 + (c - '0');
        }
        return length;
    }
}
