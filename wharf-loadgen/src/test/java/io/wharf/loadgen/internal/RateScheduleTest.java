package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class RateScheduleTest {

    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void dueTimesAreEvenlySpacedFromTheStart() {
        RateSchedule schedule = new RateSchedule(2_000, 0);
        assertEquals(0, schedule.offsetNanos(0));
        assertEquals(500_000, schedule.offsetNanos(1));
        assertEquals(5 * SECOND, schedule.offsetNanos(10_000));
        assertEquals(10_000, schedule.iterationsBefore(5 * SECOND));
        assertEquals(10_001, schedule.iterationsBefore(5 * SECOND + 1));
        assertEquals(0, schedule.iterationsBefore(0));
    }

    @Test
    void rampUpGrowsTheRateLinearlyThenHoldsIt() {
        // 1,000/s reached after 2 s: 1,000 iterations during the ramp, then 1,000 per second.
        RateSchedule schedule = new RateSchedule(1_000, 2 * SECOND);
        assertEquals(1_000, schedule.iterationsBefore(2 * SECOND), 1);
        assertEquals(250, schedule.iterationsBefore(SECOND), 1); // r·t²/(2T) = 1000·1/4
        assertEquals(2_000, schedule.iterationsBefore(3 * SECOND), 1);
        long earlyGap = schedule.offsetNanos(11) - schedule.offsetNanos(10); // at 0.2 s the rate is 100/s
        long lateGap = schedule.offsetNanos(2_501) - schedule.offsetNanos(2_500);
        assertTrue(earlyGap > 5 * lateGap, "sparse at first: " + earlyGap + " vs " + lateGap);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(1), lateGap, 1);
    }

    @Test
    void offsetsNeverDecrease() {
        RateSchedule schedule = new RateSchedule(7_777.7, 3 * SECOND);
        long last = -1;
        for (long n = 0; n < 50_000; n++) {
            long offset = schedule.offsetNanos(n);
            assertTrue(offset >= last, "iteration " + n);
            last = offset;
        }
    }

    @Test
    void refusesANonPositiveRate() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> new RateSchedule(0, 0));
        assertTrue(failure.getMessage().contains("rate"), failure.getMessage());
    }
}
