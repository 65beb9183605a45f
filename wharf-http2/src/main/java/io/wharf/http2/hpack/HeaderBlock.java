package io.wharf.http2.hpack;

import io.wharf.http.HttpFields;

/**
 * One decoded header block: what {@link HpackDecoder#decode} made of a HEADERS (plus
 * CONTINUATION) or PUSH_PROMISE field block.
 *
 * <p>Pseudo-headers ({@code :method}, {@code :path}, {@code :status}...) and regular fields are
 * kept apart, each list in the order received, so the session can build a request or response
 * from the first and hand the second to the application as they are. Checking them —
 * exactly one {@code :method}, no {@code :status} in a request, no pseudo-header in trailers,
 * no connection-specific fields (RFC 9113 sections 8.2.2 and 8.3) — is the session's job;
 * {@link #pseudoHeaderAfterField()} tells whether a pseudo-header came after a regular field.
 * The octets of each name and value are checked by the decoder (section 8.2.1): when one breaks
 * the rules, {@link #problem()} says which, and the message is malformed. Names and values are
 * as received.
 *
 * <p>When the list is larger than the decoder's limit ({@link #tooLarge()}), both lists are
 * empty: the decoder went on reading the block only to keep its table in step with the peer's,
 * and kept no field. The session answers 431 or resets the stream; the connection is fine.
 * {@link #pathLength()} is known even then, so that a server can tell a request whose target
 * is too long (414) from one whose fields are (431).
 *
 * <p>Immutable once returned; the lists may be read by any thread after a safe hand-off.
 *
 * @param pseudoHeaders the pseudo-header fields, in order; empty when none (or too large)
 * @param fields the regular fields, in order; empty when none (or too large)
 * @param pseudoHeaderAfterField whether a pseudo-header followed a regular field
 * @param size the size of the whole header list as RFC 9113 section 6.5.2 counts it: name
 *     and value octets plus 32 per field, every field counted even when too large
 * @param tooLarge whether {@code size} passed the decoder's maximum header list size
 * @param problem why a field breaks the octet rules of RFC 9113 section 8.2.1 (the first one
 *     found: a character a name or value may not hold, an upper-case name, a value with blanks
 *     at its ends), or null when none does
 * @param pathLength the length in octets of the {@code :path} value (the last one when there
 *     are several), kept or not; -1 when the block has none, or when the list was too large
 *     even to keep a literal {@code :path} name
 */
public record HeaderBlock(HttpFields pseudoHeaders, HttpFields fields, boolean pseudoHeaderAfterField, long size,
                          boolean tooLarge, String problem, long pathLength) {

    /** @return the value of the pseudo-header {@code name} (e.g. {@code ":path"}), or null when absent */
    public String pseudoHeader(String name) {
        return pseudoHeaders.get(name);
    }
}
