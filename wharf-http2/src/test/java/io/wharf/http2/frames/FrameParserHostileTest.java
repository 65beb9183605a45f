package io.wharf.http2.frames;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import io.wharf.http2.Hex;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Frames that break a rule of RFC 9113, each a row: its bytes (after the peer's first SETTINGS)
 * and the error it must be. A PING follows every hostile frame: after a stream error the parser
 * goes on and reports it, after a connection error it ignores it. Each row is parsed whole, cut
 * at every byte position, and one byte at a time, from heap and direct buffers of a
 * leak-tracking pool; every way must tell the same events and leave no buffer behind.
 */
class FrameParserHostileTest {

    private static final String PING = "000008 06 00 00000000 0102030405060708";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
        // DATA
        "DATA on stream 0 | 000001 00 00 00000000 61 | CONNECTION_ERROR PROTOCOL_ERROR: DATA frame on stream 0",
        "DATA padding as long as the payload | 000002 00 08 00000001 02 00 | CONNECTION_ERROR PROTOCOL_ERROR: DATA padding of 2 octets exceeds the 1 left",
        "DATA padded without a Pad Length | 000000 00 08 00000001 | CONNECTION_ERROR FRAME_SIZE_ERROR: DATA frame of 0 octets, shorter than its 1 mandatory",
        "DATA over SETTINGS_MAX_FRAME_SIZE | 004001 00 00 00000001 | CONNECTION_ERROR FRAME_SIZE_ERROR: frame of 16385 octets exceeds SETTINGS_MAX_FRAME_SIZE 16384",
        // HEADERS
        "HEADERS on stream 0 | 000001 01 04 00000000 82 | CONNECTION_ERROR PROTOCOL_ERROR: HEADERS frame on stream 0",
        "HEADERS too short for padding and priority | 000005 01 2c 00000001 00 00000000 | CONNECTION_ERROR FRAME_SIZE_ERROR: HEADERS frame of 5 octets, shorter than its 6 mandatory",
        "HEADERS padding longer than the rest | 000003 01 0c 00000001 05 82 00 | CONNECTION_ERROR PROTOCOL_ERROR: HEADERS padding of 5 octets exceeds the 2 left",
        "HEADERS depending on its own stream | 000006 01 24 00000003 00000003 0f 82 | STREAM_ERROR 3 PROTOCOL_ERROR: stream 3 depends on itself",
        "HEADERS with index 0 in its block | 000001 01 04 00000001 80 | CONNECTION_ERROR COMPRESSION_ERROR: index 0 is not a table entry",
        "HEADERS with a truncated block | 000001 01 04 00000001 41 | CONNECTION_ERROR COMPRESSION_ERROR: header block ends inside a field representation",
        "HEADERS over SETTINGS_MAX_FRAME_SIZE | 010000 01 04 00000001 | CONNECTION_ERROR FRAME_SIZE_ERROR: frame of 65536 octets exceeds",
        // PRIORITY
        "PRIORITY on stream 0 | 000005 02 00 00000000 0000000110 | CONNECTION_ERROR PROTOCOL_ERROR: PRIORITY frame on stream 0",
        "PRIORITY of 4 octets | 000004 02 00 00000003 00000001 | STREAM_ERROR 3 FRAME_SIZE_ERROR: PRIORITY frame of 4 octets, not 5",
        "PRIORITY of 6 octets | 000006 02 00 00000003 000000011000 | STREAM_ERROR 3 FRAME_SIZE_ERROR: PRIORITY frame of 6 octets, not 5",
        "PRIORITY depending on its own stream | 000005 02 00 00000003 80000003 10 | STREAM_ERROR 3 PROTOCOL_ERROR: stream 3 depends on itself",
        // RST_STREAM
        "RST_STREAM on stream 0 | 000004 03 00 00000000 00000008 | CONNECTION_ERROR PROTOCOL_ERROR: RST_STREAM frame on stream 0",
        "RST_STREAM of 3 octets | 000003 03 00 00000001 000008 | CONNECTION_ERROR FRAME_SIZE_ERROR: RST_STREAM frame of 3 octets, not 4",
        "RST_STREAM of 5 octets | 000005 03 00 00000001 0000000800 | CONNECTION_ERROR FRAME_SIZE_ERROR: RST_STREAM frame of 5 octets, not 4",
        // SETTINGS
        "SETTINGS on stream 1 | 000000 04 00 00000001 | CONNECTION_ERROR PROTOCOL_ERROR: SETTINGS frame on stream 1, not 0",
        "SETTINGS acknowledgement with a payload | 000006 04 01 00000000 000100001000 | CONNECTION_ERROR FRAME_SIZE_ERROR: SETTINGS acknowledgement with a payload of 6 octets",
        "SETTINGS of 5 octets | 000005 04 00 00000000 0001000010 | CONNECTION_ERROR FRAME_SIZE_ERROR: SETTINGS frame of 5 octets, not a multiple of 6",
        "SETTINGS_ENABLE_PUSH 2 | 000006 04 00 00000000 000200000002 | CONNECTION_ERROR PROTOCOL_ERROR: ENABLE_PUSH 2 is outside 0..1",
        "SETTINGS_INITIAL_WINDOW_SIZE 2^31 | 000006 04 00 00000000 000480000000 | CONNECTION_ERROR FLOW_CONTROL_ERROR: INITIAL_WINDOW_SIZE 2147483648 is outside 0..2147483647",
        "SETTINGS_MAX_FRAME_SIZE 16383 | 000006 04 00 00000000 000500003fff | CONNECTION_ERROR PROTOCOL_ERROR: MAX_FRAME_SIZE 16383 is outside 16384..16777215",
        "SETTINGS_MAX_FRAME_SIZE 2^24 | 000006 04 00 00000000 000501000000 | CONNECTION_ERROR PROTOCOL_ERROR: MAX_FRAME_SIZE 16777216 is outside",
        "SETTINGS_ENABLE_CONNECT_PROTOCOL 2 | 000006 04 00 00000000 000800000002 | CONNECTION_ERROR PROTOCOL_ERROR: ENABLE_CONNECT_PROTOCOL 2 is outside 0..1",
        "a bad value after a good one | 00000c 04 00 00000000 000300000064 000200000007 | CONNECTION_ERROR PROTOCOL_ERROR: ENABLE_PUSH 7",
        // PUSH_PROMISE
        "PUSH_PROMISE on stream 0 | 000005 05 04 00000000 00000002 82 | CONNECTION_ERROR PROTOCOL_ERROR: PUSH_PROMISE frame on stream 0",
        "PUSH_PROMISE without a promised stream | 000003 05 04 00000001 000000 | CONNECTION_ERROR FRAME_SIZE_ERROR: PUSH_PROMISE frame of 3 octets, shorter than its 4 mandatory",
        "PUSH_PROMISE padded, too short | 000004 05 0c 00000001 00000000 | CONNECTION_ERROR FRAME_SIZE_ERROR: PUSH_PROMISE frame of 4 octets, shorter than its 5 mandatory",
        "PUSH_PROMISE padding longer than the rest | 000007 05 0c 00000001 03 00000002 82 00 | CONNECTION_ERROR PROTOCOL_ERROR: PUSH_PROMISE padding of 3 octets exceeds the 2 left",
        // PING
        "PING on stream 1 | 000008 06 00 00000001 0000000000000000 | CONNECTION_ERROR PROTOCOL_ERROR: PING frame on stream 1, not 0",
        "PING of 7 octets | 000007 06 00 00000000 00000000000000 | CONNECTION_ERROR FRAME_SIZE_ERROR: PING frame of 7 octets, not 8",
        "PING of 9 octets | 000009 06 00 00000000 000000000000000000 | CONNECTION_ERROR FRAME_SIZE_ERROR: PING frame of 9 octets, not 8",
        // GOAWAY
        "GOAWAY on stream 1 | 000008 07 00 00000001 0000000000000000 | CONNECTION_ERROR PROTOCOL_ERROR: GOAWAY frame on stream 1, not 0",
        "GOAWAY of 7 octets | 000007 07 00 00000000 00000000000000 | CONNECTION_ERROR FRAME_SIZE_ERROR: GOAWAY frame of 7 octets, shorter than its 8 mandatory",
        // WINDOW_UPDATE
        "WINDOW_UPDATE of 3 octets | 000003 08 00 00000001 000001 | CONNECTION_ERROR FRAME_SIZE_ERROR: WINDOW_UPDATE frame of 3 octets, not 4",
        "WINDOW_UPDATE of 5 octets | 000005 08 00 00000000 0000000100 | CONNECTION_ERROR FRAME_SIZE_ERROR: WINDOW_UPDATE frame of 5 octets, not 4",
        "WINDOW_UPDATE of 0 for the connection | 000004 08 00 00000000 00000000 | CONNECTION_ERROR PROTOCOL_ERROR: WINDOW_UPDATE with an increment of 0",
        "WINDOW_UPDATE of 0 for a stream | 000004 08 00 00000005 80000000 | STREAM_ERROR 5 PROTOCOL_ERROR: WINDOW_UPDATE with an increment of 0",
        // CONTINUATION and header blocks
        "CONTINUATION without HEADERS | 000001 09 04 00000001 82 | CONNECTION_ERROR PROTOCOL_ERROR: CONTINUATION frame without a HEADERS or PUSH_PROMISE frame before it",
        "CONTINUATION on stream 0 | 000001 09 04 00000000 82 | CONNECTION_ERROR PROTOCOL_ERROR: CONTINUATION frame on stream 0",
        "PING inside a header block | 000001 01 00 00000001 82 000008 06 00 00000000 0000000000000000 | CONNECTION_ERROR PROTOCOL_ERROR: PING frame on stream 0 inside the header block of stream 1",
        "DATA inside a header block | 000001 01 00 00000001 82 000001 00 00 00000001 61 | CONNECTION_ERROR PROTOCOL_ERROR: DATA frame on stream 1 inside the header block of stream 1",
        "HEADERS inside a header block | 000001 01 00 00000001 82 000001 01 04 00000003 82 | CONNECTION_ERROR PROTOCOL_ERROR: HEADERS frame on stream 3 inside the header block of stream 1",
        "CONTINUATION of another stream | 000001 01 00 00000001 82 000001 09 04 00000003 84 | CONNECTION_ERROR PROTOCOL_ERROR: CONTINUATION frame on stream 3 inside the header block of stream 1",
        "unknown frame inside a header block | 000001 01 00 00000001 82 000000 2a 00 00000001 | CONNECTION_ERROR PROTOCOL_ERROR: frame of unknown type 42 on stream 1 inside the header block of stream 1",
        "CONTINUATION with a bad block end | 000001 01 00 00000001 82 000001 09 04 00000001 7f | CONNECTION_ERROR COMPRESSION_ERROR: header block ends inside",
        "unknown type over SETTINGS_MAX_FRAME_SIZE | 004001 2a 00 00000000 | CONNECTION_ERROR FRAME_SIZE_ERROR: frame of 16385 octets exceeds",
    })
    void hostileFrameIsTheRightError(String name, String hex, String expected) {
        byte[] bytes = Hex.bytes(ParserDriver.SETTINGS + hex + PING);
        List<String> whole = parse(bytes, false, new int[0]);
        String error = whole.get(whole.size() - (expected.startsWith("STREAM_ERROR") ? 2 : 1));
        assertTrue(error.startsWith(expected), error);
        if (expected.startsWith("STREAM_ERROR")) {
            assertEquals("PING 102030405060708", whole.get(whole.size() - 1), "parsing goes on after a stream error");
        } else {
            assertTrue(error.contains("(RFC "), "the reason names the rule: " + error);
        }

        for (boolean direct : new boolean[] {false, true}) {
            for (int cut = 1; cut < bytes.length; cut++) {
                assertEquals(whole, parse(bytes, direct, new int[] {cut}), "cut at " + cut);
            }
            ParserDriver byteByByte = new ParserDriver(leaks.pool(), false);
            byteByByte.feedByteByByte(bytes, direct);
            assertEquals(whole, byteByByte.listener.events(), "one byte at a time");
        }
    }

    private List<String> parse(byte[] bytes, boolean direct, int[] cuts) {
        ParserDriver driver = new ParserDriver(leaks.pool(), false);
        boolean good = driver.feed(bytes, direct, cuts);
        assertEquals(good, driver.listener.connectionErrors == 0);
        assertTrue(driver.listener.connectionErrors <= 1, "at most one connection error");
        if (!good) {
            assertEquals(FrameParser.State.FAILED, driver.parser.getState());
            assertFalse(driver.feed(Hex.bytes(PING), direct), "a failed parser ignores later bytes");
        }
        driver.parser.close();
        return driver.listener.events();
    }
}
