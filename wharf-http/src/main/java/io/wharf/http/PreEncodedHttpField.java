package io.wharf.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * A field that also holds its HTTP/1 wire form, {@code "Name: value\r\n"}, so a generator
 * copies bytes instead of encoding characters. Used for the static set of common fields
 * ({@code Connection: close}, {@code Content-Type: text/plain}...), the cached {@code Date}
 * and {@code Server} fields, and whatever an application sets on every response.
 * Immutable; the encoded bytes are never handed out, only copied.
 */
public class PreEncodedHttpField extends HttpField {

    private final byte[] encoded;

    public PreEncodedHttpField(HttpHeader header, String value) {
        this(header, header.asString(), value);
    }

    public PreEncodedHttpField(String name, String value) {
        this(HttpHeader.fromString(name), name, value);
    }

    /**
     * @throws IllegalArgumentException when the name or value holds a character that cannot be
     *     sent in an HTTP/1 field (a control character other than tab, or beyond ISO-8859-1)
     */
    public PreEncodedHttpField(HttpHeader header, String name, String value) {
        super(header, name, value);
        check(name, false);
        check(getValue(), true);
        this.encoded = (name + ": " + getValue() + "\r\n").getBytes(StandardCharsets.ISO_8859_1);
    }

    /** @return the length of the wire form in bytes */
    public int getEncodedLength() {
        return encoded.length;
    }

    /** Copies the wire form, {@code "Name: value\r\n"}, into {@code buffer} at its position. */
    public void putTo(ByteBuffer buffer) {
        buffer.put(encoded);
    }

    private static void check(String text, boolean value) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean legal = c > 0x20 && c != 0x7F && c <= 0xFF || value && (c == ' ' || c == '\t');
            if (!legal || !value && c == ':') {
                throw new IllegalArgumentException((value ? "field value" : "field name")
                        + " has an illegal character 0x" + Integer.toHexString(c) + " at " + i);
            }
        }
    }
}
