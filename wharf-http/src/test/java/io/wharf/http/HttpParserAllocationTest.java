package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.testing.ThreadAllocation;

import org.junit.jupiter.api.Test;

/**
 * The fast path's promise: a request made only of known and learned lines costs no
 * allocation but its target String. Measured with the JVM's per-thread allocation counter.
 */
class HttpParserAllocationTest {

    private static final String REQUEST = ParserDriver.crlf("""
            GET /x HTTP/1.1
            Host: www.example.com
            User-Agent: Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0
            Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8
            Accept-Language: en-US,en;q=0.5
            Accept-Encoding: gzip, deflate, br, zstd
            Connection: keep-alive
            Upgrade-Insecure-Requests: 1
            Sec-Fetch-Dest: document
            Sec-Fetch-Mode: navigate
            Sec-Fetch-Site: none
            Sec-Fetch-User: ?1
            Priority: u=0, i

            """);

    /** Counts calls and keeps nothing. */
    private static final class CountingListener implements HttpParserListener.Request {
        int requests;
        int fields;
        int failures;

        @Override
        public void startRequest(String method, String target, HttpVersion version) {
            requests++;
        }

        @Override
        public void parsedHeader(HttpField field) {
            fields++;
        }

        @Override
        public boolean headerComplete() {
            return false;
        }

        @Override
        public boolean content(ByteBuffer content) {
            return false;
        }

        @Override
        public boolean messageComplete() {
            return false;
        }

        @Override
        public void badMessage(BadMessageException failure) {
            failures++;
        }

        @Override
        public void earlyEOF() {
            failures++;
        }
    }

    @Test
    void aFullyCachedRequestAllocatesOnlyItsTarget() {
        byte[] bytes = REQUEST.getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer direct = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
        CountingListener listener = new CountingListener();
        HttpParser parser = new HttpParser(listener, HttpParser.Limits.DEFAULT, HttpCompliance.RFC9112,
                ComplianceViolation.Listener.NONE);

        int warmUp = 20_000;
        int measured = 20_000;
        long perRequest = ThreadAllocation.perRun(warmUp, measured, () -> {
            direct.clear();
            parser.parseNext(direct);
            parser.reset();
        });

        assertEquals(0, listener.failures);
        assertEquals(warmUp + measured, listener.requests);
        assertEquals(12L * (warmUp + measured), listener.fields);
        // "/x" is a String of about 24 bytes and its array of about 24: anything much more is a leak of the fast path.
        assertTrue(perRequest <= 64, perRequest + " bytes allocated per request");
    }
}
