package io.wharf.client.internal.content;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Flow;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import io.wharf.io.Content;

/**
 * The writer's side of {@link PublisherContent} (read, and demand when read has nothing) against
 * a publisher that signals from threads of its own: every item must arrive once and in order,
 * and no item may be asked for while one is held. Runs with no network, so the race between the
 * writer's read and the publisher's onNext (an onNext landing between a read finding nothing
 * and its request, which then asked for a second item before the first was taken) shows within
 * a few hundred thousand items.
 */
class PublisherContentStressTest {

    private static final int ITEMS = 300_000;

    private final ExecutorService emitter = Executors.newSingleThreadExecutor();
    /** Items the writer has taken: the publisher's count of what is asked for but not taken. */
    private final AtomicInteger taken = new AtomicInteger();

    @AfterEach
    void stop() {
        emitter.shutdownNow();
    }

    /** How the publisher emits what one request asks for. */
    enum Emitting {
        /** on one thread of its own, signals strictly one after another */
        ONE_THREAD,
        /** on a new virtual thread per request, as a publisher handing off to an executor does */
        THREAD_PER_REQUEST
    }

    @ParameterizedTest
    @EnumSource(Emitting.class)
    void everyItemArrivesOnceAndInOrderAndNoneIsAskedForWhileOneIsHeld(Emitting emitting) throws Exception {
        SequencePublisher publisher = new SequencePublisher(ITEMS, emitting);
        PublisherContent content = new PublisherContent(publisher, "application/octet-stream");
        Semaphore wakeups = new Semaphore(0);
        int expected = 0;
        while (true) {
            Content.Chunk chunk = content.read();
            if (chunk == null) {
                content.demand(wakeups::release);
                assertTrue(wakeups.tryAcquire(10, TimeUnit.SECONDS), "no wake-up after item " + expected);
                continue;
            }
            assertTrue(chunk.getFailure() == null, () -> "failed: " + chunk.getFailure());
            if (chunk.isLast()) {
                break;
            }
            assertEquals(expected, chunk.getByteBuffer().getInt(), "items lost or repeated");
            expected++;
            taken.incrementAndGet();
        }
        assertEquals(ITEMS, expected);
        assertEquals(1, publisher.maxOutstanding.get(), "never more than one item asked for and not yet taken");
    }

    /**
     * Emits 0, 1, 2 ... as 4-byte buffers, from threads of its own. Counts what was asked for
     * and not yet taken by the test's reading loop: more than one means an item was asked for
     * while another was held, which is how an item gets overwritten and lost.
     */
    private final class SequencePublisher implements Flow.Publisher<ByteBuffer> {
        final AtomicInteger maxOutstanding = new AtomicInteger();
        private final int items;
        private final AtomicLong requested = new AtomicLong();
        private final AtomicInteger sent = new AtomicInteger();

        private final Emitting emitting;

        SequencePublisher(int items, Emitting emitting) {
            this.items = items;
            this.emitting = emitting;
        }

        private void emit(Runnable signals) {
            if (emitting == Emitting.ONE_THREAD) {
                emitter.execute(signals);
            } else {
                Thread.ofVirtual().start(signals);
            }
        }

        @Override
        public void subscribe(Flow.Subscriber<? super ByteBuffer> subscriber) {
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                    long outstanding = requested.addAndGet(n) - taken.get();
                    maxOutstanding.accumulateAndGet((int) outstanding, Math::max);
                    emit(() -> {
                        for (long i = 0; i < n; i++) {
                            int next = sent.get();
                            if (next == items) {
                                subscriber.onComplete();
                                return;
                            }
                            sent.incrementAndGet();
                            subscriber.onNext(ByteBuffer.allocate(4).putInt(0, next));
                        }
                    });
                }

                @Override
                public void cancel() {
                }
            });
        }
    }
}
