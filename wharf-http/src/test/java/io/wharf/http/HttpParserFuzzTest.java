package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz targets for the HTTP/1 parser, one for requests (chunked content and trailers
 * included) and one for responses (HEAD answers and close-delimited content included); see
 * docs/fuzzing.md. Each input is the bytes a peer sends, parsed message after message as a
 * connection does, then the end of input. The parser takes no pool, so there is no buffer to
 * leak; what each input must keep:
 * <ul>
 * <li>no exception escapes {@code parseNext}: a bad message is a {@link BadMessageException}
 *     handed to the listener, with a 4xx or 5xx status;</li>
 * <li>the same events whether the bytes come whole or one byte at a time (a parser that reads
 *     a message differently when TCP splits it would let a peer smuggle requests);</li>
 * <li>bounded: no more content than bytes given, no message with more fields or trailers, or
 *     longer field lines, than its {@link HttpParser.Limits} allow (small here, so the fuzzer
 *     reaches them).</li>
 * </ul>
 * Seeds: {@code src/test/resources/io/wharf/http/HttpParserFuzzTestInputs/<method>/}.
 */
class HttpParserFuzzTest {

    private static final HttpParser.Limits LIMITS = new HttpParser.Limits(512, 256, 12, 64, 256, 6, 256);

    @FuzzTest
    void requests(byte[] input) {
        check(input, true, false);
    }

    @FuzzTest
    void responses(byte[] input) {
        // A last byte 0 (not parsed) makes the responses answers to HEAD requests.
        boolean head = input.length > 0 && input[input.length - 1] == 0;
        check(head ? Arrays.copyOf(input, input.length - 1) : input, false, head);
    }

    private static void check(byte[] input, boolean requests, boolean headResponses) {
        RecordingListener whole = parse(input, Math.max(1, input.length), requests, headResponses);
        RecordingListener byByte = parse(input, 1, requests, headResponses);
        assertEquals(whole.events, byByte.events, "the events depend on how the bytes were split");
        for (BadMessageException failure : whole.failures) {
            assertTrue(failure.getStatus() >= 400 && failure.getStatus() <= 599, failure::toString);
        }
        checkBounds(whole.events, input.length);
    }

    /** Parses {@code input} in pieces of {@code piece} bytes, then the end of input. */
    private static RecordingListener parse(byte[] input, int piece, boolean requests, boolean headResponses) {
        RecordingListener listener = new RecordingListener();
        HttpParser parser = requests
            ? new HttpParser((HttpParserListener.Request) listener, LIMITS, HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE)
            : new HttpParser((HttpParserListener.Response) listener, LIMITS, HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE);
        if (headResponses) {
            parser.setHeadResponse(true);
        }
        for (int from = 0; from < input.length && !parser.isClosed(); from += piece) {
            ByteBuffer buffer = ByteBuffer.wrap(input, from, Math.min(piece, input.length - from)).slice();
            drive(parser, buffer, headResponses);
        }
        parser.atEOF();
        drive(parser, ByteBuffer.allocate(0), headResponses);
        return listener;
    }

    /** Parses until the buffer is used up or the parser closes, starting the next message after each complete one. */
    private static void drive(HttpParser parser, ByteBuffer buffer, boolean headResponses) {
        for (int steps = 0; ; steps++) {
            if (steps > 100_000) {
                throw new AssertionError("the parser makes no progress: " + parser);
            }
            boolean stopped = parser.parseNext(buffer);
            if (parser.isComplete()) {
                parser.reset();
                if (headResponses) {
                    parser.setHeadResponse(true);
                }
                continue;
            }
            if (parser.isClosed() || !stopped && !buffer.hasRemaining()) {
                return;
            }
        }
    }

    /** Checks each message's fields, trailers and content against the limits and the input's size. */
    private static void checkBounds(List<String> events, int inputLength) {
        int fields = 0;
        int trailers = 0;
        long content = 0;
        for (String event : events) {
            if (event.startsWith("request ") || event.startsWith("response ")) {
                fields = 0;
                trailers = 0;
            } else if (event.startsWith("header ")) {
                fields++;
                assertTrue(fields <= LIMITS.maxFields(), "more than " + LIMITS.maxFields() + " fields");
                assertTrue(event.length() - "header : ".length() <= LIMITS.maxHeaderBytes(), "field line past the head limit");
            } else if (event.startsWith("trailer ")) {
                trailers++;
                assertTrue(trailers <= LIMITS.maxTrailers(), "more than " + LIMITS.maxTrailers() + " trailers");
                assertTrue(event.length() - "trailer : ".length() <= LIMITS.maxTrailerBytes(), "trailer line past its limit");
            } else if (event.startsWith("content ")) {
                content += event.length() - "content ".length();
            }
        }
        assertTrue(content <= inputLength, "more content than bytes given");
    }
}
