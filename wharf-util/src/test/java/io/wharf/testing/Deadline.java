package io.wharf.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Test helper: waits for a condition with a deadline instead of a fixed sleep. */
public final class Deadline {

    private Deadline() {
    }

    /**
     * Polls {@code condition} until it holds.
     *
     * @throws AssertionError when it does not hold within {@code timeout}
     */
    public static void await(BooleanSupplier condition, Duration timeout) {
        long end = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > end) {
                throw new AssertionError("condition not met within " + timeout.toMillis() + " ms");
            }
            try {
                Thread.sleep(5);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted", x);
            }
        }
    }
}
