package io.wharf.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/** Test helpers: buffers from text, and a loop that parses every message a buffer holds. */
final class ParserDriver {

    private ParserDriver() {
    }

    /** The kinds of buffer the parser must read alike. */
    enum Kind {
        /** A heap buffer whose array starts before the buffer (a non-zero array offset). */
        HEAP,
        /** A direct buffer. */
        DIRECT,
        /** A read-only heap buffer, which hides its array. */
        READ_ONLY
    }

    static ByteBuffer buffer(String text, Kind kind) {
        byte[] bytes = text.getBytes(StandardCharsets.ISO_8859_1);
        return switch (kind) {
            case HEAP -> {
                byte[] larger = new byte[bytes.length + 10];
                System.arraycopy(bytes, 0, larger, 5, bytes.length);
                yield ByteBuffer.wrap(larger, 5, bytes.length).slice();
            }
            case DIRECT -> ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            case READ_ONLY -> ByteBuffer.wrap(bytes).asReadOnlyBuffer();
        };
    }

    static ByteBuffer buffer(String text) {
        return buffer(text, Kind.HEAP);
    }

    static HttpParser requestParser(RecordingListener listener) {
        return new HttpParser((HttpParserListener.Request) listener, HttpParser.Limits.DEFAULT,
                HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE);
    }

    static HttpParser responseParser(RecordingListener listener) {
        return new HttpParser((HttpParserListener.Response) listener, HttpParser.Limits.DEFAULT,
                HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE);
    }

    /**
     * Parses until the buffer is used up or the parser closes, resetting after each complete
     * message and going on after a listener stopped the parse.
     */
    static void parseAll(HttpParser parser, ByteBuffer buffer) {
        while (true) {
            boolean stopped = parser.parseNext(buffer);
            if (parser.isComplete()) {
                parser.reset();
                continue;
            }
            if (parser.isClosed() || !stopped && !buffer.hasRemaining()) {
                return;
            }
        }
    }

    /** Converts a text block's line ends to CR LF. */
    static String crlf(String text) {
        return text.replace("\n", "\r\n");
    }
}
