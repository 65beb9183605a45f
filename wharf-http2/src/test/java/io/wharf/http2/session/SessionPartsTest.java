package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** The small parts of the session: stream state transitions, budgets, flow-control strategies, configuration bounds. */
class SessionPartsTest {

    @Test
    void streamStatesFollowRfc9113Section5_1() {
        assertEquals(StreamState.HALF_CLOSED_REMOTE, StreamState.OPEN.remoteEnded());
        assertEquals(StreamState.HALF_CLOSED_LOCAL, StreamState.OPEN.localEnded());
        assertEquals(StreamState.CLOSED, StreamState.HALF_CLOSED_REMOTE.localEnded());
        assertEquals(StreamState.CLOSED, StreamState.HALF_CLOSED_LOCAL.remoteEnded());
        assertTrue(StreamState.OPEN.canReceive() && StreamState.OPEN.canSend());
        assertTrue(StreamState.HALF_CLOSED_LOCAL.canReceive() && !StreamState.HALF_CLOSED_LOCAL.canSend());
        assertTrue(!StreamState.HALF_CLOSED_REMOTE.canReceive() && StreamState.HALF_CLOSED_REMOTE.canSend());
        assertFalse(StreamState.CLOSED.canReceive() || StreamState.CLOSED.canSend());
    }

    @Test
    void aBudgetAllowsItsMaximumPerPeriodThenRefuses() throws Exception {
        RateBudget budget = new RateBudget("pings", 3, 200, TimeUnit.MILLISECONDS);
        assertTrue(budget.spend());
        assertTrue(budget.spend());
        assertTrue(budget.spend());
        assertFalse(budget.spend());
        Thread.sleep(250);
        assertTrue(budget.spend(), "a new period starts afresh");
    }

    @Test
    void aZeroBudgetIsNoLimit() {
        RateBudget budget = new RateBudget("resets", 0, 1, TimeUnit.SECONDS);
        for (int i = 0; i < 10_000; i++) {
            assertTrue(budget.spend());
        }
    }

    @Test
    void theThresholdStrategyUpdatesOncePastItsShareOfTheWindow() {
        FlowControlStrategy half = FlowControlStrategy.threshold(0.5);
        assertFalse(half.shouldUpdate(65_536, 32_767));
        assertTrue(half.shouldUpdate(65_536, 32_768));
        assertTrue(FlowControlStrategy.EVERY_READ.shouldUpdate(65_536, 1));
        assertThrows(IllegalArgumentException.class, () -> FlowControlStrategy.threshold(0));
        assertThrows(IllegalArgumentException.class, () -> FlowControlStrategy.threshold(1.5));
    }

    @Test
    void theConfigurationRefusesValuesHttp2DoesNotAllow() {
        SessionConfiguration config = new SessionConfiguration();
        assertThrows(IllegalArgumentException.class, () -> config.setMaxFrameSize(16_383));
        assertThrows(IllegalArgumentException.class, () -> config.setMaxFrameSize(1 << 24));
        assertThrows(IllegalArgumentException.class, () -> config.setInitialSessionWindow(65_534));
        assertThrows(IllegalArgumentException.class, () -> config.setMaxConcurrentStreams(0));
        assertEquals(1 << 20, config.setInitialStreamWindow(1 << 20).getInitialStreamWindow());
    }
}
