package io.wharf.util.thread;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Test helper: polls a condition until it holds or a deadline passes, instead of sleeping a fixed time. */
final class Eventually {

    static final Duration DEADLINE = Duration.ofSeconds(10);

    private Eventually() {
    }

    /** Fails with {@code message} unless {@code condition} holds within {@link #DEADLINE}. */
    static void assertEventually(BooleanSupplier condition, Supplier<String> message) {
        assertEventually(DEADLINE, condition, message);
    }

    static void assertEventually(Duration deadline, BooleanSupplier condition, Supplier<String> message) {
        long end = System.nanoTime() + deadline.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("not within " + deadline + ": " + message.get());
            }
            try {
                Thread.sleep(2);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                fail("interrupted while waiting: " + message.get());
            }
        }
    }
}
