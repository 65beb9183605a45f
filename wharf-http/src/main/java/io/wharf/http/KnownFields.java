package io.wharf.http;

import java.util.List;

import io.wharf.util.Index;

/**
 * The static set of pre-made common fields: whole header lines that browsers, HTTP clients
 * and servers send over and over ({@code Connection: keep-alive}, {@code Accept-Encoding:
 * gzip, deflate, br}, {@code Sec-Fetch-Mode: navigate}...), each a {@link PreEncodedHttpField}
 * constant, and {@link #LINES}, an index of their lines ({@code "Name: value"}, without the
 * CR LF) that the HTTP/1 parser looks up straight from the network buffer. A line found there
 * costs no String and no field: the parser hands out the constant itself, so code may compare
 * a field with one of these by identity as a fast first test (never as the only test: the
 * same field may arrive spelled differently).
 *
 * <p>Immutable and shared by every thread; a generator may {@link PreEncodedHttpField#putTo}
 * these constants into its own buffers. The index is case-sensitive: a line matches only as
 * spelled here, with exactly one space after the colon.
 */
public final class KnownFields {

    // Connection management.
    public static final PreEncodedHttpField CONNECTION_KEEP_ALIVE = new PreEncodedHttpField(HttpHeader.CONNECTION, "keep-alive");
    public static final PreEncodedHttpField CONNECTION_KEEP_ALIVE_CAPITALISED = new PreEncodedHttpField(HttpHeader.CONNECTION, "Keep-Alive");
    public static final PreEncodedHttpField CONNECTION_CLOSE = new PreEncodedHttpField(HttpHeader.CONNECTION, "close");
    public static final PreEncodedHttpField CONNECTION_UPGRADE = new PreEncodedHttpField(HttpHeader.CONNECTION, "Upgrade");
    public static final PreEncodedHttpField CONNECTION_UPGRADE_HTTP2_SETTINGS = new PreEncodedHttpField(HttpHeader.CONNECTION, "Upgrade, HTTP2-Settings");
    public static final PreEncodedHttpField UPGRADE_WEBSOCKET = new PreEncodedHttpField(HttpHeader.UPGRADE, "websocket");
    public static final PreEncodedHttpField UPGRADE_H2C = new PreEncodedHttpField(HttpHeader.UPGRADE, "h2c");
    public static final PreEncodedHttpField SEC_WEBSOCKET_VERSION_13 = new PreEncodedHttpField(HttpHeader.SEC_WEBSOCKET_VERSION, "13");
    public static final PreEncodedHttpField EXPECT_CONTINUE = new PreEncodedHttpField(HttpHeader.EXPECT, "100-continue");

    // Content negotiation.
    public static final PreEncodedHttpField ACCEPT_ANY = new PreEncodedHttpField(HttpHeader.ACCEPT, "*/*");
    public static final PreEncodedHttpField ACCEPT_JSON = new PreEncodedHttpField(HttpHeader.ACCEPT, "application/json");
    public static final PreEncodedHttpField ACCEPT_JSON_TEXT_ANY = new PreEncodedHttpField(HttpHeader.ACCEPT, "application/json, text/plain, */*");
    public static final PreEncodedHttpField ACCEPT_HTML_FIREFOX = new PreEncodedHttpField(HttpHeader.ACCEPT, "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8");
    public static final PreEncodedHttpField ACCEPT_ENCODING_GZIP = new PreEncodedHttpField(HttpHeader.ACCEPT_ENCODING, "gzip");
    public static final PreEncodedHttpField ACCEPT_ENCODING_IDENTITY = new PreEncodedHttpField(HttpHeader.ACCEPT_ENCODING, "identity");
    public static final PreEncodedHttpField ACCEPT_ENCODING_GZIP_DEFLATE = new PreEncodedHttpField(HttpHeader.ACCEPT_ENCODING, "gzip, deflate");
    public static final PreEncodedHttpField ACCEPT_ENCODING_GZIP_DEFLATE_BR = new PreEncodedHttpField(HttpHeader.ACCEPT_ENCODING, "gzip, deflate, br");
    public static final PreEncodedHttpField ACCEPT_ENCODING_GZIP_DEFLATE_BR_ZSTD = new PreEncodedHttpField(HttpHeader.ACCEPT_ENCODING, "gzip, deflate, br, zstd");
    public static final PreEncodedHttpField ACCEPT_LANGUAGE_EN_US = new PreEncodedHttpField(HttpHeader.ACCEPT_LANGUAGE, "en-US,en;q=0.9");
    public static final PreEncodedHttpField ACCEPT_LANGUAGE_EN_US_HALF = new PreEncodedHttpField(HttpHeader.ACCEPT_LANGUAGE, "en-US,en;q=0.5");
    public static final PreEncodedHttpField ACCEPT_LANGUAGE_EN = new PreEncodedHttpField(HttpHeader.ACCEPT_LANGUAGE, "en");

