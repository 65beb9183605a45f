package io.wharf.http2;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/** Test helper: bytes written as hex the way RFC 7541 prints them ({@code "8286 8441"}), blanks ignored. */
public final class Hex {

    private Hex() {
    }

    /** @return the bytes of {@code hex}, whose blanks and line breaks are ignored */
    public static byte[] bytes(String hex) {
        return HexFormat.of().parseHex(hex.replaceAll("\\s+", ""));
    }

    /** @return a heap buffer in flush mode holding the bytes of {@code hex} */
    public static ByteBuffer heap(String hex) {
        return ByteBuffer.wrap(bytes(hex));
    }

    /** @return a direct buffer in flush mode holding the bytes of {@code hex} */
    public static ByteBuffer direct(String hex) {
        byte[] bytes = bytes(hex);
        return ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
    }

    /** @return the remaining bytes of {@code buffer} in lower-case hex, without moving its position */
    public static String of(ByteBuffer buffer) {
        byte[] bytes = new byte[buffer.remaining()];
        buffer.get(buffer.position(), bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** @return {@code hex} without blanks, as {@link #of} prints it */
    public static String normalize(String hex) {
        return hex.replaceAll("\\s+", "").toLowerCase();
    }
}
