package io.wharf.http2.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A generator writes every frame type a client sends (after the preface) or a server sends
 * (PUSH_PROMISE too); the other side's parser reads them back — whole, cut at every byte
 * position, and one byte at a time, from heap and direct buffers — and must tell the same
 * events every way, leaving no buffer behind.
 */
class FrameRoundTripTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static final HttpFields REQUEST = HttpFields.of(
        new HttpField(HttpHeader.C_METHOD, ":method", "POST"),
        new HttpField(HttpHeader.C_SCHEME, ":scheme", "https"),
        new HttpField(HttpHeader.C_AUTHORITY, ":authority", "example.com"),
        new HttpField(HttpHeader.C_PATH, ":path", "/upload"),
        new HttpField("content-type", "text/plain"));

    private static final List<String> FROM_SERVER = List.of(
        "SETTINGS Settings{HEADER_TABLE_SIZE=8192, ENABLE_PUSH=0, INITIAL_WINDOW_SIZE=1048576}",
        "SETTINGS ACK",
        "HEADERS 1 [:method=POST, :scheme=https, :authority=example.com, :path=/upload, content-type=text/plain]"
            + " Priority[dependency=0, exclusive=true, weight=200]",
        "DATA 1 'hello, world'",
        "PRIORITY 3 Priority[dependency=1, exclusive=false, weight=1]",
        "DATA 1 'padded' padding 5",
        "WINDOW_UPDATE 0 65536",
        "WINDOW_UPDATE 1 1000",
        "PING 1122334455667788",
        "PING 1122334455667788 ACK",
        "PUSH_PROMISE 1 2 [:method=GET, :path=/style.css]",
        "HEADERS 1 [trailer=yes] END_STREAM",
        "RST_STREAM 3 8",
        "DATA 5 '' END_STREAM",
        "GOAWAY 5 0 'bye'");

    /** What a server's parser tells of what a client sends: the same, without the PUSH_PROMISE. */
    private static final List<String> FROM_CLIENT = FROM_SERVER.stream().filter(event -> !event.startsWith("PUSH_PROMISE")).toList();

    /** @return the bytes a client sends (the preface, then one frame of each type) or a server sends (PUSH_PROMISE too) */
    private byte[] conversation(boolean fromClient) {
        FrameGenerator generator = new FrameGenerator(new HpackEncoder());
        FrameBuffers out = new FrameBuffers(leaks.pool(), true);
        try {
            if (fromClient) {
                generator.preface(out);
            }
            generator.settings(out, Settings.builder().set(Setting.HEADER_TABLE_SIZE, 8192).set(Setting.ENABLE_PUSH, 0)
                .set(Setting.INITIAL_WINDOW_SIZE, 1 << 20).build());
            generator.settingsAck(out);
            generator.headers(out, 1, REQUEST, new Priority(0, true, 200), false, 0);
            generator.data(out, 1, ByteBuffer.wrap("hello, world".getBytes(StandardCharsets.US_ASCII)), false, 0);
            generator.priority(out, 3, new Priority(1, false, 1));
            generator.data(out, 1, ByteBuffer.wrap("padded".getBytes(StandardCharsets.US_ASCII)), false, 4);
            generator.windowUpdate(out, 0, 65536);
            generator.windowUpdate(out, 1, 1000);
            generator.ping(out, 0x1122334455667788L, false);
            generator.ping(out, 0x1122334455667788L, true);
            if (!fromClient) {
                generator.pushPromise(out, 1, 2, HttpFields.of(new HttpField(":method", "GET"), new HttpField(":path", "/style.css")), 0);
            }
            generator.headers(out, 1, HttpFields.of(new HttpField("trailer", "yes")), null, true, 0);
            generator.rstStream(out, 3, ErrorCode.CANCEL);
            generator.data(out, 5, ByteBuffer.allocate(0), true, 0);
            generator.goAway(out, 5, ErrorCode.NO_ERROR, "bye");
            return bytes(out);
        } finally {
            out.release();
        }
    }

    static byte[] bytes(FrameBuffers out) {
        ByteBuffer all = ByteBuffer.allocate((int) out.remaining());
        for (ByteBuffer buffer : out.toArray()) {
            all.put(buffer.duplicate());
        }
        return all.array();
    }

    @Test
    void everyFrameTypeComesBackWhole() {
        for (boolean fromClient : new boolean[] {true, false}) {
            ParserDriver driver = new ParserDriver(leaks.pool(), fromClient);
            assertTrue(driver.feed(conversation(fromClient), false));
            assertEquals(fromClient ? FROM_CLIENT : FROM_SERVER, driver.listener.events());
            driver.parser.close();
        }
    }

    @Test
    void everyFrameTypeComesBackCutAtEveryPosition() {
        for (boolean fromClient : new boolean[] {true, false}) {
            byte[] bytes = conversation(fromClient);
            for (boolean direct : new boolean[] {false, true}) {
                for (int cut = 1; cut < bytes.length; cut++) {
                    ParserDriver driver = new ParserDriver(leaks.pool(), fromClient);
                    assertTrue(driver.feed(bytes, direct, cut));
                    assertEquals(fromClient ? FROM_CLIENT : FROM_SERVER, driver.listener.events(), "cut at " + cut);
                    driver.parser.close();
                }
            }
        }
    }

    @Test
    void everyFrameTypeComesBackOneByteAtATime() {
        for (boolean fromClient : new boolean[] {true, false}) {
            byte[] bytes = conversation(fromClient);
            for (boolean direct : new boolean[] {false, true}) {
                ParserDriver driver = new ParserDriver(leaks.pool(), fromClient);
                assertTrue(driver.feedByteByByte(bytes, direct));
                assertEquals(fromClient ? FROM_CLIENT : FROM_SERVER, driver.listener.events());
                assertEquals(FrameParser.State.HEADER, driver.parser.getState());
                driver.parser.close();
            }
        }
    }

    @Test
    void aHeaderBlockOverTheFrameSizeComesBackThroughContinuations() {
        HttpFields.Mutable fields = HttpFields.build();
        fields.add(":status", "200");
        for (int i = 0; i < 40; i++) {
            // '~' takes 13 bits in Huffman: the values go raw, about 41 KB in all, three frames.
            fields.add("x-large-" + i, i + "~".repeat(998));
        }
        FrameGenerator generator = new FrameGenerator(new HpackEncoder());
        FrameBuffers out = new FrameBuffers(leaks.pool(), false);
        generator.settings(out, Settings.EMPTY);
        generator.headers(out, 7, fields, null, true, 0);
        byte[] bytes = bytes(out);
        out.release();

        assertTrue(bytes.length > 9 + 3 * 9 + 2 * 16_384, "three frames: " + bytes.length);
        for (int[] cuts : new int[][] {{}, {100}, {9 + 9 + 16_384 + 3}, {9 + 9 + 16_384 + 9 + 5, 9 + 9 + 16_384 + 9 + 16_384 + 1}}) {
            ParserDriver driver = new ParserDriver(leaks.pool(), false, new HpackDecoder(4096, 64 * 1024));
            driver.parser.setMaxHeaderBlockBytes(64 * 1024);
            assertTrue(driver.feed(bytes, true, cuts));
            List<String> events = driver.listener.events();
            assertEquals(2, events.size(), events.toString());
            assertTrue(events.get(1).startsWith("HEADERS 7 [:status=200, x-large-0=0~~~"), events.get(1));
            assertTrue(events.get(1).endsWith(", x-large-39=39" + "~".repeat(998) + "] END_STREAM"));
            driver.parser.close();
        }
    }
}
