package io.wharf.server.http2.internal;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.server.internal.Http1Handover;

/**
 * What the first bytes of a cleartext connection say about HTTP/2's client preface,
 * {@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n} (RFC 9113 section 3.4). Only the whole preface is
 * HTTP/2; its request line {@code PRI * HTTP/2.0}, which no HTTP/1 request has, followed by
 * other bytes is an HTTP/2 client with a broken preface; anything else, however malformed, is
 * left to HTTP/1. Stateless; any thread.
 */
public final class ClientPreface {

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** The length of {@code PRI * HTTP/2.0}. */
    private static final int REQUEST_LINE = 14;

    private ClientPreface() {
    }

    /** @return what the bytes from {@code bytes}' position (left unchanged) say */
    public static Http1Handover.Preface of(ByteBuffer bytes) {
        int available = Math.min(bytes.remaining(), PREFACE.length);
        for (int i = 0; i < available; i++) {
            if (bytes.get(bytes.position() + i) != PREFACE[i]) {
                return i < REQUEST_LINE ? Http1Handover.Preface.NONE : Http1Handover.Preface.BROKEN;
            }
        }
        return available == PREFACE.length ? Http1Handover.Preface.WHOLE : Http1Handover.Preface.PARTIAL;
    }
}
