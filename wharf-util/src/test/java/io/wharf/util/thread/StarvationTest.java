package io.wharf.util.thread;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The starvation the adaptive strategy exists to avoid. A producer (think: a selector)
 * produces BLOCKING tasks, each of which waits for a release (think: a handler blocked
 * reading a body), and the NON_BLOCKING tasks that release them (think: "bytes arrived"),
 * each release coming {@value #DISTANCE} tasks after the task it releases. Only production
 * brings releases, so if every thread able to produce is stuck in a blocked task, nothing
 * ever moves again. The pool is small on purpose: 4 threads, one of which may be reserved.
 */
class StarvationTest {

    private static final int BLOCKED_TASKS = 300;
    private static final int DISTANCE = 8;
    private static final Duration DEADLINE = Duration.ofSeconds(15);

    private QueuedThreadPool pool;
    private Scenario scenario;

    @BeforeEach
    void startPool() throws Exception {
        pool = new QueuedThreadPool(4, 4);
        pool.setName("starving");
        pool.setReservedThreads(1);
        pool.setStopTimeout(Duration.ofSeconds(2));
        pool.start();
    }

    @AfterEach
    void stopPool() throws Exception {
        if (scenario != null) {
            scenario.releaseAll();
        }
        pool.stop();
    }

    /** Production on a "selector" thread of its own, as produce() would be called by a selector. */
    @Test
    void adaptiveStrategyNeverStarvesWhenProducingOnASelectorThread() throws Exception {
        scenario = new Scenario();
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(scenario, pool);
        Thread selector = Thread.ofPlatform().name("selector").start(strategy::produce);
        assertTrue(scenario.allCompletedWithin(DEADLINE), () -> "starved: " + scenario + " " + strategy + " " + pool);
        selector.join(DEADLINE.toMillis());
        assertEquals(0, scenario.timedOut.get());
        assertTrue(strategy.getProduceExecuteConsumeCount() + strategy.getExecuteProduceConsumeCount() >= BLOCKED_TASKS, strategy::toString);
    }

    /** Production dispatched to the pool itself: the producing thread is one of the 4. */
    @Test
    void adaptiveStrategyNeverStarvesWhenProductionRunsInThePool() throws Exception {
        scenario = new Scenario();
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(scenario, pool);
        strategy.dispatch();
        assertTrue(scenario.allCompletedWithin(DEADLINE), () -> "starved: " + scenario + " " + strategy + " " + pool);
        assertEquals(0, scenario.timedOut.get());
    }

    /**
     * The same scenario under a strategy that runs every task inline on the producing thread,
     * like EPC without a reserved thread to take over production: the first blocked task
     * blocks the only producer and its release is never produced. This proves the scenario
     * can fail.
     */
    @Test
    void naiveInlineStrategyStarves() throws Exception {
        assertStarves(InlineStrategy::new);
    }

    /**
     * EPC done with execute() instead of tryExecute(): production is handed to a job queued in
     * the pool rather than to a thread that runs it at once, and the blocking task runs
     * inline. Once every pool thread is blocked, the production job waits in the queue behind
     * nothing that could ever end: running a blocking task inline is only safe once another
     * thread is actually producing.
     */
    @Test
    void epcWithAQueuedProducerInsteadOfAReservedThreadStarves() throws Exception {
        assertStarves(producer -> new QueuedHandOffStrategy(producer, pool));
    }

    private void assertStarves(Function<ExecutionStrategy.Producer, ExecutionStrategy> strategyFactory) throws Exception {
        scenario = new Scenario();
        ExecutionStrategy strategy = strategyFactory.apply(scenario);
        Thread selector = Thread.ofPlatform().name("naive-selector").start(strategy::produce);
        assertFalse(scenario.allCompletedWithin(Duration.ofMillis(500)), () -> "did not starve: " + scenario);
        assertTrue(scenario.releasesProduced.get() < BLOCKED_TASKS, scenario::toString);
        // Unblock everything so that the threads end.
        scenario.releaseAll();
        selector.join(DEADLINE.toMillis());
        assertFalse(selector.isAlive());
    }

    /**
     * Produces, in order: blocked task 0 .. blocked task N-1, with "release i" placed right
     * after blocked task i + DISTANCE, then the last releases.
     */
    private static final class Scenario implements ExecutionStrategy.Producer {
        private final List<Runnable> tasks = new ArrayList<>();
        private final List<CountDownLatch> releases = new ArrayList<>();
        private final CountDownLatch completed = new CountDownLatch(BLOCKED_TASKS);
        private final AtomicInteger timedOut = new AtomicInteger();
        private final AtomicInteger releasesProduced = new AtomicInteger();
        private int next;

        Scenario() {
            for (int i = 0; i < BLOCKED_TASKS; i++) {
                releases.add(new CountDownLatch(1));
            }
            for (int i = 0; i < BLOCKED_TASKS; i++) {
                tasks.add(blocked(i));
                if (i >= DISTANCE) {
                    tasks.add(release(i - DISTANCE));
                }
            }
            for (int i = BLOCKED_TASKS - DISTANCE; i < BLOCKED_TASKS; i++) {
                tasks.add(release(i));
            }
        }

        private Runnable blocked(int index) {
            return Invocable.task(InvocationType.BLOCKING, () -> {
                try {
                    if (releases.get(index).await(DEADLINE.toMillis() * 2, TimeUnit.MILLISECONDS)) {
                        completed.countDown();
                    } else {
                        timedOut.incrementAndGet();
                    }
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
            });
        }

        private Runnable release(int index) {
            return Invocable.task(InvocationType.NON_BLOCKING, () -> {
                releasesProduced.incrementAndGet();
                releases.get(index).countDown();
            });
        }

        /** Called by one producing thread at a time, as the contract says; synchronized for visibility across producers. */
        @Override
        public synchronized Runnable produce() {
            return next < tasks.size() ? tasks.get(next++) : null;
        }

        boolean allCompletedWithin(Duration deadline) throws InterruptedException {
            return completed.await(deadline.toMillis(), TimeUnit.MILLISECONDS);
        }

        void releaseAll() {
            releases.forEach(CountDownLatch::countDown);
        }

        @Override
        public synchronized String toString() {
            return "Scenario{produced " + next + "/" + tasks.size() + ",releases=" + releasesProduced + ",completed=" + (BLOCKED_TASKS - completed.getCount()) +
                ",timedOut=" + timedOut + "}";
        }
    }

    /** Deliberately wrong: runs every task inline on the producing thread. */
    private record InlineStrategy(ExecutionStrategy.Producer producer) implements ExecutionStrategy {
        @Override
        public synchronized void produce() {
            Runnable task;
            while ((task = producer.produce()) != null) {
                task.run();
            }
        }

        @Override
        public void dispatch() {
            Thread.ofPlatform().start(this::produce);
        }
    }

    /** Deliberately wrong: hands production to a queued pool job, then runs the blocking task inline. */
    private record QueuedHandOffStrategy(ExecutionStrategy.Producer producer, QueuedThreadPool pool) implements ExecutionStrategy {
        @Override
        public void produce() {
            Runnable task;
            while ((task = producer.produce()) != null) {
                if (Invocable.typeOf(task) == InvocationType.BLOCKING) {
                    pool.execute(this::produce);
                    task.run();
                    return;
                }
                task.run();
            }
        }

        @Override
        public void dispatch() {
            pool.execute(this::produce);
        }
    }
}
