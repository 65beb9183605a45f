package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A malformed HTTP/2 response (RFC 9113 sections 8.1.1, 8.2 and 8.3.2) is a stream error: the
 * client resets the stream with PROTOCOL_ERROR, fails the request with a message that names
 * the problem, and sends the next request on the same connection. A server played frame by
 * frame writes each response's header block as raw HPACK literals, octet for octet. HEAD and
 * 304 responses, whose {@code content-length} describes the representation, are not malformed
 * for carrying one without content.
 */
@Timeout(60)
class Http2MalformedResponseTest {

    private static final int HEADERS = 1;
    private static final int DATA = 0;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** One response the played server writes: its frames, and what the client should make of it. */
    private record Answer(String name, String method, List<Written> frames, String expected) {
    }

    /** A frame of an answer: HEADERS with a raw block, or DATA. */
    private record Written(int type, byte[] payload, boolean endStream) {
    }

    private static Answer malformed(String name, Block head, String problem) {
        return new Answer(name, "GET", List.of(new Written(HEADERS, head.bytes(), true)), "failed: " + problem);
    }

    private static Answer answer(String name, String method, String expected, Written... frames) {
        return new Answer(name, method, List.of(frames), expected);
    }

    private static Written headers(Block block, boolean endStream) {
        return new Written(HEADERS, block.bytes(), endStream);
    }

    private static Written data(String content, boolean endStream) {
        return new Written(DATA, content.getBytes(StandardCharsets.ISO_8859_1), endStream);
    }

    private static Block ok() {
        return new Block().field(":status", "200");
    }

    private final List<Answer> answers = List.of(
            malformed("space in a name", ok().field("x a", "1"), "field name"),
            malformed("colon in a name", ok().field("x:b", "1"), "field name"),
            malformed("NUL in a name", ok().field("x\0c", "1"), "field name"),
            malformed("upper-case name", ok().field("Content-Type", "text/plain"), "upper-case"),
            malformed("CR LF in a value", ok().field("x", "a\r\nInjected: yes"), "field value"),
            malformed("leading space in a value", ok().field("x", " a"), "whitespace"),
            malformed("connection-specific field", ok().field("connection", "close"), "connection-specific"),
            malformed("transfer-encoding", ok().field("transfer-encoding", "chunked"), "connection-specific"),
            malformed("no :status", new Block().field("x", "1"), ":status"),
            malformed("two :status", ok().field(":status", "200"), ":status"),
            malformed(":status not three digits", new Block().field(":status", "2000"), ":status"),
            malformed("request pseudo-header in a response", ok().field(":path", "/"), ":path"),
            malformed("pseudo-header after a field", new Block().field("x", "1").field(":status", "200"), "pseudo-header"),
            malformed("content-length 5 on HEADERS with END_STREAM", ok().field("content-length", "5"), "content-length"),
            answer("content-length 10 and 5 octets", "GET", "failed: content-length",
                    headers(ok().field("content-length", "10"), false), data("hello", true)),
            answer("trailers with an upper-case name", "GET", "failed: upper-case",
                    headers(ok(), false), data("hello", false), headers(new Block().field("X-Sum", "1"), true)),
            answer("trailers with a pseudo-header", "GET", "failed: pseudo-header",
                    headers(ok(), false), data("hello", false), headers(new Block().field(":status", "200"), true)),
            answer("content-length 5 then trailers without DATA", "GET", "failed: content-length",
                    headers(ok().field("content-length", "5"), false), headers(new Block().field("x-sum", "1"), true)),
            // Well-formed neighbours.
            answer("HEAD with content-length and no content", "HEAD", "200 ",
                    headers(ok().field("content-length", "5"), true)),
            answer("304 with content-length and no content", "GET", "304 ",
                    headers(new Block().field(":status", "304").field("content-length", "5"), true)),
            answer("content-length 5, 5 octets and trailers", "GET", "200 hello",
                    headers(ok().field("content-length", "5"), false), data("hello", false),
                    headers(new Block().field("x-sum", "1"), true)),
            answer("a value with inner blanks and obs-text", "GET", "200 hi",
                    headers(ok().field("x", "a b\tcaf\u00e9"), false), data("hi", true)));

    @Test
    void eachMalformedResponseFailsItsRequestWithTheProblemAndTheConnectionCarriesOn() throws Exception {
        List<RawHttp2Peer> played = new ArrayList<>();
        ScriptedServer server = loopback.scripted(peer -> {
            RawHttp2Peer http2 = new RawHttp2Peer(peer).start();
            synchronized (played) {
                played.add(http2);
            }
            for (Answer answer : answers) {
                RawHttp2Peer.Frame request = http2.awaitHeaders();
                if (request == null) {
                    return;
                }
                for (Written frame : answer.frames()) {
                    http2.raw(frame.type(), request.streamId(), frame.payload(), frame.endStream());
                }
            }
            while (http2.awaitHeaders() != null) {
                // Reads the client's last frames until it closes.
            }
        });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        List<String> wrong = new ArrayList<>();
        int stream = 1;
        List<String> expectedResets = new ArrayList<>();
        for (Answer answer : answers) {
            String outcome;
            try {
                ContentResponse response = client.newRequest(server.uri("/" + stream)).method(answer.method()).send();
                outcome = response.getStatus() + " " + response.getContentAsString();
            } catch (ExecutionException x) {
                assertInstanceOf(IOException.class, x.getCause(), answer.name());
                outcome = "failed: " + x.getCause().getMessage();
            }
            boolean right = answer.expected().startsWith("failed: ")
                    ? outcome.startsWith("failed: ") && outcome.contains(answer.expected().substring("failed: ".length()))
                    : outcome.equals(answer.expected());
            if (!right) {
                wrong.add(answer.name() + ": expected " + answer.expected() + ", got " + outcome);
            }
            if (answer.expected().startsWith("failed: ")) {
                expectedResets.add("RST_STREAM " + stream + " PROTOCOL_ERROR");
            }
            stream += 2;
        }
        assertEquals(List.of(), wrong, "responses the client took wrongly");
        assertEquals(1, server.accepted(), "every request went on one connection");
        RawHttp2Peer http2;
        synchronized (played) {
            http2 = played.get(0);
        }
        // The server's script reads the client's resets while it waits for the next request; the last comes after it.
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!http2.resets().containsAll(expectedResets) && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (!http2.resets().containsAll(expectedResets)) {
            fail("the client's resets: " + http2.resets() + ", expected " + expectedResets);
        }
        assertTrue(http2.resets().stream().allMatch(expectedResets::contains), "unexpected resets: " + http2.resets());
    }

    /** A header block of HPACK literals without indexing, new names, no Huffman coding (RFC 7541 section 6.2.2). */
    private static final class Block {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Block field(String name, String value) {
            bytes.write(0x00);
            string(name);
            string(value);
            return this;
        }

        /** A string of fewer than 127 octets: its length fits the 7-bit prefix. */
        private void string(String text) {
            byte[] octets = text.getBytes(StandardCharsets.ISO_8859_1);
            bytes.write(octets.length);
            bytes.writeBytes(octets);
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }
}
