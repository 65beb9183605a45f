package io.wharf.testing;

import java.time.Duration;
import java.util.Objects;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * A JUnit 5 extension that runs each test with a {@link LeakTrackingByteBufferPool} and fails
 * the test when a buffer it handed out was not released, or was released once too often.
 *
 * <p>Shared with the other modules through wharf-util's test-jar. Either register an instance
 * and hand its {@link #pool()} to the code under test:
 * <pre>{@code
 * @RegisterExtension
 * final LeakTracking leaks = new LeakTracking();
 *
 * @Test
 * void echo() {
 *     Server server = new Server(leaks.pool());
 *     ...
 * }
 * }</pre>
 * or put {@code @ExtendWith(LeakTracking.class)} on the class and take a
 * {@link LeakTrackingByteBufferPool} or {@link ByteBufferPool} parameter.
 *
 * <p>After each test, and after the test's own {@code @AfterEach} methods (which may stop
 * servers and so release buffers), it waits up to {@link #DEFAULT_GRACE} for releases still
 * on their way from other threads, then asserts, then resets the pool for the next test.
 * When the test already failed it does not wait. One extension instance serves the tests of
 * its class one at a time; tests that run concurrently need an instance each.
 */
@SuppressWarnings("exports") // Compiled into the patched module, JUnit's types show in this test helper's API.
public final class LeakTracking implements AfterEachCallback, ParameterResolver {

    /** How long to wait for releases that lag behind the end of a test. */
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(2);

    private final LeakTrackingByteBufferPool pool;
    private final Duration grace;

    /** Tracks a new default {@link BucketedByteBufferPool}. */
    public LeakTracking() {
        this(new LeakTrackingByteBufferPool(), DEFAULT_GRACE);
    }

    /** Tracks the buffers of {@code delegate}. */
    public LeakTracking(ByteBufferPool delegate) {
        this(new LeakTrackingByteBufferPool(delegate), DEFAULT_GRACE);
    }

    /**
     * @param pool the tracking pool the tests use
     * @param grace how long to wait for lagging releases after a test
     */
    public LeakTracking(LeakTrackingByteBufferPool pool, Duration grace) {
        this.pool = Objects.requireNonNull(pool, "pool");
        this.grace = Objects.requireNonNull(grace, "grace");
    }

    /** @return the pool to hand to the code under test; the same one for every test of this instance */
    public LeakTrackingByteBufferPool pool() {
        return pool;
    }

    /**
     * The check run after each test: waits up to {@code wait} for every buffer to be freed,
     * then forgets them all so that the next test starts clean.
     *
     * @throws AssertionError naming every leaked buffer with its acquire stack, and every misuse
     */
    public void verify(Duration wait) {
        try {
            pool.assertNoLeaks(wait);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            pool.assertNoLeaks();
        } finally {
            pool.reset();
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        verify(context.getExecutionException().isPresent() ? Duration.ZERO : grace);
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        Class<?> type = parameter.getParameter().getType();
        return type == LeakTrackingByteBufferPool.class || type == ByteBufferPool.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return pool;
    }

    @Override
    public String toString() {
        return "LeakTracking[" + pool + "]";
    }
}
