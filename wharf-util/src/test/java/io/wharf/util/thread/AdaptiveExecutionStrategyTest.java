package io.wharf.util.thread;

import static io.wharf.util.thread.Eventually.assertEventually;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.Closeable;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;

import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.Test;

class AdaptiveExecutionStrategyTest {

    /** A producer over a queue that records on which thread each produce call ran. */
    private static final class QueueProducer implements ExecutionStrategy.Producer {
        private final Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        private final List<Thread> producingThreads = new CopyOnWriteArrayList<>();

        QueueProducer add(Runnable task) {
            tasks.add(task);
            return this;
        }

        @Override
        public Runnable produce() {
            producingThreads.add(Thread.currentThread());
            return tasks.poll();
        }
    }

    /** Runs each task on a new thread; tryExecute succeeds only while {@link #reserve} is set. */
    private static final class ThreadPerTaskExecutor implements Executor, TryExecutor {
        private final List<Thread> threads = new CopyOnWriteArrayList<>();
        private final AtomicInteger executed = new AtomicInteger();
        private final AtomicInteger tried = new AtomicInteger();
        private volatile boolean reserve;

        @Override
        public void execute(Runnable task) {
            executed.incrementAndGet();
            threads.add(Thread.ofPlatform().start(task));
        }

        @Override
        public boolean tryExecute(Runnable task) {
            tried.incrementAndGet();
            if (!reserve) {
                return false;
            }
            threads.add(Thread.ofPlatform().start(task));
            return true;
        }

        void joinAll() throws InterruptedException {
            for (Thread thread : threads) {
                thread.join(10_000);
                assertFalse(thread.isAlive(), thread::toString);
            }
        }
    }

    private static Runnable recording(InvocationType type, AtomicReference<Thread> ranOn) {
        return Invocable.task(type, () -> ranOn.set(Thread.currentThread()));
    }

