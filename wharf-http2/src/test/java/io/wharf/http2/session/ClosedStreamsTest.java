package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The ring of lately closed streams: what it remembers, for how long, and the reset flag that sticks. */
class ClosedStreamsTest {

    @Test
    void remembersTheLastClosesAndWhichWereResetByUs() {
        ClosedStreams closed = new ClosedStreams(4);
        closed.add(1, false);
        closed.add(3, true);
        closed.add(5, false);
        assertTrue(closed.contains(1));
        assertFalse(closed.resetByUs(1));
        assertTrue(closed.resetByUs(3));
        assertFalse(closed.contains(7));
        // A reset once recorded stays, whichever comes first.
        closed.add(5, true);
        closed.add(5, false);
        assertTrue(closed.resetByUs(5));
        // Adding again does not take a place: 1 is still there after two more.
        closed.add(7, false);
        assertTrue(closed.contains(1));
        closed.add(9, false);
        assertFalse(closed.contains(1), "the oldest went");
        assertTrue(closed.contains(3) && closed.contains(5) && closed.contains(7) && closed.contains(9));
        for (int id = 11; id < 11 + 2 * 1000; id += 2) {
            closed.add(id, id % 3 == 0);
        }
        assertFalse(closed.contains(9));
        assertTrue(closed.contains(2009) && closed.contains(2003));
        assertTrue(closed.resetByUs(2007), "2007 is a multiple of 3");
        assertFalse(closed.resetByUs(2005));
        assertFalse(closed.contains(2001), "only the last four are kept");
    }
}
