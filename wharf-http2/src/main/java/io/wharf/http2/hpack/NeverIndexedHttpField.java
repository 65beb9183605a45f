package io.wharf.http2.hpack;

import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;

/**
 * A field that HPACK must never put in a dynamic table (RFC 7541 section 7.1.3): a secret
 * that an attacker able to inject headers could otherwise guess one byte at a time from the
 * compressed size.
 *
 * <p>{@link HpackDecoder} makes one for every field the peer sent as a never-indexed literal,
 * so that an intermediary re-encoding it keeps that representation, as the RFC requires;
 * {@link HpackEncoder} encodes every instance as a never-indexed literal whatever its
 * {@link IndexingPolicy} says. Applications may make their own for custom secrets
 * ({@code X-Api-Key}). Immutable; compares equal to a plain field with the same name and value.
 */
public final class NeverIndexedHttpField extends HttpField {

    public NeverIndexedHttpField(HttpHeader header, String name, String value) {
        super(header, name, value);
    }

    public NeverIndexedHttpField(String name, String value) {
        super(name, value);
    }
}
