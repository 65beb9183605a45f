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

/** The request target a parser remembers: the same String for the same octets, never a stale one. */
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
}