    // Caching.
    public static final PreEncodedHttpField CACHE_CONTROL_NO_CACHE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-cache");
    public static final PreEncodedHttpField CACHE_CONTROL_MAX_AGE_ZERO = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "max-age=0");
    public static final PreEncodedHttpField CACHE_CONTROL_NO_STORE = new PreEncodedHttpField(HttpHeader.CACHE_CONTROL, "no-store");
    public static final PreEncodedHttpField PRAGMA_NO_CACHE = new PreEncodedHttpField(HttpHeader.PRAGMA, "no-cache");

    // Content description and framing.
    public static final PreEncodedHttpField CONTENT_TYPE_FORM_URLENCODED = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/x-www-form-urlencoded");
    public static final PreEncodedHttpField CONTENT_TYPE_JSON = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json");
    public static final PreEncodedHttpField CONTENT_TYPE_JSON_UTF_8 = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/json; charset=utf-8");
    public static final PreEncodedHttpField CONTENT_TYPE_TEXT_PLAIN = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain");
    public static final PreEncodedHttpField CONTENT_TYPE_TEXT_PLAIN_UTF_8 = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
    public static final PreEncodedHttpField CONTENT_TYPE_TEXT_HTML_UTF_8 = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
    public static final PreEncodedHttpField CONTENT_TYPE_OCTET_STREAM = new PreEncodedHttpField(HttpHeader.CONTENT_TYPE, "application/octet-stream");
    public static final PreEncodedHttpField CONTENT_LENGTH_ZERO = new PreEncodedHttpField(HttpHeader.CONTENT_LENGTH, "0");
    public static final PreEncodedHttpField CONTENT_ENCODING_GZIP = new PreEncodedHttpField(HttpHeader.CONTENT_ENCODING, "gzip");
    public static final PreEncodedHttpField TRANSFER_ENCODING_CHUNKED = new PreEncodedHttpField(HttpHeader.TRANSFER_ENCODING, "chunked");

    // Browser request metadata.
    public static final PreEncodedHttpField UPGRADE_INSECURE_REQUESTS = new PreEncodedHttpField(HttpHeader.UPGRADE_INSECURE_REQUESTS, "1");
    public static final PreEncodedHttpField SEC_FETCH_DEST_DOCUMENT = new PreEncodedHttpField(HttpHeader.SEC_FETCH_DEST, "document");
    public static final PreEncodedHttpField SEC_FETCH_DEST_EMPTY = new PreEncodedHttpField(HttpHeader.SEC_FETCH_DEST, "empty");
    public static final PreEncodedHttpField SEC_FETCH_DEST_IMAGE = new PreEncodedHttpField(HttpHeader.SEC_FETCH_DEST, "image");
    public static final PreEncodedHttpField SEC_FETCH_DEST_SCRIPT = new PreEncodedHttpField(HttpHeader.SEC_FETCH_DEST, "script");
    public static final PreEncodedHttpField SEC_FETCH_DEST_STYLE = new PreEncodedHttpField(HttpHeader.SEC_FETCH_DEST, "style");
    public static final PreEncodedHttpField SEC_FETCH_MODE_NAVIGATE = new PreEncodedHttpField(HttpHeader.SEC_FETCH_MODE, "navigate");
    public static final PreEncodedHttpField SEC_FETCH_MODE_CORS = new PreEncodedHttpField(HttpHeader.SEC_FETCH_MODE, "cors");
    public static final PreEncodedHttpField SEC_FETCH_MODE_NO_CORS = new PreEncodedHttpField(HttpHeader.SEC_FETCH_MODE, "no-cors");
    public static final PreEncodedHttpField SEC_FETCH_SITE_NONE = new PreEncodedHttpField(HttpHeader.SEC_FETCH_SITE, "none");
    public static final PreEncodedHttpField SEC_FETCH_SITE_SAME_ORIGIN = new PreEncodedHttpField(HttpHeader.SEC_FETCH_SITE, "same-origin");
    public static final PreEncodedHttpField SEC_FETCH_SITE_SAME_SITE = new PreEncodedHttpField(HttpHeader.SEC_FETCH_SITE, "same-site");
    public static final PreEncodedHttpField SEC_FETCH_SITE_CROSS_SITE = new PreEncodedHttpField(HttpHeader.SEC_FETCH_SITE, "cross-site");
    public static final PreEncodedHttpField SEC_FETCH_USER_TRUE = new PreEncodedHttpField(HttpHeader.SEC_FETCH_USER, "?1");
    public static final PreEncodedHttpField PRIORITY_URGENT_INCREMENTAL = new PreEncodedHttpField(HttpHeader.PRIORITY, "u=0, i");
    public static final PreEncodedHttpField PRIORITY_URGENCY_ONE = new PreEncodedHttpField(HttpHeader.PRIORITY, "u=1");
    public static final PreEncodedHttpField DNT_ONE = new PreEncodedHttpField(HttpHeader.DNT, "1");
    public static final PreEncodedHttpField X_REQUESTED_WITH_XML_HTTP_REQUEST = new PreEncodedHttpField(HttpHeader.X_REQUESTED_WITH, "XMLHttpRequest");

    // Common in responses (the parser of a client meets these).
    public static final PreEncodedHttpField SERVER_WHARF = new PreEncodedHttpField(HttpHeader.SERVER, "wharf");
    public static final PreEncodedHttpField ACCEPT_RANGES_BYTES = new PreEncodedHttpField(HttpHeader.ACCEPT_RANGES, "bytes");
    public static final PreEncodedHttpField VARY_ACCEPT_ENCODING = new PreEncodedHttpField(HttpHeader.VARY, "Accept-Encoding");
    public static final PreEncodedHttpField X_CONTENT_TYPE_OPTIONS_NOSNIFF = new PreEncodedHttpField(HttpHeader.X_CONTENT_TYPE_OPTIONS, "nosniff");

    private static final List<PreEncodedHttpField> ALL = List.of(
            CONNECTION_KEEP_ALIVE, CONNECTION_KEEP_ALIVE_CAPITALISED, CONNECTION_CLOSE, CONNECTION_UPGRADE,
            CONNECTION_UPGRADE_HTTP2_SETTINGS, UPGRADE_WEBSOCKET, UPGRADE_H2C, SEC_WEBSOCKET_VERSION_13, EXPECT_CONTINUE,
            ACCEPT_ANY, ACCEPT_JSON, ACCEPT_JSON_TEXT_ANY, ACCEPT_HTML_FIREFOX,
            ACCEPT_ENCODING_GZIP, ACCEPT_ENCODING_IDENTITY, ACCEPT_ENCODING_GZIP_DEFLATE, ACCEPT_ENCODING_GZIP_DEFLATE_BR,
            ACCEPT_ENCODING_GZIP_DEFLATE_BR_ZSTD, ACCEPT_LANGUAGE_EN_US, ACCEPT_LANGUAGE_EN_US_HALF, ACCEPT_LANGUAGE_EN,
            CACHE_CONTROL_NO_CACHE, CACHE_CONTROL_MAX_AGE_ZERO, CACHE_CONTROL_NO_STORE, PRAGMA_NO_CACHE,
            CONTENT_TYPE_FORM_URLENCODED, CONTENT_TYPE_JSON, CONTENT_TYPE_JSON_UTF_8, CONTENT_TYPE_TEXT_PLAIN,
            CONTENT_TYPE_TEXT_PLAIN_UTF_8, CONTENT_TYPE_TEXT_HTML_UTF_8, CONTENT_TYPE_OCTET_STREAM, CONTENT_LENGTH_ZERO,
            CONTENT_ENCODING_GZIP, TRANSFER_ENCODING_CHUNKED,
            UPGRADE_INSECURE_REQUESTS, SEC_FETCH_DEST_DOCUMENT, SEC_FETCH_DEST_EMPTY, SEC_FETCH_DEST_IMAGE,
            SEC_FETCH_DEST_SCRIPT, SEC_FETCH_DEST_STYLE, SEC_FETCH_MODE_NAVIGATE, SEC_FETCH_MODE_CORS,
            SEC_FETCH_MODE_NO_CORS, SEC_FETCH_SITE_NONE, SEC_FETCH_SITE_SAME_ORIGIN, SEC_FETCH_SITE_SAME_SITE,
            SEC_FETCH_SITE_CROSS_SITE, SEC_FETCH_USER_TRUE, PRIORITY_URGENT_INCREMENTAL, PRIORITY_URGENCY_ONE,
            DNT_ONE, X_REQUESTED_WITH_XML_HTTP_REQUEST,
            SERVER_WHARF, ACCEPT_RANGES_BYTES, VARY_ACCEPT_ENCODING, X_CONTENT_TYPE_OPTIONS_NOSNIFF);

    /**
     * Every constant above under its line {@code "Name: value"} (no CR LF), case-sensitive.
     * Looked up with {@code getBest} from the start of a field line: a hit counts only when
     * the key ends exactly where the line's CR LF begins.
     */
    public static final Index<HttpField> LINES = buildLines();

    private KnownFields() {
    }

    /** @return every pre-made field, in declaration order */
    public static List<PreEncodedHttpField> all() {
        return ALL;
    }

    /** @return the length of {@code field}'s line {@code "Name: value"} without CR LF */
    public static int lineLength(HttpField field) {
        return field.getName().length() + 2 + field.getValue().length();
    }

    private static Index<HttpField> buildLines() {
        Index.Builder<HttpField> builder = Index.<HttpField>builder().caseSensitive(true);
        for (PreEncodedHttpField field : ALL) {
            builder.with(field.getName() + ": " + field.getValue(), field);
        }
        return builder.build();
    }
}
