package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http.internal.BufferText;
import io.wharf.http.internal.ComplianceGate;
import io.wharf.http.internal.StartLineParser;

import org.junit.jupiter.api.Test;

/**
 * The request target a parser remembers: the same String for the same octets, never a stale
 * one. The whole-word comparisons for {@code GET } and {@code HTTP/1.x}, which only a
 * big-endian buffer takes, agree with the trie walks a little-endian buffer takes, for lines
 * that are those words, nearly those words, or those words cut short.
 */
class StartLineParserTest {

    private final List<String> targets = new ArrayList<>();
    private final RecordingListener listener = new RecordingListener() {
        @Override
        public void startRequest(String method, String target, HttpVersion version) {
            targets.add(target);
        }
    };

    private void parse(StartLineParser parser, String line, boolean direct) {
        byte[] bytes = ("xx" + line).getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer buffer = direct ? ByteBuffer.allocateDirect(bytes.length).put(bytes).flip() : ByteBuffer.wrap(bytes);
        parser.parseRequest(buffer, 2, bytes.length, listener);
    }

    @Test
    void aRepeatedTargetIsTheSameStringAndAnyOtherIsNew() {
        for (boolean direct : new boolean[] {false, true}) {
            targets.clear();
            StartLineParser parser = new StartLineParser(new ComplianceGate(HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE),
                    new BufferText());
            parse(parser, "GET /plaintext HTTP/1.1", direct);
            parse(parser, "HEAD /plaintext HTTP/1.1", direct);
            parse(parser, "GET /plaintexT HTTP/1.1", direct);
            parse(parser, "GET /plaintexT HTTP/1.1", direct);
            parse(parser, "GET /p HTTP/1.1", direct);
            String longTarget = "/" + "x".repeat(StartLineParser.REMEMBERED_TARGET_BYTES);
            parse(parser, "GET " + longTarget + " HTTP/1.1", direct);
            parse(parser, "GET " + longTarget + " HTTP/1.1", direct);

            assertEquals(List.of("/plaintext", "/plaintext", "/plaintexT", "/plaintexT", "/p", longTarget, longTarget), targets);
            assertSame(targets.get(0), targets.get(1), "direct " + direct);
            assertSame(targets.get(2), targets.get(3), "direct " + direct);
            assertNotSame(targets.get(5), targets.get(6), "a target longer than the limit is not remembered");
        }
    }

    /** @return what parsing {@code line} tells a listener, or the exception it throws, as text */
    private static String outcome(String line, java.nio.ByteOrder order, boolean direct) {
        StringBuilder told = new StringBuilder();
        RecordingListener recorder = new RecordingListener() {
            @Override
            public void startRequest(String method, String target, HttpVersion version) {
                told.append(method).append('|').append(target).append('|').append(version);
            }
        };
        StartLineParser parser = new StartLineParser(new ComplianceGate(HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE),
                new BufferText());
        byte[] bytes = ("xx" + line).getBytes(StandardCharsets.ISO_8859_1);
        ByteBuffer buffer = (direct ? ByteBuffer.allocateDirect(bytes.length).put(bytes).flip() : ByteBuffer.wrap(bytes)).order(order);
        try {
            parser.parseRequest(buffer, 2, bytes.length, recorder);
        } catch (BadMessageException x) {
            return x.getStatus() + " " + x.getReason();
        }
        return told.toString();
    }

    @Test
    void wholeWordComparisonsAgreeWithTheTries() {
        String[] lines = {
            "GET / HTTP/1.1", "GET / HTTP/1.0", "GET /a HTTP/1.2", "GET / HTTP/2.0", "GET / HTTP/1.", "GET / HTTP/1.11",
            "GET / http/1.1", "GET / HTTP/1,1", "GET / HTTX/1.1", "GET / HTTP/1.1 ", "GET / XTTP/1.1",
            "GET  / HTTP/1.1", "GET", "GET ", "GET /", "GETS / HTTP/1.1", "GEt / HTTP/1.1", "get / HTTP/1.1",
            "GE / HTTP/1.1", "POST / HTTP/1.1", "HEAD / HTTP/1.0", "G", "GET\t/ HTTP/1.1", "GET /x\u00ffHTTP/1.1",
        };
        for (String line : lines) {
            String expected = outcome(line, java.nio.ByteOrder.LITTLE_ENDIAN, false);
            for (boolean direct : new boolean[] {false, true}) {
                assertEquals(expected, outcome(line, java.nio.ByteOrder.BIG_ENDIAN, direct), line + ", direct " + direct);
            }
        }
        assertEquals("GET|/|HTTP/1.1", outcome("GET / HTTP/1.1", java.nio.ByteOrder.BIG_ENDIAN, true));
        assertEquals("GET|/|HTTP/1.0", outcome("GET / HTTP/1.0", java.nio.ByteOrder.BIG_ENDIAN, false));
        assertEquals("505 HTTP version not supported; only HTTP/1.0 and HTTP/1.1", outcome("GET / HTTP/2.0", java.nio.ByteOrder.BIG_ENDIAN, false));
    }
}
