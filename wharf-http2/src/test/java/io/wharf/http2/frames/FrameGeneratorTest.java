package io.wharf.http2.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http2.Hex;
import io.wharf.http2.hpack.HeaderListTooLargeException;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FrameGeneratorTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final FrameGenerator generator = new FrameGenerator(new HpackEncoder());
    private FrameBuffers out;

    private FrameBuffers out() {
        out = new FrameBuffers(leaks.pool(), false);
        return out;
    }

    @AfterEach
    void release() {
        if (out != null) {
            out.release();
        }
    }

    private static String hex(FrameBuffers frames) {
        return Hex.of(ByteBuffer.wrap(FrameRoundTripTest.bytes(frames)));
    }

    @Test
    void controlFramesAreWrittenAsTheRfcLaysThemOut() {
        FrameBuffers frames = out();
        generator.settings(frames, Settings.builder().set(Setting.MAX_CONCURRENT_STREAMS, 100)
            .set(Setting.INITIAL_WINDOW_SIZE, 0x7FFF_FFFF).set(Setting.MAX_HEADER_LIST_SIZE, 0xFFFF_FFFFL).build());
        generator.settingsAck(frames);
        generator.ping(frames, 0x0102030405060708L, true);
        generator.goAway(frames, 7, ErrorCode.ENHANCE_YOUR_CALM, "calm");
        generator.windowUpdate(frames, 3, 0x7FFF_FFFF);
        generator.rstStream(frames, 5, ErrorCode.REFUSED_STREAM);
        generator.priority(frames, 9, new Priority(7, true, 256));
        generator.headers(frames, 11, HttpFields.of(new HttpField(":status", "200")), null, true, 0);
        assertEquals(Hex.normalize("""
            000012 04 00 00000000 0003 00000064 0004 7fffffff 0006 ffffffff
            000000 04 01 00000000
            000008 06 01 00000000 0102030405060708
            00000c 07 00 00000000 00000007 0000000b 63616c6d
            000004 08 00 00000003 7fffffff
            000004 03 00 00000005 00000007
            000005 02 00 00000009 80000007 ff
            000001 01 05 0000000b 88
            """), hex(frames));
        assertEquals(1, frames.size(), "consecutive control frames share one pooled buffer");
    }

    @Test
    void thePrefaceComesFirst() {
        FrameBuffers frames = out();
        generator.preface(frames);
        assertEquals(Hex.of(ByteBuffer.wrap("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes())), hex(frames));
    }

    @Test
    void dataIsSplitAtTheMaxFrameSizeWithoutACopy() {
        ByteBuffer data = ByteBuffer.allocate(40_000);
        FrameBuffers frames = out();
        generator.data(frames, 1, data, true, 0);
        assertEquals(40_000, data.position(), "the data was consumed");
        List<String> headers = new ArrayList<>();
        for (int i = 0; i < frames.size(); i += 2) {
            headers.add(Hex.of(frames.get(i)));
            assertSame(data.array(), frames.get(i + 1).array(), "a slice of the caller's buffer");
        }
        assertEquals(List.of("004000000000000001", "004000000000000001", "001c40000100000001"), headers);

        generator.setMaxFrameSize(20_000);
        FrameBuffers larger = new FrameBuffers(leaks.pool(), true);
        generator.data(larger, 1, ByteBuffer.allocate(40_000), false, 0);
        assertEquals(4, larger.size());
        assertEquals("004e20000000000001", Hex.of(larger.get(0)));
        larger.release();
    }

    @Test
    void smallHeapDataIsCopiedAfterItsHeaderForASocketAndForTls() {
        for (boolean direct : new boolean[] {true, false}) {
            FrameBuffers frames = new FrameBuffers(leaks.pool(), direct);
            ByteBuffer data = ByteBuffer.wrap("Hello, World!".getBytes());
            generator.data(frames, 7, data, true, 0);
            generator.data(frames, 9, ByteBuffer.wrap(new byte[] {'h', 'i'}), false, 0);
            assertEquals(13, data.position(), "the data was consumed");
            assertEquals(1, frames.size(), "both frames in one buffer, direct " + direct);
            assertEquals("00000d000100000007" + Hex.of(ByteBuffer.wrap("Hello, World!".getBytes())) + "000002000000000009" + "6869",
                    Hex.of(frames.get(0)));
            frames.release();
        }
        FrameBuffers frames = out();
        ByteBuffer direct = ByteBuffer.allocateDirect(2).put((byte) 'h').put((byte) 'i').flip();
        generator.data(frames, 3, direct, false, 0);
        assertEquals(2, frames.size(), "direct content stays a slice");
    }

    @Test
    void paddingGoesIntoEveryDataFrame() {
        FrameBuffers frames = out();
        generator.data(frames, 3, ByteBuffer.wrap(new byte[] {'h', 'i'}), true, 2);
        assertEquals("000005 00 09 00000003 02 6869 0000".replace(" ", ""), hex(frames));
        FrameBuffers many = new FrameBuffers(leaks.pool(), false);
        generator.data(many, 3, ByteBuffer.allocate(16_384), false, 255);
        assertEquals("004000000800000003ff", Hex.of(many.get(0)), "16,128 data octets and 256 of padding");
        assertEquals(16_384 - 256, many.get(1).remaining());
        many.release();
    }

    @Test
    void emptyDataIsOneFrame() {
        FrameBuffers frames = out();
        generator.data(frames, 5, ByteBuffer.allocate(0), true, 0);
        assertEquals("000000000100000005", hex(frames));
    }

    @Test
    void aLargeHeaderBlockIsSplitIntoContinuations() {
        HttpFields.Mutable fields = HttpFields.build();
        for (int i = 0; i < 40; i++) {
            fields.add("x-large-" + i, i + "~".repeat(998));
        }
        FrameBuffers frames = out();
        generator.headers(frames, 1, fields, new Priority(0, false, 16), true, 10);
        byte[] bytes = FrameRoundTripTest.bytes(frames);
        ByteBuffer all = ByteBuffer.wrap(bytes);
        List<String> layout = new ArrayList<>();
        while (all.hasRemaining()) {
            int length = (all.get() & 0xFF) << 16 | (all.get() & 0xFF) << 8 | all.get() & 0xFF;
            int type = all.get();
            int flags = all.get();
            int stream = all.getInt();
            layout.add(type + "/" + Integer.toHexString(flags) + "/" + stream + (length == 16_384 ? " full" : ""));
            all.position(all.position() + length);
        }
        // HEADERS with END_STREAM, PADDED and PRIORITY, then CONTINUATION frames, END_HEADERS on the last.
        assertEquals(List.of("1/29/1 full", "9/0/1 full", "9/4/1"), layout);
    }

    @Test
    void aPushPromiseBlockIsSplitIntoContinuationsToo() {
        HttpFields.Mutable fields = HttpFields.build();
        fields.add(":method", "GET").add(":path", "/" + "~".repeat(20_000));
        FrameBuffers frames = out();
        generator.pushPromise(frames, 1, 2, fields, 0);
        byte[] bytes = FrameRoundTripTest.bytes(frames);
        assertEquals("004000050000000001" + "00000002", Hex.of(ByteBuffer.wrap(bytes, 0, 13)));
        assertEquals(0x09, bytes[9 + 16_384 + 3]);
        assertEquals(0x04, bytes[9 + 16_384 + 4], "END_HEADERS on the CONTINUATION");
    }

    @Test
    void aListTooLargeForThePeerWritesNothing() {
        HpackEncoder encoder = new HpackEncoder();
        encoder.setPeerMaxHeaderListSize(100);
        FrameGenerator limited = new FrameGenerator(encoder);
        FrameBuffers frames = out();
        limited.ping(frames, 1, false);
        assertThrows(HeaderListTooLargeException.class, () -> limited.headers(frames, 1,
            HttpFields.of(new HttpField("x-a", "a".repeat(100))), null, false, 0));
        assertEquals(17, frames.remaining(), "only the PING");
        assertEquals(0, encoder.getTableSize());
        limited.headers(frames, 1, HttpFields.of(new HttpField("x-a", "a")), null, false, 0);
        assertTrue(frames.remaining() > 17, "the generator is still usable");
    }

    @Test
    void argumentsNoPeerCouldAcceptAreRefused() {
        FrameBuffers frames = out();
        assertThrows(IllegalArgumentException.class, () -> generator.data(frames, 0, ByteBuffer.allocate(1), false, 0));
        assertThrows(IllegalArgumentException.class, () -> generator.data(frames, 1, ByteBuffer.allocate(1), false, 256));
        assertThrows(IllegalArgumentException.class, () -> generator.headers(frames, 0, HttpFields.EMPTY, null, false, 0));
        assertThrows(IllegalArgumentException.class, () -> generator.windowUpdate(frames, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> generator.rstStream(frames, 0, ErrorCode.CANCEL));
        assertThrows(IllegalArgumentException.class, () -> generator.setMaxFrameSize(16_383));
        assertThrows(IllegalArgumentException.class, () -> generator.setMaxFrameSize(1 << 24));
        assertEquals(0, frames.size());
    }

    @Test
    void goAwayDebugDataIsCutToOneFrame() {
        FrameBuffers frames = out();
        generator.goAway(frames, 0, ErrorCode.PROTOCOL_ERROR, "x".repeat(20_000));
        assertEquals(9 + 16_384, frames.remaining());
    }

    @Test
    void releasedBuffersCanBeFilledAgain() {
        FrameBuffers frames = out();
        generator.ping(frames, 1, false);
        frames.release();
        assertEquals(0, frames.size());
        generator.ping(frames, 2, false);
        assertEquals("000008060000000000" + "0000000000000002", hex(frames));
    }
}
