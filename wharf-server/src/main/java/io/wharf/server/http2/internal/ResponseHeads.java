package io.wharf.server.http2.internal;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;

/**
 * The fields of HTTP/2 response heads: {@code :status} first, then the handler's fields
 * without the connection-specific ones (RFC 9113 section 8.2.2), then {@code Server} and
 * {@code Date} as the configuration asks; and the {@code :status} and {@code content-length}
 * fields of common values, made once rather than per response.
 *
 * <p>Stateless apart from tables that any thread may read (and fill, see
 * {@link #contentLengthField}).
 */
final class ResponseHeads {

    /** The {@code :status} fields of the statuses 100 to 599, made once. */
    private static final HttpField[] STATUS_FIELDS = new HttpField[600];
    /**
     * The {@code content-length} fields of lengths up to 1023, each made when first needed. Filled
     * without a lock: two threads may make an equal field, and a thread sees either null or a
     * whole field (its fields are final), so any field it finds is right.
     */
    private static final HttpField[] CONTENT_LENGTH_FIELDS = new HttpField[1024];
    /** Numbers up to 1023 (statuses, small content lengths) as text, made once. */
    private static final String[] DECIMALS = new String[1024];

    static {
        for (int i = 0; i < DECIMALS.length; i++) {
            DECIMALS[i] = Integer.toString(i);
        }
        for (int status = 100; status < STATUS_FIELDS.length; status++) {
            STATUS_FIELDS[status] = new HttpField(":status", DECIMALS[status]);
        }
    }

    private ResponseHeads() {
    }

    /** @return the head's fields: {@code :status} first, then {@code headers} minus the connection-specific ones */
    static HttpFields of(int status, HttpFields headers, Http2ServerConnection connection) {
        HttpFields.Mutable fields = HttpFields.build(headers.size() + 3);
        fields.add(statusField(status));
        for (HttpField field : headers) {
            HttpHeader header = field.getHeader();
            if (header == HttpHeader.CONNECTION || header == HttpHeader.KEEP_ALIVE || header == HttpHeader.TRANSFER_ENCODING
                    || header == HttpHeader.UPGRADE || header == HttpHeader.PROXY_CONNECTION) {
                continue;
            }
            fields.add(field);
        }
        connection.addServerFields(fields);
        return fields;
    }

    /** @return the {@code :status} field of {@code status}, without making one for the statuses HTTP defines */
    private static HttpField statusField(int status) {
        return status >= 100 && status < STATUS_FIELDS.length ? STATUS_FIELDS[status] : new HttpField(":status", decimal(status));
    }

    /** @return the {@code content-length} field of {@code length}, without making one per response for small contents */
    static HttpField contentLengthField(long length) {
        if (length < 0 || length >= CONTENT_LENGTH_FIELDS.length) {
            return new HttpField(HttpHeader.CONTENT_LENGTH, decimal(length));
        }
        HttpField field = CONTENT_LENGTH_FIELDS[(int) length];
        if (field == null) {
            field = new HttpField(HttpHeader.CONTENT_LENGTH, decimal(length));
            CONTENT_LENGTH_FIELDS[(int) length] = field;
        }
        return field;
    }

    /** @return {@code number} as decimal text, without making a string for the common small ones */
    static String decimal(long number) {
        return number >= 0 && number < DECIMALS.length ? DECIMALS[(int) number] : Long.toString(number);
    }
}