    @Test
    void nonBlockingTasksRunOnTheProducingThread() {
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor();
        executor.reserve = true;
        QueueProducer producer = new QueueProducer();
        List<Thread> ranOn = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 10; i++) {
            producer.add(Invocable.task(InvocationType.NON_BLOCKING, () -> ranOn.add(Thread.currentThread())));
        }
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, executor);
        strategy.produce();
        assertEquals(10, ranOn.size());
        assertTrue(ranOn.stream().allMatch(thread -> thread == Thread.currentThread()));
        assertEquals(10, strategy.getProduceConsumeCount());
        assertEquals(0, strategy.getExecuteProduceConsumeCount() + strategy.getProduceExecuteConsumeCount());
        assertEquals(0, executor.executed.get() + executor.tried.get(), "no other thread was asked");
        assertSame(AdaptiveExecutionStrategy.State.IDLE, strategy.state());
    }

    /** EPC: the blocking task runs here, hot; production moves to the reserved thread first. */
    @Test
    void blockingTaskRunsInlineOnceAReservedThreadTakesProduction() throws Exception {
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor();
        executor.reserve = true;
        AtomicReference<Thread> blockingRanOn = new AtomicReference<>();
        AtomicReference<Thread> nonBlockingRanOn = new AtomicReference<>();
        CountDownLatch productionMoved = new CountDownLatch(1);
        QueueProducer producer = new QueueProducer();
        producer.add(Invocable.task(InvocationType.BLOCKING, () -> {
            blockingRanOn.set(Thread.currentThread());
            try {
                // The blocking task blocks until the other thread has produced the next task.
                assertTrue(productionMoved.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException x) {
                throw new IllegalStateException(x);
            }
        }));
        producer.add(Invocable.task(InvocationType.NON_BLOCKING, () -> {
            nonBlockingRanOn.set(Thread.currentThread());
            productionMoved.countDown();
        }));
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, executor);
        strategy.produce();
        executor.joinAll();
        assertSame(Thread.currentThread(), blockingRanOn.get());
        assertEquals(1, executor.threads.size());
        assertSame(executor.threads.get(0), nonBlockingRanOn.get());
        assertSame(Thread.currentThread(), producer.producingThreads.get(0));
        assertSame(executor.threads.get(0), producer.producingThreads.get(1), "the reserved thread went on producing");
        assertEquals(1, strategy.getExecuteProduceConsumeCount());
        assertEquals(1, strategy.getProduceConsumeCount());
        assertEquals(0, strategy.getProduceExecuteConsumeCount());
        assertSame(AdaptiveExecutionStrategy.State.IDLE, strategy.state());
    }

    /** PEC: no reserved thread, so the blocking task goes to the executor and production stays here. */
    @Test
    void blockingTaskGoesToTheExecutorWhenNoReservedThreadIsFree() throws Exception {
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor();
        AtomicReference<Thread> blockingRanOn = new AtomicReference<>();
        AtomicReference<Thread> nonBlockingRanOn = new AtomicReference<>();
        QueueProducer producer = new QueueProducer()
            .add(recording(InvocationType.BLOCKING, blockingRanOn))
            .add(recording(InvocationType.NON_BLOCKING, nonBlockingRanOn));
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, executor);
        strategy.produce();
        executor.joinAll();
        assertEquals(1, executor.tried.get());
        assertEquals(1, executor.executed.get());
        assertSame(executor.threads.get(0), blockingRanOn.get());
        assertSame(Thread.currentThread(), nonBlockingRanOn.get());
        assertTrue(producer.producingThreads.stream().allMatch(thread -> thread == Thread.currentThread()));
        assertEquals(1, strategy.getProduceExecuteConsumeCount());
        assertEquals(1, strategy.getProduceConsumeCount());
        assertEquals(0, strategy.getExecuteProduceConsumeCount());
    }

    @Test
    void anExecutorThatCannotTryExecuteNeverGivesEpc() throws Exception {
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            AtomicReference<Thread> ranOn = new AtomicReference<>();
            QueueProducer producer = new QueueProducer().add(recording(InvocationType.BLOCKING, ranOn));
            AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, executor);
            strategy.produce();
            assertEventually(() -> ranOn.get() != null, strategy::toString);
            assertNotSame(Thread.currentThread(), ranOn.get());
            assertEquals(1, strategy.getProduceExecuteConsumeCount());
        } finally {
            executor.shutdownNow();
        }
    }

    /** A thread that promised not to block never runs a BLOCKING task, even with a reserved thread free. */
    @Test
    void nonBlockingModeRunsEitherTasksInlineAndExecutesBlockingOnes() throws Exception {
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor();
        executor.reserve = true;
        AtomicReference<Thread> blockingRanOn = new AtomicReference<>();
        AtomicReference<Thread> eitherRanOn = new AtomicReference<>();
        AtomicBoolean eitherSawNonBlockingMode = new AtomicBoolean();
        QueueProducer producer = new QueueProducer()
            .add(recording(InvocationType.BLOCKING, blockingRanOn))
            .add(Invocable.task(InvocationType.EITHER, () -> {
                eitherRanOn.set(Thread.currentThread());
                eitherSawNonBlockingMode.set(Invocable.isNonBlockingInvocation());
            }));
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, executor);
        Invocable.invokeNonBlocking(strategy::produce);
        executor.joinAll();
        assertEquals(0, executor.tried.get(), "a non-blocking thread does not even try to hand production over");
        assertNotSame(Thread.currentThread(), blockingRanOn.get());
        assertSame(Thread.currentThread(), eitherRanOn.get());
        assertTrue(eitherSawNonBlockingMode.get());
        assertEquals(1, strategy.getProduceExecuteConsumeCount());
        assertEquals(1, strategy.getProduceConsumeCount());
        assertEquals(0, strategy.getExecuteProduceConsumeCount());
    }

    @Test
    void eitherTaskOnAThreadThatMayBlockIsEpcOrPec() throws Exception {
        ThreadPerTaskExecutor executor = new ThreadPerTaskExecutor();
        AtomicReference<Thread> first = new AtomicReference<>();
        AtomicReference<Thread> second = new AtomicReference<>();
        QueueProducer producer = new QueueProducer().add(recording(InvocationType.EITHER, first));
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, executor);
        strategy.produce();
        executor.joinAll();
        assertNotSame(Thread.currentThread(), first.get());
        assertEquals(1, strategy.getProduceExecuteConsumeCount());

        executor.reserve = true;
        producer.add(recording(InvocationType.EITHER, second));
        strategy.produce();
        executor.joinAll();
        assertSame(Thread.currentThread(), second.get());
        assertEquals(1, strategy.getExecuteProduceConsumeCount());
    }

    @Test
    void rejectedTasksAreClosedOrFailedAndProductionGoesOn() throws Exception {
        Executor rejecting = task -> {
            throw new RejectedExecutionException("full");
        };
        AtomicBoolean closed = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger ran = new AtomicInteger();
        QueueProducer producer = new QueueProducer()
            .add(new ClosingTask(closed))
            .add(new FailingTask(failure))
            .add(() -> ran.addAndGet(100))
            .add(Invocable.task(InvocationType.NON_BLOCKING, ran::incrementAndGet));
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, rejecting);
        try (CapturedErr ignored = new CapturedErr()) {
            strategy.produce();
        }
        assertTrue(closed.get());
        assertInstanceOf(RejectedExecutionException.class, failure.get());
        assertEquals(1, ran.get(), "the task after the rejected ones was still produced and run");
        assertEquals(3, strategy.getRejectedCount());
        assertSame(AdaptiveExecutionStrategy.State.IDLE, strategy.state());
    }

    @Test
    void failingTasksAndProducersDoNotStopTheStrategy() {
        AtomicInteger ran = new AtomicInteger();
        AtomicBoolean fail = new AtomicBoolean(true);
        Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        ExecutionStrategy.Producer producer = () -> {
            if (fail.getAndSet(false)) {
                throw new IllegalStateException("producer fails once on purpose");
            }
            return tasks.poll();
        };
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, Runnable::run);
        tasks.add(Invocable.task(InvocationType.NON_BLOCKING, () -> {
            throw new IllegalStateException("task fails on purpose");
        }));
        tasks.add(Invocable.task(InvocationType.NON_BLOCKING, ran::incrementAndGet));
        try (CapturedErr ignored = new CapturedErr()) {
            strategy.produce();
            assertEquals(0, ran.get(), "the failed produce call ended that production round");
            assertSame(AdaptiveExecutionStrategy.State.IDLE, strategy.state());
            strategy.produce();
        }
        assertEquals(1, ran.get());
    }

    /** dispatch() gives one production job to the executor, however often it is called before that job runs. */
    @Test
    void dispatchQueuesOneProductionJob() {
        List<Runnable> queued = new ArrayList<>();
        AtomicInteger ran = new AtomicInteger();
        QueueProducer producer = new QueueProducer();
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, queued::add);
        for (int i = 0; i < 5; i++) {
            producer.add(Invocable.task(InvocationType.NON_BLOCKING, ran::incrementAndGet));
            strategy.dispatch();
        }
        assertEquals(1, queued.size());
        assertSame(AdaptiveExecutionStrategy.State.DISPATCHED, strategy.state());
        queued.remove(0).run();
        assertEquals(5, ran.get());
        assertSame(AdaptiveExecutionStrategy.State.IDLE, strategy.state());
        strategy.dispatch();
        assertEquals(1, queued.size());
        assertTrue(strategy.dump().contains("producer: "));
    }

    @Test
    void rejectedDispatchGoesBackToIdle() {
        AtomicInteger ran = new AtomicInteger();
        QueueProducer producer = new QueueProducer().add(Invocable.task(InvocationType.NON_BLOCKING, ran::incrementAndGet));
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, task -> {
            throw new RejectedExecutionException("stopped");
        });
        try (CapturedErr ignored = new CapturedErr()) {
            strategy.dispatch();
        }
        assertSame(AdaptiveExecutionStrategy.State.IDLE, strategy.state());
        strategy.produce();
        assertEquals(1, ran.get());
    }

    /** A produce call made while another thread produces marks production pending: that thread produces once more. */
    @Test
    void produceWhileProducingIsNotLost() throws Exception {
        CountDownLatch inTask = new CountDownLatch(1);
        CountDownLatch secondCallMade = new CountDownLatch(1);
        Queue<Runnable> tasks = new ConcurrentLinkedQueue<>();
        AtomicInteger ran = new AtomicInteger();
        AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(tasks::poll, Runnable::run);
        tasks.add(Invocable.task(InvocationType.NON_BLOCKING, () -> {
            inTask.countDown();
            try {
                assertTrue(secondCallMade.await(10, TimeUnit.SECONDS));
            } catch (InterruptedException x) {
                throw new IllegalStateException(x);
            }
        }));
        Thread first = Thread.ofPlatform().start(strategy::produce);
        assertTrue(inTask.await(10, TimeUnit.SECONDS));
        tasks.add(Invocable.task(InvocationType.NON_BLOCKING, ran::incrementAndGet));
        strategy.produce();
        assertSame(AdaptiveExecutionStrategy.State.PENDING, strategy.state());
        assertEquals(0, ran.get(), "the second call returned without producing");
        secondCallMade.countDown();
        first.join(10_000);
        assertEquals(1, ran.get());
        assertSame(AdaptiveExecutionStrategy.State.IDLE, strategy.state());
    }

    /**
     * Many threads offer tasks into a queue-backed producer and call produce() after each offer,
     * while other threads produce: 100,000 tasks, a quarter of them BLOCKING (EPC or PEC on a real
     * pool). Every task runs exactly once. The offers come in 500 rounds; after each round, once
     * production is idle, the queue must be empty: a produce() call that returned while the
     * producing thread was about to give up, without making it look again, would strand a task.
     */
    @Test
    void concurrentProduceCallsNeverLoseATask() throws Exception {
        int offerers = 8;
        int rounds = 500;
        int tasksPerRound = 25;
        int tasksEach = rounds * tasksPerRound;
        QueuedThreadPool pool = new QueuedThreadPool(4, 16);
        pool.setReservedThreads(2);
        pool.start();
        try {
            Queue<Runnable> queue = new ConcurrentLinkedQueue<>();
            AtomicIntegerArray runs = new AtomicIntegerArray(offerers * tasksEach);
            AtomicInteger total = new AtomicInteger();
            // A producer slow to say "nothing" (like a selector's select): it widens the window
            // between its last empty poll and the moment the producing thread gives up production.
            ExecutionStrategy.Producer producer = () -> {
                Runnable task = queue.poll();
                if (task == null) {
                    Thread.yield();
                }
                return task;
            };
            AdaptiveExecutionStrategy strategy = new AdaptiveExecutionStrategy(producer, pool);
            AtomicInteger stranded = new AtomicInteger();
            CyclicBarrier endOfRound = new CyclicBarrier(offerers, () -> {
                assertEventually(() -> strategy.state() == AdaptiveExecutionStrategy.State.IDLE, strategy::toString);
                if (!queue.isEmpty()) {
                    stranded.incrementAndGet();
                    // Let the next round go on with a clean queue, so that one failure shows as one.
                    strategy.produce();
                }
            });
            ExecutorService threads = Executors.newFixedThreadPool(offerers);
            try {
                List<Future<?>> futures = new ArrayList<>();
                for (int o = 0; o < offerers; o++) {
                    int offerer = o;
                    futures.add(threads.submit(() -> {
                        for (int round = 0; round < rounds; round++) {
                            for (int t = 0; t < tasksPerRound; t++) {
                                int i = round * tasksPerRound + t;
                                int id = offerer * tasksEach + i;
                                Runnable count = () -> {
                                    runs.incrementAndGet(id);
                                    total.incrementAndGet();
                                };
                                queue.add(Invocable.task(i % 4 == 0 ? InvocationType.BLOCKING : InvocationType.NON_BLOCKING, count));
                                strategy.produce();
                            }
                            endOfRound.await(20, TimeUnit.SECONDS);
                        }
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get(20, TimeUnit.SECONDS);
                }
            } finally {
                threads.shutdownNow();
            }
            assertEquals(0, stranded.get(), "rounds that ended with a task stranded in the queue");
            assertEventually(() -> total.get() == runs.length(), () -> total + " of " + runs.length() + " ran, queue " + queue.size() + ", " + strategy);
            for (int id = 0; id < runs.length(); id++) {
                assertEquals(1, runs.get(id), "task " + id);
            }
            long modes = strategy.getProduceConsumeCount() + strategy.getExecuteProduceConsumeCount() + strategy.getProduceExecuteConsumeCount();
            assertEquals(runs.length(), modes, strategy::toString);
            assertTrue(strategy.getProduceExecuteConsumeCount() + strategy.getExecuteProduceConsumeCount() > 0, strategy::toString);
        } finally {
            pool.stop();
        }
    }

    /**
     * Strategies chain: the outer ("I/O") strategy produces connection tasks, each of which
     * offers stream tasks to the inner ("HTTP/2 streams") strategy and drives its produce().
     * Every stream task runs once; a non-blocking stream task of a connection task consumed
     * inline runs on that same thread.
     */
    @Test
    void chainedStrategiesRunEveryInnerTaskOnce() throws Exception {
        int connections = 2_000;
        int streamsEach = 10;
        QueuedThreadPool pool = new QueuedThreadPool(4, 16);
        pool.start();
        try {
            Queue<Runnable> streams = new ConcurrentLinkedQueue<>();
            Queue<Runnable> connectionTasks = new ConcurrentLinkedQueue<>();
            AdaptiveExecutionStrategy inner = new AdaptiveExecutionStrategy(streams::poll, pool);
            AdaptiveExecutionStrategy outer = new AdaptiveExecutionStrategy(connectionTasks::poll, pool);
            // One more connection than the concurrent phase offers: the quiet phase below runs it.
            AtomicIntegerArray runs = new AtomicIntegerArray((connections + 1) * streamsEach);
            AtomicInteger total = new AtomicInteger();
            AtomicInteger sameThread = new AtomicInteger();
            AtomicInteger nonBlockingInline = new AtomicInteger();
            IntFunction<Runnable> connectionTask = connection -> {
                InvocationType connectionType = connection % 3 == 0 ? InvocationType.BLOCKING : InvocationType.NON_BLOCKING;
                return Invocable.task(connectionType, () -> {
                    Thread connectionThread = Thread.currentThread();
                    for (int s = 0; s < streamsEach; s++) {
                        int id = connection * streamsEach + s;
                        InvocationType streamType = s % 2 == 0 ? InvocationType.NON_BLOCKING : InvocationType.BLOCKING;
                        streams.add(Invocable.task(streamType, () -> {
                            runs.incrementAndGet(id);
                            total.incrementAndGet();
                            if (streamType == InvocationType.NON_BLOCKING && connectionType == InvocationType.NON_BLOCKING) {
                                nonBlockingInline.incrementAndGet();
                                if (Thread.currentThread() == connectionThread) {
                                    sameThread.incrementAndGet();
                                }
                            }
                        }));
                        inner.produce();
                    }
                });
            };
            for (int c = 0; c < connections; c++) {
                connectionTasks.add(connectionTask.apply(c));
            }
            // Three "selector" threads drive the outer strategy at once.
            List<Thread> selectors = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                selectors.add(Thread.ofPlatform().start(outer::produce));
            }
            for (Thread selector : selectors) {
                selector.join(20_000);
            }
            assertEventually(() -> total.get() == connections * streamsEach, () -> total + " of " + connections * streamsEach + " ran; " + inner + " " + outer);
            // The quiet phase: with nothing else running, a non-blocking connection task produced
            // on this thread is consumed here, and so are its non-blocking stream tasks. (Under the
            // concurrent phase another thread may be producing the shared inner strategy at every
            // such moment, so whether one ran hot there is up to the scheduler.)
            connectionTasks.add(connectionTask.apply(connections));
            outer.produce();
            assertEventually(() -> total.get() == runs.length(), () -> total + " of " + runs.length() + " ran; " + inner + " " + outer);
            for (int id = 0; id < runs.length(); id++) {
                assertEquals(1, runs.get(id), "stream task " + id);
            }
            assertTrue(streams.isEmpty() && connectionTasks.isEmpty());
            assertTrue(sameThread.get() > 0, "no inner task ran hot on its connection's thread");
            assertTrue(outer.getProduceConsumeCount() > 0 && inner.getProduceConsumeCount() > 0, inner + " " + outer);
        } finally {
            pool.stop();
        }
    }

    private record ClosingTask(AtomicBoolean closed) implements Runnable, Closeable {
        @Override
        public void run() {
            throw new AssertionError("a rejected task does not run");
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }

    private record FailingTask(AtomicReference<Throwable> failure) implements Runnable, Callback {
        @Override
        public void run() {
            throw new AssertionError("a rejected task does not run");
        }

        @Override
        public void failed(Throwable cause) {
            failure.set(cause);
        }
    }
}
