package io.wharf.util.buffer;

import io.wharf.testing.LeakTracking;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Parameter;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.RegisterExtension;

class LeakTrackingTest {

    /** The extension in use, on this class's own tests: they release everything and pass. */
    @RegisterExtension
    final LeakTracking registered = new LeakTracking();

    @Test
    void registeredExtensionHandsOutATrackingPool() {
        RetainableByteBuffer buffer = registered.pool().acquire(100, false);
        buffer.retain();
        buffer.release();
        buffer.release();
    }

    @Test
    void releaseOnAnotherThreadAfterTheTestEndsIsWaitedFor() {
        RetainableByteBuffer buffer = registered.pool().acquire(100, true);
        Thread late = new Thread(() -> {
            sleep(150);
            buffer.release();
        });
        late.start();
    }

    @Test
    void verifyFailsWithTheLeakAndTheAcquiringTestMethod() {
        LeakTracking tracking = new LeakTracking();
        RetainableByteBuffer leaked = tracking.pool().acquire(300, false);
        AssertionError failure = assertThrows(AssertionError.class, () -> tracking.verify(Duration.ofMillis(50)));
        String report = failure.getMessage();
        assertTrue(report.contains("1 leaked buffer(s)"), report);
        assertTrue(report.contains("heap buffer of 300 bytes (capacity 1024)"), report);
        assertTrue(report.contains("verifyFailsWithTheLeakAndTheAcquiringTestMethod"), report);
        assertEquals(0, tracking.pool().outstanding(), "the next test starts clean");
        tracking.verify(Duration.ZERO);
        leaked.release();
    }

    @Test
    void verifyFailsOnAnOverReleaseTheCodeSwallowed() {
        LeakTracking tracking = new LeakTracking();
        RetainableByteBuffer buffer = tracking.pool().acquire(10, false);
        buffer.release();
        try {
            buffer.release();
        } catch (IllegalStateException swallowed) {
            // What careless code under test might do.
        }
        String report = assertThrows(AssertionError.class, () -> tracking.verify(Duration.ZERO)).getMessage();
        assertTrue(report.contains("over-release"), report);
    }

    @Test
    void verifyWaitsForLaggingReleases() {
        LeakTracking tracking = new LeakTracking();
        RetainableByteBuffer buffer = tracking.pool().acquire(10, false);
        Thread late = new Thread(() -> {
            sleep(100);
            buffer.release();
        });
        late.start();
        tracking.verify(Duration.ofSeconds(10));
    }

    @Test
    void afterEachFailsALeakingTestAndPassesACleanOne() {
        LeakTracking tracking = new LeakTracking(new LeakTrackingByteBufferPool(ByteBufferPool.NON_POOLING), Duration.ofMillis(50));
        RetainableByteBuffer leaked = tracking.pool().acquire(10, true);
        AssertionError failure = assertThrows(AssertionError.class, () -> tracking.afterEach(context(Optional.empty())));
        assertTrue(failure.getMessage().contains("direct buffer of 10 bytes"), failure.getMessage());

        tracking.pool().acquire(10, true).release();
        tracking.afterEach(context(Optional.empty()));
        leaked.release();
    }

    @Test
    void afterEachDoesNotWaitWhenTheTestAlreadyFailed() {
        LeakTracking tracking = new LeakTracking(new LeakTrackingByteBufferPool(), Duration.ofSeconds(30));
        tracking.pool().acquire(10, false);
        long start = System.nanoTime();
        assertThrows(AssertionError.class, () -> tracking.afterEach(context(Optional.of(new RuntimeException("test failed")))));
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "did not wait out the grace");
    }

    @SuppressWarnings("unused")
    private static void sample(LeakTrackingByteBufferPool tracking, ByteBufferPool pool, BucketedByteBufferPool bucketed, String text) {
    }

    @Test
    void resolvesOnlyPoolParameters() throws Exception {
        LeakTracking tracking = new LeakTracking();
        Parameter[] parameters = LeakTrackingTest.class.getDeclaredMethod("sample", LeakTrackingByteBufferPool.class, ByteBufferPool.class,
            BucketedByteBufferPool.class, String.class).getParameters();
        boolean[] expected = {true, true, false, false};
        for (int i = 0; i < parameters.length; i++) {
            ParameterContext parameter = parameterContext(parameters[i]);
            assertEquals(expected[i], tracking.supportsParameter(parameter, null), parameters[i].toString());
        }
        assertSame(tracking.pool(), tracking.resolveParameter(parameterContext(parameters[0]), null));
    }

    private static ParameterContext parameterContext(Parameter parameter) {
        return (ParameterContext) Proxy.newProxyInstance(ParameterContext.class.getClassLoader(), new Class<?>[] {ParameterContext.class},
            (proxy, method, arguments) -> switch (method.getName()) {
                case "getParameter" -> parameter;
                case "toString" -> "parameter context";
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    /** An extension context that answers only what {@link LeakTracking#afterEach} asks. */
    private static ExtensionContext context(Optional<Throwable> failure) {
        return (ExtensionContext) Proxy.newProxyInstance(ExtensionContext.class.getClassLoader(), new Class<?>[] {ExtensionContext.class},
            (proxy, method, arguments) -> switch (method.getName()) {
                case "getExecutionException" -> failure;
                case "toString" -> "test context";
                default -> throw new UnsupportedOperationException(method.getName());
            });
    }

    private static void sleep(long millis) {
        try {
            TimeUnit.MILLISECONDS.sleep(millis);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }
}
