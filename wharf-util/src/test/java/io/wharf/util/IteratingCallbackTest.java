package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.util.IteratingCallback.Action;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class IteratingCallbackTest {

    private ExecutorService executor;

    @BeforeEach
    void startExecutor() {
        AtomicInteger threads = new AtomicInteger();
        executor = Executors.newFixedThreadPool(2, task -> new Thread(task, "step-" + threads.incrementAndGet()));
    }

    @AfterEach
    void stopExecutor() throws InterruptedException {
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(5, TimeUnit.SECONDS));
    }

    @Test
    void millionSynchronousStepsRunInALoopWithAConstantStack() {
        int total = 1_000_000;
        int[] depths = new int[2];
        int[] counts = new int[3];
        IteratingCallback callback = new IteratingCallback() {
            int steps;

            @Override
            protected Action process() {
                counts[0]++;
                if (steps == total) {
                    return Action.SUCCEEDED;
                }
                steps++;
                if (steps == 1 || steps == total) {
                    depths[steps == 1 ? 0 : 1] = new Throwable().getStackTrace().length;
                }
                succeeded();
                return Action.SCHEDULED;
            }

            @Override
            protected void onSuccess() {
                counts[1]++;
            }

            @Override
            protected void onCompleteSuccess() {
                counts[2]++;
            }
        };
        callback.iterate();

        assertTrue(callback.isSucceeded(), callback.toString());
        assertEquals(total + 1, counts[0], "process() calls");
        assertEquals(total, counts[1], "onSuccess() calls");
        assertEquals(1, counts[2], "onCompleteSuccess() calls");
        assertEquals(depths[0], depths[1], "the stack grew between the first and the last step");
    }

    @Test
    void asynchronousStepsResumeTheLoopOnTheCompletingThread() throws Exception {
        // The first step completes only after iterate() returned, so the loop must move to the executor.
        CountDownLatch iterateReturned = new CountDownLatch(1);
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            int steps;

            @Override
            Action step() {
                if (steps == 5) {
                    return Action.SUCCEEDED;
                }
                boolean first = steps++ == 0;
                executor.execute(() -> {
                    if (first) {
                        awaitLatch(iterateReturned);
                    }
                    succeeded();
                });
                return Action.SCHEDULED;
            }
        };
        callback.iterate();
        iterateReturned.countDown();

        assertTrue(callback.completed.await(5, TimeUnit.SECONDS));
        assertTrue(callback.isSucceeded());
        assertEquals(6, callback.processCalls.get());
        assertEquals(5, callback.successes.get());
        assertEquals(1, callback.completeSuccesses.get());
        assertEquals(Thread.currentThread().getName(), callback.processThreads.get(0));
        for (String thread : callback.processThreads.subList(1, 6)) {
            assertTrue(thread.startsWith("step-"), thread);
        }
        assertTrue(callback.completeThread.startsWith("step-"), callback.completeThread);
        assertEquals(List.of(), callback.violations);
    }

    @Test
    void idleWaitsForIterate() {
        Queue<String> queue = new ConcurrentLinkedQueue<>();
        Queue<String> written = new ConcurrentLinkedQueue<>();
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                String item = queue.poll();
                if (item == null) {
                    return Action.IDLE;
                }
                if (item.equals("end")) {
                    return Action.SUCCEEDED;
                }
                written.add(item);
                succeeded();
                return Action.SCHEDULED;
            }
        };
        callback.iterate();
        assertTrue(callback.isIdle());
        assertEquals(1, callback.processCalls.get());

        queue.add("a");
        queue.add("b");
        callback.iterate();
        assertTrue(callback.isIdle());
        assertEquals(List.of("a", "b"), List.copyOf(written));

        queue.add("end");
        callback.iterate();
        assertTrue(callback.isSucceeded());
        assertEquals(1, callback.completeSuccesses.get());
    }

    @Test
    void iterateWhileProcessingMakesTheLoopGoRoundAgain() throws Exception {
        Queue<String> queue = new ConcurrentLinkedQueue<>();
        CountDownLatch inProcess = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() throws Exception {
                String item = queue.poll();
                if (item != null) {
                    return Action.SUCCEEDED;
                }
                inProcess.countDown();
                assertTrue(release.await(5, TimeUnit.SECONDS));
                // The item offered meanwhile is not seen by this round.
                return Action.IDLE;
            }
        };
        Thread processor = new Thread(callback::iterate, "processor");
        processor.start();
        assertTrue(inProcess.await(5, TimeUnit.SECONDS));

        queue.add("item");
        callback.iterate();
        // iterate() returned at once without processing: the other thread is in process().
        assertEquals(1, callback.processCalls.get());
        assertTrue(callback.toString().contains("PROCESSING,iterateAgain"), callback.toString());

        release.countDown();
        processor.join(5000);
        assertTrue(callback.isSucceeded(), callback.toString());
        assertEquals(List.of("processor", "processor"), callback.processThreads);
    }

    @Test
    void iterateFromInsideProcessIsNotLost() {
        AtomicInteger rounds = new AtomicInteger();
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                if (rounds.incrementAndGet() < 3) {
                    iterate();
                    return Action.IDLE;
                }
                return Action.IDLE;
            }
        };
        callback.iterate();
        assertEquals(3, callback.processCalls.get());
        assertTrue(callback.isIdle());
    }

    @Test
    void successCompletesOnceAndLaterCallsAreIgnored() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            int steps;

            @Override
            Action step() {
                if (steps++ < 2) {
                    succeeded();
                    return Action.SCHEDULED;
                }
                return Action.SUCCEEDED;
            }
        };
        callback.iterate();
        callback.iterate();
        callback.failed(new IOException("late"));
        assertFalse(callback.abort(new IOException("late abort")));

        assertTrue(callback.isSucceeded());
        assertEquals(List.of("process", "onSuccess", "process", "onSuccess", "process", "onCompleteSuccess"), callback.events);
    }

    @Test
    void failedWhileProcessingCompletesAfterProcessReturns() throws Exception {
        CountDownLatch failedCalled = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        IOException cause = new IOException("write failed");
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() throws Exception {
                // The step fails on another thread before process() returns.
                executor.execute(() -> {
                    failed(cause);
                    failedCalled.countDown();
                });
                assertTrue(failedCalled.await(5, TimeUnit.SECONDS));
                events.add("failed() returned");
                assertTrue(release.await(5, TimeUnit.SECONDS));
                return Action.SCHEDULED;
            }
        };
        Thread processor = new Thread(callback::iterate, "processor");
        processor.start();
        assertTrue(failedCalled.await(5, TimeUnit.SECONDS));
        assertTrue(callback.isFailed());
        assertEquals(0, callback.completeFailures.get());

        release.countDown();
        processor.join(5000);
        assertEquals(List.of("process", "onFailure:write failed", "failed() returned", "onCompleteFailure:write failed"), callback.events);
        assertSame(cause, callback.completeFailureCause);
        assertEquals("processor", callback.completeThread);
        assertEquals(List.of(), callback.violations);
    }

    @Test
    void failedWhilePendingCompletesOnTheFailingThread() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                return Action.SCHEDULED;
            }
        };
        callback.iterate();
        assertFalse(callback.isIdle());
        assertTrue(callback.toString().contains("[PENDING]"), callback.toString());

        callback.failed(new IOException("reset by peer"));
        assertEquals(List.of("process", "onFailure:reset by peer", "onCompleteFailure:reset by peer"), callback.events);
        assertEquals(Thread.currentThread().getName(), callback.completeThread);
        assertTrue(callback.isFailed());

        // Later completions and iterations change nothing.
        callback.succeeded();
        callback.failed(new IOException("again"));
        callback.iterate();
        assertEquals(1, callback.processCalls.get());
        assertEquals(1, callback.completeFailures.get());
        assertEquals(1, callback.failures.get());
    }

    @Test
    void abortWhileProcessingWaitsForProcessAndForTheStepItScheduled() throws Exception {
        CountDownLatch inProcess = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Runnable> inFlight = new AtomicReference<>();
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() throws Exception {
                inFlight.set(this::succeeded);
                inProcess.countDown();
                assertTrue(release.await(5, TimeUnit.SECONDS));
                return Action.SCHEDULED;
            }
        };
        Thread processor = new Thread(callback::iterate, "processor");
        processor.start();
        assertTrue(inProcess.await(5, TimeUnit.SECONDS));

        IOException cause = new IOException("idle timeout");
        assertTrue(callback.abort(cause));
        assertFalse(callback.abort(new IOException("second")));
        assertTrue(callback.isAborted());
        // onFailure ran at once, on this thread, while process() still runs.
        assertEquals(List.of("process", "onFailure:idle timeout"), callback.events);

        release.countDown();
        processor.join(5000);
        // process() returned SCHEDULED: the step still uses its resources.
        assertEquals(0, callback.completeFailures.get());
        assertTrue(callback.toString().contains("ABORTED,stepPending"), callback.toString());

        inFlight.get().run();
        assertEquals(List.of("process", "onFailure:idle timeout", "onCompleteFailure:idle timeout"), callback.events);
        assertSame(cause, callback.completeFailureCause);
        assertEquals(Thread.currentThread().getName(), callback.completeThread);
        assertEquals(List.of(), callback.violations);
    }

    @Test
    void abortWhileProcessingCompletesWhenProcessReturnsIdle() throws Exception {
        CountDownLatch inProcess = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() throws Exception {
                inProcess.countDown();
                assertTrue(release.await(5, TimeUnit.SECONDS));
                return Action.IDLE;
            }
        };
        Thread processor = new Thread(callback::iterate, "processor");
        processor.start();
        assertTrue(inProcess.await(5, TimeUnit.SECONDS));
        assertTrue(callback.abort(new IOException("closing")));
        assertEquals(0, callback.completeFailures.get());

        release.countDown();
        processor.join(5000);
        assertEquals(1, callback.completeFailures.get());
        assertEquals("processor", callback.completeThread);
        assertEquals(List.of(), callback.violations);
    }

    @Test
    void abortAfterAStepSucceededInsideProcessCompletesWhenProcessReturns() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                succeeded();
                abort(new IOException("stop"));
                return Action.SCHEDULED;
            }
        };
        callback.iterate();
        // The step was over before the abort: nothing to wait for, and no onSuccess().
        assertEquals(List.of("process", "onFailure:stop", "onCompleteFailure:stop"), callback.events);
        assertTrue(callback.isAborted());
    }

    @Test
    void abortWhilePendingCompletesWhenTheStepCompletes() {
        AtomicReference<IteratingCallback> step = new AtomicReference<>();
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                step.set(this);
                return Action.SCHEDULED;
            }
        };
        callback.iterate();

        IOException cause = new IOException("connection closed");
        assertTrue(callback.abort(cause));
        assertTrue(callback.isAborted());
        assertEquals(List.of("process", "onFailure:connection closed"), callback.events);

        // The step then fails (or succeeds): now its resources are free.
        step.get().failed(new IOException("write aborted"));
        assertEquals(List.of("process", "onFailure:connection closed", "onCompleteFailure:connection closed"), callback.events);
        assertSame(cause, callback.completeFailureCause);

        callback.iterate();
        callback.succeeded();
        assertEquals(1, callback.processCalls.get());
        assertEquals(1, callback.completeFailures.get());
    }

    @Test
    void abortWhileIdleCompletesAtOnce() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                return Action.IDLE;
            }
        };
        callback.iterate();
        assertTrue(callback.abort(new IOException("shutdown")));
        assertEquals(List.of("process", "onFailure:shutdown", "onCompleteFailure:shutdown"), callback.events);
        callback.iterate();
        assertEquals(1, callback.processCalls.get());
    }

    @Test
    void abortFromOnSuccessStopsBeforeTheNextProcess() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                succeeded();
                return Action.SCHEDULED;
            }

            @Override
            protected void onSuccess() {
                super.onSuccess();
                abort(new IOException("enough"));
            }
        };
        callback.iterate();
        assertEquals(List.of("process", "onSuccess", "onFailure:enough", "onCompleteFailure:enough"), callback.events);
    }

    @Test
    void processThrowingFailsTheJob() {
        IllegalArgumentException boom = new IllegalArgumentException("boom");
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                throw boom;
            }
        };
        callback.iterate();
        assertTrue(callback.isFailed());
        assertSame(boom, callback.completeFailureCause);
        assertEquals(List.of("process", "onFailure:boom", "onCompleteFailure:boom"), callback.events);
    }

    @Test
    void processThrowingAfterItsStepSucceededFailsTheJob() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() throws IOException {
                succeeded();
                throw new IOException("broken");
            }
        };
        callback.iterate();
        assertTrue(callback.isFailed());
        assertEquals(List.of("process", "onFailure:broken", "onCompleteFailure:broken"), callback.events);
    }

    @Test
    void onSuccessThrowingFailsTheJob() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                succeeded();
                return Action.SCHEDULED;
            }

            @Override
            protected void onSuccess() {
                throw new IllegalStateException("hook");
            }
        };
        callback.iterate();
        assertTrue(callback.isFailed());
        assertEquals(1, callback.processCalls.get());
        assertEquals("hook", callback.completeFailureCause.getMessage());
    }

    @Test
    void onFailureThrowingStillCompletes() {
        AtomicInteger completions = new AtomicInteger();
        IteratingCallback callback = new IteratingCallback() {
            @Override
            protected Action process() {
                return Action.SCHEDULED;
            }

            @Override
            protected void onFailure(Throwable cause) {
                throw new IllegalStateException("bad hook");
            }

            @Override
            protected void onCompleteFailure(Throwable cause) {
                completions.incrementAndGet();
            }
        };
        callback.iterate();
        callback.failed(new IOException("fail"));
        assertEquals(1, completions.get());
    }

    @Test
    void doubleSucceededIsAnError() {
        AtomicReference<Throwable> second = new AtomicReference<>();
        RecordingIteratingCallback insideProcess = new RecordingIteratingCallback() {
            @Override
            Action step() {
                if (processCalls.get() > 1) {
                    return Action.SUCCEEDED;
                }
                succeeded();
                second.set(assertThrows(IllegalStateException.class, this::succeeded));
                return Action.SCHEDULED;
            }
        };
        insideProcess.iterate();
        assertTrue(second.get().getMessage().contains("succeeded() without a step in flight"), second.get().getMessage());
        // The stray call did not disturb the loop.
        assertTrue(insideProcess.isSucceeded());
        assertEquals(1, insideProcess.successes.get());

        // A succeeded() while idle (no step scheduled) or after success is an error too.
        RecordingIteratingCallback idle = new RecordingIteratingCallback() {
            @Override
            Action step() {
                return processCalls.get() == 1 ? Action.IDLE : Action.SUCCEEDED;
            }
        };
        assertThrows(IllegalStateException.class, idle::succeeded);
        idle.iterate();
        assertThrows(IllegalStateException.class, idle::succeeded);
        idle.iterate();
        assertTrue(idle.isSucceeded());
        assertThrows(IllegalStateException.class, idle::succeeded);
        assertEquals(1, idle.completeSuccesses.get());
    }

    @Test
    void processReturningIdleAfterItsStepSucceededFailsTheJob() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                succeeded();
                return Action.IDLE;
            }
        };
        callback.iterate();
        assertTrue(callback.isFailed());
        assertInstanceOf(IllegalStateException.class, callback.completeFailureCause);
        assertTrue(callback.completeFailureCause.getMessage().contains("process() returned IDLE but a step already succeeded"));
    }

    @Test
    void processReturningNullFailsTheJob() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                return null;
            }
        };
        callback.iterate();
        assertTrue(callback.isFailed());
        assertTrue(callback.completeFailureCause.getMessage().contains("process() returned null"));
    }

    @Test
    void resetAfterSuccessRunsTheJobAgain() {
        AtomicInteger todo = new AtomicInteger(2);
        CountDownLatch resetTried = new CountDownLatch(1);
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                if (todo.getAndDecrement() > 0) {
                    executor.execute(() -> {
                        awaitLatch(resetTried);
                        succeeded();
                    });
                    return Action.SCHEDULED;
                }
                return Action.SUCCEEDED;
            }
        };
        callback.iterate();
        assertFalse(callback.reset(), "reset while a step is scheduled");
        resetTried.countDown();
        // The state turns SUCCEEDED just before onCompleteSuccess() runs: wait for the latter.
        waitFor(() -> callback.completeSuccesses.get() == 1);
        assertTrue(callback.isSucceeded());
        assertTrue(callback.reset());
        assertTrue(callback.isIdle());
        assertTrue(callback.reset(), "reset when idle");

        todo.set(1);
        callback.iterate();
        waitFor(() -> callback.completeSuccesses.get() == 2);
        assertTrue(callback.isSucceeded());
        assertEquals(3, callback.successes.get());
    }

    @Test
    void resetAfterFailureIsRefused() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                throw new IllegalStateException("no");
            }
        };
        callback.iterate();
        assertFalse(callback.reset());
        assertTrue(callback.isFailed());
    }

    @Test
    void closeWhenIdleStopsTheLoopQuietly() {
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                return Action.IDLE;
            }
        };
        callback.iterate();
        callback.close();
        assertTrue(callback.isClosed());
        callback.iterate();
        assertFalse(callback.abort(new IOException("after close")));
        assertFalse(callback.reset());
        assertEquals(List.of("process"), callback.events);
    }

    @Test
    void closeAfterSuccessOrFailureMarksItClosed() {
        RecordingIteratingCallback succeeded = new RecordingIteratingCallback() {
            @Override
            Action step() {
                return Action.SUCCEEDED;
            }
        };
        succeeded.iterate();
        succeeded.close();
        assertTrue(succeeded.isClosed());
        assertEquals(List.of("process", "onCompleteSuccess"), succeeded.events);

        RecordingIteratingCallback failed = new RecordingIteratingCallback() {
            @Override
            Action step() {
                throw new IllegalStateException("x");
            }
        };
        failed.iterate();
        failed.close();
        assertTrue(failed.isClosed());
        assertEquals(1, failed.completeFailures.get());
    }

    @Test
    void closeWhilePendingAbortsTheJob() {
        AtomicReference<Callback> step = new AtomicReference<>();
        RecordingIteratingCallback callback = new RecordingIteratingCallback() {
            @Override
            Action step() {
                step.set(this);
                return Action.SCHEDULED;
            }
        };
        callback.iterate();
        callback.close();
        assertTrue(callback.isClosed());
        assertEquals(1, callback.failures.get());
        assertEquals(0, callback.completeFailures.get());

        step.get().succeeded();
        assertEquals(1, callback.completeFailures.get());
        assertInstanceOf(IOException.class, callback.completeFailureCause);
        assertTrue(callback.completeFailureCause.getMessage().startsWith("Closed while PENDING"), callback.completeFailureCause.getMessage());
    }

    @Test
    void toStringShowsTheState() {
        AtomicReference<Callback> step = new AtomicReference<>();
        IteratingCallback callback = new IteratingCallback() {
            @Override
            protected Action process() {
                step.set(this);
                return Action.SCHEDULED;
            }
        };
        assertTrue(callback.toString().endsWith("[IDLE]"), callback.toString());
        callback.iterate();
        assertTrue(callback.toString().endsWith("[PENDING]"), callback.toString());
        callback.abort(new IOException("gone"));
        assertTrue(callback.toString().endsWith("[ABORTED,stepPending,cause=java.io.IOException: gone]"), callback.toString());
        step.get().succeeded();
        assertTrue(callback.toString().endsWith("[ABORTED,cause=java.io.IOException: gone]"), callback.toString());
    }

    @Test
    void invocationTypeIsTheSubclasses() {
        IteratingCallback blocking = new IteratingCallback() {
            @Override
            protected Action process() {
                return Action.IDLE;
            }
        };
        IteratingCallback nonBlocking = new IteratingCallback() {
            @Override
            protected Action process() {
                return Action.IDLE;
            }

            @Override
            public InvocationType invocationType() {
                return InvocationType.NON_BLOCKING;
            }
        };
        assertEquals(InvocationType.BLOCKING, blocking.invocationType());
        assertEquals(InvocationType.NON_BLOCKING, nonBlocking.invocationType());
        assertNotEquals(blocking.toString(), nonBlocking.toString());
    }

    private static void waitFor(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("condition not met within 5 s");
            }
            Thread.onSpinWait();
        }
    }

    private static void awaitLatch(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new AssertionError("latch not released");
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new AssertionError(x);
        }
    }
}
