package io.wharf.http;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The head of an HTTP message, apart from its content: what a generator writes and what a
 * connection builds from what its parser read. Records, immutable apart from the fields list
 * they reference (which the producer must not change once the head is handed over).
 */
public sealed interface MetaData permits MetaData.Request, MetaData.Response {

    /** @return the protocol version */
    HttpVersion version();

    /** @return the header fields; never null */
    HttpFields fields();

    /** @return the content length when known, or -1 */
    long contentLength();

    /**
     * @return a supplier of the trailer fields, asked once after the last content, or null
     *     when the message has no trailers; the supplier may return null for none
     */
    Supplier<HttpFields> trailers();

    /**
     * A request head.
     *
     * @param method the method token, e.g. {@code "GET"}
     * @param target the request-target as sent: origin form {@code /a?b}, absolute form
     *     {@code http://h/a}, authority form {@code h:443} or {@code *}
     */
    record Request(String method, String target, HttpVersion version, HttpFields fields,
                   long contentLength, Supplier<HttpFields> trailers) implements MetaData {

        public Request {
            Objects.requireNonNull(method, "method");
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(version, "version");
            fields = fields == null ? HttpFields.EMPTY : fields;
        }

        /** A request without trailers, its length taken from its Content-Length field or -1. */
        public Request(String method, String target, HttpVersion version, HttpFields fields) {
            this(method, target, version, fields, lengthOf(fields), null);
        }
    }

    /**
     * A response head.
     *
     * @param status the status code, 100 to 599
     * @param reason the reason phrase, or null for the standard one
     */
    record Response(int status, String reason, HttpVersion version, HttpFields fields,
                    long contentLength, Supplier<HttpFields> trailers) implements MetaData {

        public Response {
            if (status < 100 || status > 999) {
                throw new IllegalArgumentException("status out of range: " + status);
            }
            Objects.requireNonNull(version, "version");
            fields = fields == null ? HttpFields.EMPTY : fields;
        }

        /** A response without trailers, its length taken from its Content-Length field or -1. */
        public Response(int status, HttpVersion version, HttpFields fields) {
            this(status, null, version, fields, lengthOf(fields), null);
        }

        /** @return the reason phrase to send: the given one or the standard one */
        public String reasonOrDefault() {
            return reason != null ? reason : HttpStatus.getReason(status);
        }
    }

    private static long lengthOf(HttpFields fields) {
        return fields == null ? -1 : fields.getLongField(HttpHeader.CONTENT_LENGTH);
    }
}
