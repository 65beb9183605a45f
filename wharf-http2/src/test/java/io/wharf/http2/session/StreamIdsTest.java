package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wharf.http2.session.StreamIds.Opening;

import org.junit.jupiter.api.Test;

/** {@link StreamIds} alone: identifier parity, monotony, idle and closed streams, limits (RFC 9113 sections 5.1 to 5.1.2). */
class StreamIdsTest {

    @Test
    void aClientOpensOddIdentifiersAndAServerEvenOnes() {
        StreamIds client = new StreamIds(false, 100);
        assertEquals(1, client.openLocal());
        assertEquals(3, client.openLocal());
        assertTrue(client.isRemote(2) && !client.isRemote(5));
        StreamIds server = new StreamIds(true, 100);
        assertEquals(2, server.openPush());
        assertEquals(4, server.openLocal());
        assertTrue(server.isRemote(1) && !server.isRemote(2));
    }

    @Test
    void thePeersIdentifiersOnlyGoUpAndSkippedOnesAreClosed() {
        StreamIds server = new StreamIds(true, 100);
        assertEquals(Opening.NEW, server.onHeaders(5));
        assertEquals(5, server.lastRemote());
        assertFalse(server.isIdle(3), "stream 3, skipped, is closed (RFC 9113 section 5.1.1)");
        assertTrue(server.isIdle(7));
        assertEquals(Opening.NOT_ABOVE_LAST, server.onHeaders(3));
        assertEquals(Opening.NOT_ABOVE_LAST, server.onHeaders(5), "still held: the session would have found it");
        assertEquals(5, server.lastRemote(), "a refused identifier changes nothing");
        assertEquals(Opening.NEW, server.onHeaders(7));
    }

    @Test
    void aHeaderBlockOnOneOfOurIdentifiersIsNotThePeersToOpenUnlessItClosed() {
        StreamIds server = new StreamIds(true, 100);
        assertEquals(Opening.NOT_PEERS, server.onHeaders(2));
        assertEquals(2, server.openPush());
        server.closed(2);
        assertEquals(Opening.CLOSED, server.onHeaders(2));
        server.resetByUs(2);
        assertEquals(Opening.IGNORED, server.onHeaders(2), "in flight after our RST_STREAM");
        assertEquals(0, server.lastRemote());
    }

    @Test
    void aClosedStreamIsToldFromOneWeResetWhileRemembered() {
        StreamIds server = new StreamIds(true, 100);
        server.onHeaders(1);
        server.remoteOpened();
        server.onHeaders(3);
        server.remoteOpened();
        server.closed(1);
        server.closed(3);
        server.resetByUs(3);
        assertEquals(Opening.CLOSED, server.onHeaders(1));
        assertFalse(server.wasResetByUs(1));
        assertEquals(Opening.IGNORED, server.onHeaders(3));
        assertTrue(server.wasResetByUs(3));
        for (int id = 5; id < 5 + 2 * StreamIds.RECENTLY_CLOSED; id += 2) {
            server.onHeaders(id);
            server.remoteOpened();
            server.closed(id);
        }
        assertEquals(Opening.NOT_ABOVE_LAST, server.onHeaders(3), "forgotten once older than the ones remembered");
        assertFalse(server.wasResetByUs(3));
    }

    @Test
    void thePeerMayHaveNoMoreStreamsOpenThanOurLimit() {
        StreamIds server = new StreamIds(true, 2);
        server.onHeaders(1);
        server.remoteOpened();
        assertFalse(server.remoteAtLimit());
        server.onHeaders(3);
        server.remoteOpened();
        assertTrue(server.remoteAtLimit());
        server.closed(1);
        assertFalse(server.remoteAtLimit(), "a closed stream frees its place");
    }

    @Test
    void pushesStayWithinThePeersLimitAndOurs() {
        StreamIds server = new StreamIds(true, 3);
        server.peerLimit(1);
        assertEquals(2, server.openPush());
        assertEquals(0, server.openPush(), "the peer allows one");
        server.peerLimit(10);
        assertEquals(4, server.openPush());
        assertEquals(6, server.openPush());
        assertEquals(0, server.openPush(), "our own limit of 3");
        server.closed(4);
        assertEquals(8, server.openPush());
        server.peerLimit(0);
        server.closed(2);
        assertEquals(0, server.openPush(), "a limit of 0 forbids any");
    }

    @Test
    void theIdentifiersRunOutAt2To31Minus1() {
        StreamIds client = new StreamIds(false, 100, Integer.MAX_VALUE - 4);
        assertEquals(Integer.MAX_VALUE - 2, client.openLocal());
        assertEquals(Integer.MAX_VALUE, client.openLocal());
        assertEquals(0, client.openLocal(), "no identifier is left");
        StreamIds server = new StreamIds(true, 100, Integer.MAX_VALUE - 3);
        assertEquals(Integer.MAX_VALUE - 1, server.openPush());
        assertEquals(0, server.openPush());
        assertEquals(0, server.openLocal());
    }

    @Test
    void thePeerUsingAnIdentifierClosesTheIdleOnesBelowIt() {
        StreamIds client = new StreamIds(false, 100);
        client.remoteUsed(6);
        assertEquals(6, client.lastRemote());
        assertFalse(client.isIdle(4));
        client.remoteUsed(4);
        client.remoteUsed(9);
        assertEquals(6, client.lastRemote(), "lower ones, and ours, change nothing");
        assertFalse(client.isNewRemote(6));
        assertFalse(client.isNewRemote(9));
        assertTrue(client.isNewRemote(8));
    }

    @Test
    void anUpgradeOpensStreamOneOnlyFirst() {
        StreamIds server = new StreamIds(true, 1);
        server.upgraded();
        assertEquals(1, server.lastRemote());
        assertTrue(server.remoteAtLimit(), "stream 1 counts against the limit");
        assertThrows(IllegalStateException.class, server::upgraded);
        StreamIds busy = new StreamIds(true, 100);
        busy.onHeaders(3);
        assertThrows(IllegalStateException.class, busy::upgraded);
    }
}
