package io.wharf.http2.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.http2.Hex;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.io.Content;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class FrameParserTest {

    private static final String SETTINGS = ParserDriver.SETTINGS;
    private static final String PING = "000008 06 00 00000000 0102030405060708";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private List<String> parse(boolean server, String hex) {
        ParserDriver driver = new ParserDriver(leaks.pool(), server);
        driver.feed(Hex.bytes(hex), false);
        driver.parser.close();
        return driver.listener.events();
    }

    @Test
    void aServerChecksThePrefaceByteByByte() {
        String preface = Hex.of(ByteBuffer.wrap("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes()));
        assertEquals(List.of("SETTINGS Settings{}"), parse(true, preface + SETTINGS));
        List<String> http1 = parse(true, Hex.of(ByteBuffer.wrap("GET / HTTP/1.1\r\nHost: a\r\n\r\n".getBytes())));
        assertEquals(List.of("CONNECTION_ERROR PROTOCOL_ERROR: not the HTTP/2 connection preface (RFC 9113 section 3.4)"), http1);
        List<String> nearly = parse(true, Hex.of(ByteBuffer.wrap("PRI * HTTP/2.0\r\n\r\nSM\r\n\n".getBytes())) + SETTINGS);
        assertEquals(1, nearly.size());
        assertTrue(nearly.get(0).startsWith("CONNECTION_ERROR PROTOCOL_ERROR: not the HTTP/2 connection preface"));
    }

    @Test
    void thePeersFirstFrameMustBeSettings() {
        assertEquals(List.of("CONNECTION_ERROR PROTOCOL_ERROR: the peer's first frame is a PING frame, not SETTINGS (RFC 9113 section 3.4)"),
            parse(false, PING));
        assertEquals(List.of("CONNECTION_ERROR PROTOCOL_ERROR: the peer's first frame is a SETTINGS frame, not SETTINGS (RFC 9113 section 3.4)"),
            parse(false, "000000 04 01 00000000"), "an acknowledgement is not the peer's settings");
        assertEquals(List.of("CONNECTION_ERROR PROTOCOL_ERROR: the peer's first frame is a frame of unknown type 32, not SETTINGS (RFC 9113 section 3.4)"),
            parse(false, "000000 20 00 00000000"));
    }

    @Test
    void whatOnlyAServerMaySendIsRefusedFromAClientAndTheOtherWayRound() {
        String preface = Hex.of(ByteBuffer.wrap("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes()));
        assertEquals(List.of("SETTINGS Settings{}",
                "CONNECTION_ERROR PROTOCOL_ERROR: PUSH_PROMISE frame sent by a client (RFC 9113 section 8.4)"),
            parse(true, preface + SETTINGS + "000005 05 04 00000001 00000002 82"));
        String enablePush = "000006 04 00 00000000 000200000001";
        assertEquals(List.of("CONNECTION_ERROR PROTOCOL_ERROR: a server sent ENABLE_PUSH 1 (RFC 9113 section 6.5.2)"),
            parse(false, enablePush));
        assertEquals(List.of("SETTINGS Settings{ENABLE_PUSH=1}"), parse(true, preface + enablePush), "a client may enable push");
    }

    @Test
    void unknownTypesFlagsAndSettingsAreIgnored() {
        assertEquals(List.of("SETTINGS Settings{MAX_CONCURRENT_STREAMS=100}", "PING 102030405060708", "DATA 1 'a'",
                "PING 102030405060708"),
            parse(false, "00000c 04 00 00000000 00ff00000001 000300000064"   // setting 0xff is unknown
                + "000005 2a ff 00000007 0102030405"                           // an unknown type, any stream, any flags
                + "000008 06 fe 00000000 0102030405060708"                     // flags PING does not define
                + "000001 00 f6 80000001 61"                                   // reserved bit of the stream id set
                + "000000 fe 00 00000000" + PING));
    }

    @Test
    void aLargerMaxFrameSizeIsHonouredOnceSet() {
        String frame = "004001 00 01 00000001 " + "61".repeat(16_385);
        assertTrue(parse(false, SETTINGS + frame).get(1).startsWith("CONNECTION_ERROR FRAME_SIZE_ERROR"));
        ParserDriver driver = new ParserDriver(leaks.pool(), false);
        driver.parser.setMaxFrameSize(16_385);
        assertTrue(driver.feed(Hex.bytes(SETTINGS + frame), true));
        assertEquals("DATA 1 '" + "a".repeat(16_385) + "' END_STREAM", driver.listener.events().get(1));
        driver.parser.close();
    }

    @Test
    void aFloodOfEmptyContinuationFramesStopsAtTheBlockBound() {
        StringBuilder flood = new StringBuilder(SETTINGS + "000001 01 00 00000001 82");
        flood.append("000000 09 00 00000001".repeat(10_000));
        byte[] bytes = Hex.bytes(flood.toString());
        ParserDriver driver = new ParserDriver(leaks.pool(), false);
        // A HEADERS frame of 1 octet counts 10, each empty CONTINUATION 9: the 3,640th passes 32,768.
        int beforeFailing = 9 + 10 + 3_639 * 9;
        assertTrue(driver.feed(Arrays.copyOfRange(bytes, 0, beforeFailing), false));
        assertEquals(FrameParser.State.HEADER, driver.parser.getState());
        assertTrue(driver.feed(Arrays.copyOfRange(bytes, beforeFailing, beforeFailing + 8), false));
        assertFalse(driver.feed(Arrays.copyOfRange(bytes, beforeFailing + 8, beforeFailing + 9), false),
            "the last octet of the 3,640th CONTINUATION's header ends it");
        assertFalse(driver.feed(Arrays.copyOfRange(bytes, beforeFailing + 9, bytes.length), false));
        assertEquals(List.of("SETTINGS Settings{}",
            "CONNECTION_ERROR ENHANCE_YOUR_CALM: header block of stream 1 passes 32768 octets with its frame headers (RFC 9113 section 10.5.1)"),
            driver.listener.events());
        driver.parser.close();
    }

    /** Counts the largest buffer the parser borrows. */
    private static final class LargestAcquire implements ByteBufferPool {
        private final ByteBufferPool delegate;
        final AtomicInteger largest = new AtomicInteger();

        LargestAcquire(ByteBufferPool delegate) {
            this.delegate = delegate;
        }

        @Override
        public RetainableByteBuffer acquire(int size, boolean direct) {
            largest.accumulateAndGet(size, Math::max);
            return delegate.acquire(size, direct);
        }

        @Override
        public void clear() {
            delegate.clear();
        }
    }

    @Test
    void aFloodOfContinuationFramesWithFragmentsBuffersAtMostTheBound() {
        LargestAcquire pool = new LargestAcquire(leaks.pool());
        RecordingListener listener = new RecordingListener();
        FrameParser parser = FrameParser.client(listener, new HpackDecoder(), pool);
        StringBuilder flood = new StringBuilder(SETTINGS + "000001 01 00 00000001 82");
        String fragment = "0003e8 09 00 00000001 " + "00".repeat(1000);
        flood.append(fragment.repeat(100));
        byte[] bytes = Hex.bytes(flood.toString());
        RetainableByteBuffer network = pool.acquire(bytes.length, false);
        network.byteBuffer().limit(bytes.length).put(0, bytes);
        assertFalse(parser.parse(network));
        network.release();
        parser.close();
        assertEquals(2, listener.events().size());
        assertTrue(listener.events().get(1).startsWith("CONNECTION_ERROR ENHANCE_YOUR_CALM"));
        int fromTheParser = pool.largest.get() == bytes.length ? 0 : pool.largest.get();
        assertTrue(fromTheParser <= 2 * FrameParser.DEFAULT_MAX_HEADER_BLOCK_BYTES, "largest buffer " + fromTheParser);
    }

    @Test
    void aTooLargeHeaderListIsToldAndTheTableStaysInStep() {
        ParserDriver driver = new ParserDriver(leaks.pool(), false, new HpackDecoder(4096, 60));
        // custom-key: custom-header (55 octets, indexed), then :method: GET (42): 97 > 60.
        String block = "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572 82";
        String headers = String.format("%06x", Hex.bytes(block).length) + " 01 05 00000001 " + block;
        assertTrue(driver.feed(Hex.bytes(SETTINGS + headers + "000001 01 05 00000003 be"), false));
        assertEquals(List.of("SETTINGS Settings{}", "HEADERS 1 [too large: 97] END_STREAM",
            "HEADERS 3 [custom-key=custom-header] END_STREAM"), driver.listener.events());
        driver.parser.close();
    }

    @Test
    void aStreamErrorInHeadersStillUpdatesTheTable() {
        String block = "400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572";
        String selfDependent = String.format("%06x", 5 + Hex.bytes(block).length) + " 01 24 00000003 00000003 0f " + block;
        List<String> events = parse(false, SETTINGS + selfDependent + "000001 01 04 00000005 be");
        assertEquals(List.of("SETTINGS Settings{}",
            "STREAM_ERROR 3 PROTOCOL_ERROR: stream 3 depends on itself (RFC 9113 section 5.3.1)",
            "HEADERS 5 [custom-key=custom-header]"), events);
    }

    @Test
    void dataComesInPiecesWithPaddingToldOnceAtTheEnd() {
        // 1 Pad Length octet, 5 of data, 3 of padding, cut after the Pad Length (nothing to tell yet), inside the data and inside the padding.
        String padded = "000009 00 09 00000001 03 68656c6c6f 000000";
        ParserDriver driver = new ParserDriver(leaks.pool(), false);
        assertTrue(driver.feed(Hex.bytes(SETTINGS + padded + "000000 00 00 00000003"), false, 9 + 9 + 1, 9 + 9 + 4, 9 + 9 + 7));
        assertEquals(List.of("SETTINGS Settings{}",
            "DATA 1 'hel' padding 0", "DATA 1 'lo' padding 0", "DATA 1 '' padding 4 END_STREAM",
            "DATA 3 '' padding 0"), driver.listener.rawEvents());
        driver.parser.close();
    }

    @Test
    void dataChunksAreSlicesThatHoldTheNetworkBuffer() {
        List<Content.Chunk> kept = new ArrayList<>();
        FrameListener keeping = new RecordingListener() {
            @Override
            public void onData(int streamId, Content.Chunk data, int padding) {
                kept.add(data);
            }
        };
        FrameParser parser = FrameParser.client(keeping, new HpackDecoder(), leaks.pool());
        byte[] bytes = Hex.bytes(SETTINGS + "000002 00 00 00000001 6869 000002 00 01 00000003 6869");
        RetainableByteBuffer network = leaks.pool().acquire(bytes.length, true);
        network.byteBuffer().limit(bytes.length).put(0, bytes);
        assertTrue(parser.parse(network));
        network.release();
        assertEquals(2, kept.size());
        assertEquals(1, leaks.pool().outstanding(), "the chunks hold the network buffer");
        assertTrue(kept.get(0).getByteBuffer().isDirect(), "a slice, not a copy");
        assertFalse(kept.get(0).isLast());
        assertTrue(kept.get(1).isLast());
        kept.get(0).release();
        assertEquals(1, leaks.pool().outstanding());
        kept.get(1).release();
        assertEquals(0, leaks.pool().outstanding());
        parser.close();
    }

    @Test
    void closingMidFrameGivesTheBuffersBack() {
        ParserDriver inBlock = new ParserDriver(leaks.pool(), false);
        inBlock.feed(Hex.bytes(SETTINGS + "000001 01 00 00000001 82" + "000002 09 00 00000001 8486"), false, 9 + 10 + 9 + 1);
        inBlock.parser.close();
        assertEquals(FrameParser.State.FAILED, inBlock.parser.getState());

        ParserDriver midPayload = new ParserDriver(leaks.pool(), false);
        midPayload.feed(Hex.bytes(SETTINGS + "000008 06 00 00000000 01020304"), false);
        assertEquals(FrameParser.State.PAYLOAD, midPayload.parser.getState());
        midPayload.parser.close();
        assertEquals(List.of("SETTINGS Settings{}"), midPayload.listener.events());
    }

    @Test
    void goAwayDebugDataIsReadOnly() {
        List<ByteBuffer> debug = new ArrayList<>();
        FrameParser parser = FrameParser.client(new RecordingListener() {
            @Override
            public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
                debug.add(debugData);
            }
        }, new HpackDecoder(), leaks.pool());
        byte[] bytes = Hex.bytes(SETTINGS + "00000b 07 00 00000000 80000007 ffffffff 6f6f70");
        RetainableByteBuffer network = leaks.pool().acquire(bytes.length, false);
        network.byteBuffer().limit(bytes.length).put(0, bytes);
        parser.parse(network);
        network.release();
        assertTrue(debug.get(0).isReadOnly());
        parser.close();
    }
}
