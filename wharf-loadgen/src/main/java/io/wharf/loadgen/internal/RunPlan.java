package io.wharf.loadgen.internal;

/**
 * Which iterations of the open model are due and when: the {@link RateSchedule} anchored at the
 * run's start, the warm-up iterations first, then the measured ones until their count or the
 * measured duration (counted from the first measured iteration's due time) is reached.
 * Immutable; any thread.
 *
 * @param schedule the due times
 * @param startNanos the run's start on {@link System#nanoTime()}'s scale
 * @param threads sending threads
 * @param usersPerThread users of each
 * @param warmupIterations iterations not measured
 * @param measuredIterations measured iterations, or 0 to run for {@code durationNanos}
 * @param durationNanos the measured part, when no count is set
 */
record RunPlan(RateSchedule schedule, long startNanos, int threads, int usersPerThread, long warmupIterations,
        long measuredIterations, long durationNanos) {

    /** @return the plan of {@code settings} starting at {@code startNanos} */
    static RunPlan of(Settings settings, long startNanos) {
        return new RunPlan(new RateSchedule(settings.rate(), settings.rampUp().toNanos()), startNanos, settings.threads(),
                settings.usersPerThread(), settings.warmupIterations(), settings.iterations(), settings.duration().toNanos());
    }

    /** @return when iteration {@code n} should start */
    long intendedNanos(long n) {
        return startNanos + schedule.offsetNanos(n);
    }

    /** @return when the measured part starts: the due time of the first measured iteration */
    long measuredStartNanos() {
        return intendedNanos(warmupIterations);
    }

    /** @return whether iteration {@code n} belongs to the run */
    boolean isDue(long n) {
        if (measuredIterations > 0) {
            return n < warmupIterations + measuredIterations;
        }
        return schedule.offsetNanos(n) < schedule.offsetNanos(warmupIterations) + durationNanos;
    }

    /** @return how many measured iterations the schedule holds */
    long measuredCount() {
        if (measuredIterations > 0) {
            return measuredIterations;
        }
        return schedule.iterationsBefore(schedule.offsetNanos(warmupIterations) + durationNanos) - warmupIterations;
    }
}
