package io.wharf.http2.frames.internal;

import java.nio.charset.StandardCharsets;

/** The client connection preface of RFC 9113 section 3.4: {@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n}. */
public final class Preface {

    private static final byte[] BYTES = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** The preface's length: 24 octets. */
    public static final int LENGTH = BYTES.length;

    private Preface() {
    }

    /** @return the preface octet at {@code index} */
    public static byte at(int index) {
        return BYTES[index];
    }

    /** @return a copy of the preface */
    public static byte[] bytes() {
        return BYTES.clone();
    }
}
