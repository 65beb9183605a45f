package io.wharf.http2.hpack.internal;

import java.util.HashMap;
import java.util.Map;

import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;

/**
 * HPACK's static table (RFC 7541 Appendix A): 61 fields at indexes 1 to 61, each a pre-made
 * {@link HttpField} with its name in lower case, so that a decoder hands out the same instance
 * for {@code :method: GET} every time and makes no String for it.
 *
 * <p>Immutable and shared by every thread.
 */
public final class StaticTable {

    /** The number of entries; dynamic table indexes start after it. */
    public static final int LENGTH = 61;

    private static final HttpField[] FIELDS = {
        null,
        field(HttpHeader.C_AUTHORITY, ""),
        field(HttpHeader.C_METHOD, "GET"),
        field(HttpHeader.C_METHOD, "POST"),
        field(HttpHeader.C_PATH, "/"),
        field(HttpHeader.C_PATH, "/index.html"),
        field(HttpHeader.C_SCHEME, "http"),
        field(HttpHeader.C_SCHEME, "https"),
        field(HttpHeader.C_STATUS, "200"),
        field(HttpHeader.C_STATUS, "204"),
        field(HttpHeader.C_STATUS, "206"),
        field(HttpHeader.C_STATUS, "304"),
        field(HttpHeader.C_STATUS, "400"),
        field(HttpHeader.C_STATUS, "404"),
        field(HttpHeader.C_STATUS, "500"),
        field(HttpHeader.ACCEPT_CHARSET, ""),
        field(HttpHeader.ACCEPT_ENCODING, "gzip, deflate"),
        field(HttpHeader.ACCEPT_LANGUAGE, ""),
        field(HttpHeader.ACCEPT_RANGES, ""),
        field(HttpHeader.ACCEPT, ""),
        field(HttpHeader.ACCESS_CONTROL_ALLOW_ORIGIN, ""),
        field(HttpHeader.AGE, ""),
        field(HttpHeader.ALLOW, ""),
        field(HttpHeader.AUTHORIZATION, ""),
        field(HttpHeader.CACHE_CONTROL, ""),
        field(HttpHeader.CONTENT_DISPOSITION, ""),
        field(HttpHeader.CONTENT_ENCODING, ""),
        field(HttpHeader.CONTENT_LANGUAGE, ""),
        field(HttpHeader.CONTENT_LENGTH, ""),
        field(HttpHeader.CONTENT_LOCATION, ""),
        field(HttpHeader.CONTENT_RANGE, ""),
        field(HttpHeader.CONTENT_TYPE, ""),
        field(HttpHeader.COOKIE, ""),
        field(HttpHeader.DATE, ""),
        field(HttpHeader.ETAG, ""),
        field(HttpHeader.EXPECT, ""),
        field(HttpHeader.EXPIRES, ""),
        field(HttpHeader.FROM, ""),
        field(HttpHeader.HOST, ""),
        field(HttpHeader.IF_MATCH, ""),
        field(HttpHeader.IF_MODIFIED_SINCE, ""),
        field(HttpHeader.IF_NONE_MATCH, ""),
        field(HttpHeader.IF_RANGE, ""),
        field(HttpHeader.IF_UNMODIFIED_SINCE, ""),
        field(HttpHeader.LAST_MODIFIED, ""),
        field(HttpHeader.LINK, ""),
        field(HttpHeader.LOCATION, ""),
        field(HttpHeader.MAX_FORWARDS, ""),
        field(HttpHeader.PROXY_AUTHENTICATE, ""),
        field(HttpHeader.PROXY_AUTHORIZATION, ""),
        field(HttpHeader.RANGE, ""),
        field(HttpHeader.REFERER, ""),
        new HttpField(null, "refresh", ""),
        field(HttpHeader.RETRY_AFTER, ""),
        field(HttpHeader.SERVER, ""),
        field(HttpHeader.SET_COOKIE, ""),
        field(HttpHeader.STRICT_TRANSPORT_SECURITY, ""),
        field(HttpHeader.TRANSFER_ENCODING, ""),
        field(HttpHeader.USER_AGENT, ""),
        field(HttpHeader.VARY, ""),
        field(HttpHeader.VIA, ""),
        field(HttpHeader.WWW_AUTHENTICATE, ""),
    };

    /** The first index of each known header's name, by {@link HttpHeader#ordinal()}; 0 when absent. */
    private static final int[] NAME_INDEX_BY_HEADER = new int[HttpHeader.values().length];
    /** The first index of each name that is not an {@link HttpHeader}. */
    private static final Map<String, Integer> NAME_INDEX_OTHERS = new HashMap<>();

    static {
        if (FIELDS.length != LENGTH + 1) {
            throw new IllegalStateException("the static table must have " + LENGTH + " entries");
        }
        for (int index = LENGTH; index >= 1; index--) {
            HttpField field = FIELDS[index];
            if (field.getHeader() != null) {
                NAME_INDEX_BY_HEADER[field.getHeader().ordinal()] = index;
            } else {
                NAME_INDEX_OTHERS.put(field.getName(), index);
            }
        }
    }

    private StaticTable() {
    }

    private static HttpField field(HttpHeader header, String value) {
        return new HttpField(header, header.lowerCaseName(), value);
    }

    /**
     * @param index 1 to {@link #LENGTH}
     * @return the pre-made field at {@code index}
     */
    public static HttpField get(int index) {
        return FIELDS[index];
    }

    /**
     * @param header the field's known header, or null
     * @param lowerCaseName the field's name in lower case (used when {@code header} is null)
     * @return the first index with this name, or 0 when the static table does not have it
     */
    public static int nameIndexOf(HttpHeader header, String lowerCaseName) {
        if (header != null) {
            return NAME_INDEX_BY_HEADER[header.ordinal()];
        }
        Integer index = NAME_INDEX_OTHERS.get(lowerCaseName);
        return index == null ? 0 : index;
    }

    /**
     * @param nameIndex the result of {@link #nameIndexOf}, not 0
     * @return the index of the entry with this name and {@code value}, or 0 when there is none
     */
    public static int indexOf(int nameIndex, String value) {
        HttpField first = FIELDS[nameIndex];
        for (int index = nameIndex; index <= LENGTH && FIELDS[index].isSameName(first); index++) {
            if (FIELDS[index].getValue().equals(value)) {
                return index;
            }
        }
        return 0;
    }
}
