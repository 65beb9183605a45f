package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** {@link FlowControl} alone, no session and no sockets: the window rules of RFC 9113 section 6.9. */
class FlowControlTest {

    private static final int MAX = Integer.MAX_VALUE;

    private final FlowControl flow = new FlowControl(FlowControlStrategy.threshold(0.5), 65_535, 65_535);

    @Test
    void dataBeyondTheConnectionWindowIsRefusedAtTheFirstOctetPastIt() {
        assertTrue(flow.receive(65_000));
        assertTrue(flow.receive(535));
        assertEquals(0, flow.connection().receive);
        assertFalse(flow.receive(1), "one octet past the window");
    }

    @Test
    void dataBeyondAStreamWindowIsRefusedWhileTheConnectionHoldsIt() {
        FlowControl wide = new FlowControl(FlowControlStrategy.threshold(0.5), 1 << 20, 16_384);
        FlowWindow stream = new FlowWindow(65_535, wide.streamReceiveWindow(true));
        assertTrue(wide.receive(20_000));
        assertFalse(wide.receive(stream, 20_000), "the stream's 16,384 octets are passed");
    }

    @Test
    void aConnectionWindowUpdateUpTo2To31Minus1HoldsAndOneOctetMoreOverflows() {
        assertTrue(flow.grant(MAX - 65_535));
        assertEquals(MAX, flow.connection().send);
        assertFalse(flow.grant(1), "2^31 octets overflow (RFC 9113 section 6.9.1)");
    }

    @Test
    void aStreamWindowUpdateUpTo2To31Minus1HoldsAndOneOctetMoreOverflows() {
        FlowWindow stream = new FlowWindow(65_535, flow.streamReceiveWindow(true));
        assertTrue(flow.grant(stream, MAX - 65_535));
        assertFalse(flow.grant(stream, 1));
        FlowWindow other = new FlowWindow(0, flow.streamReceiveWindow(true));
        assertTrue(flow.grant(other, MAX), "a window of 0 takes the largest increment");
    }

    @Test
    void aNewInitialWindowShiftsOpenStreamsBelowZeroAndBackAndOverflowsPast2To31Minus1() {
        FlowWindow stream = new FlowWindow(65_535, flow.streamReceiveWindow(true));
        flow.sent(stream, 60_000);
        // The peer lowers SETTINGS_INITIAL_WINDOW_SIZE from 65,535 to 16,384 (RFC 9113 section 6.9.2).
        assertTrue(flow.shift(stream, 16_384 - 65_535));
        assertEquals(16_384 - 60_000, stream.send, "the window goes negative");
        assertTrue(flow.sendable(stream, 100) <= 0, "nothing may go while it is negative");
        assertTrue(flow.grant(stream, 60_000));
        assertEquals(16_384, stream.send);
        FlowWindow full = new FlowWindow(MAX - 10, flow.streamReceiveWindow(true));
        assertFalse(flow.shift(full, 11), "the change takes a stream past 2^31 - 1");
    }

    @Test
    void whatMayBeSentIsBoundByBothWindows() {
        FlowWindow stream = new FlowWindow(1 << 20, flow.streamReceiveWindow(true));
        assertEquals(65_535, flow.sendable(stream, 100_000), "the connection's window bounds it");
        flow.sent(stream, 65_535);
        assertEquals(0, flow.sendable(stream, 1));
        assertTrue(flow.grant(100));
        assertEquals(100, flow.sendable(stream, 1_000));
        FlowWindow narrow = new FlowWindow(10, flow.streamReceiveWindow(true));
        assertEquals(10, flow.sendable(narrow, 1_000), "the stream's window bounds it");
        assertEquals(5, flow.sendable(narrow, 5), "no more than is wanted");
    }

    @Test
    void consumedContentIsCreditedOncePastTheStrategysShare() {
        FlowWindow stream = new FlowWindow(65_535, flow.streamReceiveWindow(true));
        assertTrue(flow.receive(stream, 40_000));
        assertEquals(0, flow.credit(stream, 30_000, true), "under half the window: no update yet");
        assertEquals(33_000, flow.credit(stream, 3_000, true), "past half: everything consumed goes back");
        assertEquals(65_535 - 40_000 + 33_000, stream.receive);
        assertEquals(0, stream.unacknowledged);
        assertEquals(0, flow.credit(30_000));
        assertEquals(33_000, flow.credit(3_000));
        assertEquals(0, flow.connection().unacknowledged);
    }

    @Test
    void aStreamThePeerCanNoLongerSendOnGetsNoUpdate() {
        FlowWindow stream = new FlowWindow(65_535, flow.streamReceiveWindow(true));
        assertEquals(0, flow.credit(stream, 60_000, false));
        assertEquals(60_000, stream.unacknowledged, "counted still");
    }

    @Test
    void paddingGoesToTheStreamsNextUpdateAndToTheConnectionByTheStrategy() {
        FlowWindow stream = new FlowWindow(65_535, flow.streamReceiveWindow(true));
        assertEquals(0, flow.padding(stream, 255));
        assertEquals(255, stream.unacknowledged);
        FlowControl eager = new FlowControl(FlowControlStrategy.EVERY_READ, 65_535, 65_535);
        assertEquals(255, eager.padding(new FlowWindow(65_535, eager.streamReceiveWindow(true)), 255));
    }

    @Test
    void aSmallerWindowOfOursAppliesOnlyOnceThePeerAcknowledgedIt() {
        FlowControl small = new FlowControl(FlowControlStrategy.threshold(0.5), 65_535, 16_384);
        assertEquals(65_535, new FlowWindow(65_535, small.streamReceiveWindow(false)).receive, "the peer may count on the default until it acknowledged");
        assertEquals(16_384, new FlowWindow(65_535, small.streamReceiveWindow(true)).receive);
        assertEquals(65_535 - 16_384, small.shrinkOnAcknowledgement());
        FlowWindow open = new FlowWindow(65_535, small.streamReceiveWindow(false));
        small.shrink(open, small.shrinkOnAcknowledgement());
        assertEquals(16_384, open.receive);
        FlowControl large = new FlowControl(FlowControlStrategy.threshold(0.5), 65_535, 1 << 20);
        assertEquals(1 << 20, new FlowWindow(65_535, large.streamReceiveWindow(false)).receive, "a larger window applies at once");
        assertEquals(0, large.shrinkOnAcknowledgement());
    }

    @Test
    void aLargerConnectionWindowIsAnnouncedByOneFirstUpdate() {
        assertEquals(0, flow.initialConnectionIncrement());
        FlowControl wide = new FlowControl(FlowControlStrategy.threshold(0.5), 1 << 24, 65_535);
        assertEquals((1 << 24) - 65_535, wide.initialConnectionIncrement());
        assertEquals(65_535, wide.connection().send, "our window does not change what we may send");
        assertEquals(1 << 24, wide.connection().receive);
    }
}
