package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The chat's send window: never more sends at once than its size, every send run once, waiting sends bounded. */
@Timeout(30)
class SendWindowTest {

    @Test
    void eightThreadsNeverExceedTheWindowAndEverySendRuns() throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(4);
        try {
            int window = 5;
            int threads = 8;
            int each = 20_000;
            SendWindow sends = new SendWindow(window, Integer.MAX_VALUE, executor);
            AtomicInteger holding = new AtomicInteger();
            AtomicInteger most = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            List<Thread> senders = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread sender = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        sends.acquire(() -> {
                            most.accumulateAndGet(holding.incrementAndGet(), Math::max);
                            ran.incrementAndGet();
                            holding.decrementAndGet();
                            // Given back by another thread now and then, as a delivery does.
                            if (ran.get() % 3 == 0) {
                                executor.execute(sends::release);
                            } else {
                                sends.release();
                            }
                        });
                    }
                });
                senders.add(sender);
                sender.start();
            }
            for (Thread sender : senders) {
                sender.join(TimeUnit.SECONDS.toMillis(20));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (ran.get() < threads * each && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertEquals(threads * each, ran.get(), "every send ran once");
            assertTrue(most.get() <= window, "at most " + window + " at once, saw " + most.get());
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void aFullQueueRefusesTheNextSend() {
        SendWindow sends = new SendWindow(1, 2, Runnable::run);
        AtomicInteger ran = new AtomicInteger();
        sends.acquire(ran::incrementAndGet);
        sends.acquire(ran::incrementAndGet);
        sends.acquire(ran::incrementAndGet);
        RejectedExecutionException refused = assertThrows(RejectedExecutionException.class, () -> sends.acquire(ran::incrementAndGet));
        assertTrue(refused.getMessage().contains("more than 2 messages wait for the send window"), refused.getMessage());
        assertEquals(1, ran.get());
        sends.release();
        sends.release();
        assertEquals(3, ran.get(), "the waiting sends ran in turn");
    }
}
