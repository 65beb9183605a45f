package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.http2.session.FloodBudgets.Flood;

import org.junit.jupiter.api.Test;

/** {@link FloodBudgets} on a clock of the test's: each named budget runs out and refills on its own. */
class FloodBudgetsTest {

    private final AtomicLong now = new AtomicLong(1_000);

    @Test
    void eachFloodAllowsItsConfiguredCountPerSecondThenRefuses() {
        SessionConfiguration config = new SessionConfiguration().setResetBudget(3).setSettingsBudget(4).setPingBudget(5)
                .setEmptyDataBudget(6).setPriorityBudget(7).setUnknownFrameBudget(8);
        FloodBudgets budgets = new FloodBudgets(config, now::get);
        int max = 3;
        for (Flood flood : Flood.values()) {
            for (int i = 0; i < max; i++) {
                assertTrue(budgets.spend(flood), flood + " #" + i);
            }
            assertFalse(budgets.spend(flood), flood + " past its budget");
            assertFalse(budgets.spend(flood), flood + " stays spent within the second");
            max++;
        }
        assertEquals("more than 3 resets per second", budgets.exceeded(Flood.RESETS));
        assertEquals("more than 5 PING frames per second", budgets.exceeded(Flood.PINGS));
        assertEquals("more than 8 unknown frames per second", budgets.exceeded(Flood.UNKNOWN_FRAMES));
    }

    @Test
    void aSpentBudgetRefillsOnceItsSecondIsOverAndNotBefore() {
        FloodBudgets budgets = new FloodBudgets(new SessionConfiguration().setPingBudget(2), now::get);
        assertTrue(budgets.spend(Flood.PINGS));
        assertTrue(budgets.spend(Flood.PINGS));
        assertFalse(budgets.spend(Flood.PINGS));
        now.addAndGet(TimeUnit.SECONDS.toNanos(1));
        assertFalse(budgets.spend(Flood.PINGS), "one second exactly is still the same period");
        now.incrementAndGet();
        assertTrue(budgets.spend(Flood.PINGS), "a new period starts afresh");
        assertTrue(budgets.spend(Flood.PINGS));
        assertFalse(budgets.spend(Flood.PINGS));
    }

    @Test
    void budgetsAreIndependentAndZeroIsNoLimit() {
        FloodBudgets budgets = new FloodBudgets(new SessionConfiguration().setResetBudget(1).setPriorityBudget(0), now::get);
        assertTrue(budgets.spend(Flood.RESETS));
        assertFalse(budgets.spend(Flood.RESETS));
        assertTrue(budgets.spend(Flood.PINGS), "another flood's budget is untouched");
        for (int i = 0; i < 10_000; i++) {
            assertTrue(budgets.spend(Flood.PRIORITIES));
        }
    }

    @Test
    void theDefaultsAreTheConfigurationsDefaults() {
        SessionConfiguration config = new SessionConfiguration();
        FloodBudgets budgets = new FloodBudgets(config, now::get);
        assertEquals("more than " + config.getResetBudget() + " resets per second", budgets.exceeded(Flood.RESETS));
        assertEquals("more than " + config.getSettingsBudget() + " SETTINGS frames per second", budgets.exceeded(Flood.SETTINGS));
        assertEquals("more than " + config.getEmptyDataBudget() + " empty DATA frames per second", budgets.exceeded(Flood.EMPTY_DATA));
        assertEquals("more than " + config.getPriorityBudget() + " PRIORITY frames per second", budgets.exceeded(Flood.PRIORITIES));
    }
}
