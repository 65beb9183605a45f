package io.wharf.http2.hpack;

import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;

/**
 * Decides how {@link HpackEncoder} represents a field that is not already in a table: added
 * to the dynamic table, sent without indexing, or sent as a never-indexed literal. Called on
 * the encoding thread for each such field; must be fast and must not block.
 *
 * <p>The encoder applies two rules first, whatever the policy: a {@link NeverIndexedHttpField}
 * is always never-indexed, and a field taking more than three quarters of the dynamic table
 * is never added to it (it would evict nearly everything else).
 */
@FunctionalInterface
public interface IndexingPolicy {

    /** How a field is represented (RFC 7541 section 6.2). */
    enum Indexing {
        /** A literal added to the dynamic table, so later blocks send it as one index. */
        INDEX,
        /** A literal not added to the dynamic table; an intermediary may index it. */
        DO_NOT_INDEX,
        /** A literal that no table along the way may ever hold. */
        NEVER_INDEX
    }

    /**
     * Wharf's default, for fields whose value is a secret or changes with every message:
     * <ul>
     * <li>{@code authorization} and {@code proxy-authorization}: never indexed;</li>
     * <li>{@code cookie} and {@code set-cookie} under 20 octets: never indexed (a short
     *     secret can be guessed through the compressed size; longer cookies are indexed,
     *     which is where most of HPACK's gain on browser traffic comes from);</li>
     * <li>{@code :path} with a query string, and {@code content-length}, {@code content-range},
     *     {@code etag}, {@code last-modified}, {@code location}, {@code age}, {@code expires},
     *     {@code retry-after}, {@code range} and the {@code if-*} preconditions: not indexed,
     *     since they rarely repeat and would only churn the table;</li>
     * <li>everything else: indexed.</li>
     * </ul>
     */
    IndexingPolicy DEFAULT = field -> {
        HttpHeader header = field.getHeader();
        if (header == null) {
            return Indexing.INDEX;
        }
        return switch (header) {
            case AUTHORIZATION, PROXY_AUTHORIZATION -> Indexing.NEVER_INDEX;
            case COOKIE, SET_COOKIE -> field.getValue().length() < 20 ? Indexing.NEVER_INDEX : Indexing.INDEX;
            case C_PATH -> field.getValue().indexOf('?') >= 0 ? Indexing.DO_NOT_INDEX : Indexing.INDEX;
            case CONTENT_LENGTH, CONTENT_RANGE, ETAG, LAST_MODIFIED, LOCATION, AGE, EXPIRES, RETRY_AFTER, RANGE,
                 IF_MATCH, IF_NONE_MATCH, IF_MODIFIED_SINCE, IF_UNMODIFIED_SINCE, IF_RANGE -> Indexing.DO_NOT_INDEX;
            default -> Indexing.INDEX;
        };
    };

    /** Indexes every field it is asked about: what the examples of RFC 7541 Appendix C do. */
    IndexingPolicy INDEX_ALL = field -> Indexing.INDEX;

    /** @return how to represent {@code field} */
    Indexing indexing(HttpField field);
}
