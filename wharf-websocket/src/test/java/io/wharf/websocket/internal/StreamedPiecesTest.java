package io.wharf.websocket.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The hand-over of a streamed message between the session's threads and the reading one: as
 * the session does it (the next piece only once the last one's callback completed, from
 * whichever thread), with random piece and read sizes, early returns and failures; every
 * callback completes exactly once, and the last only when the reader has finished.
 */
@Timeout(60)
class StreamedPiecesTest {

    /** Offers {@code message} in random pieces, each from a pool thread once the previous was taken, like the session. */
    private static final class Feeder {
        final AtomicInteger completions = new AtomicInteger();
        final AtomicInteger offered = new AtomicInteger();
        final CompletableFuture<Void> lastDone = new CompletableFuture<>();

        void feed(StreamedPieces<ByteBuffer> pieces, byte[] message, Random random, ExecutorService threads, int at) {
            int size = Math.min(message.length - at, random.nextInt(300));
            boolean last = at + size == message.length;
            AtomicInteger once = new AtomicInteger();
            Callback done = Callback.from(InvocationType.NON_BLOCKING, () -> {
                assertEquals(1, once.incrementAndGet(), "a piece's callback completed twice");
                completions.incrementAndGet();
                if (last) {
                    lastDone.complete(null);
                } else {
                    threads.execute(() -> feed(pieces, message, random, threads, at + size));
                }
            }, lastDone::completeExceptionally);
            offered.incrementAndGet();
            pieces.offer(ByteBuffer.wrap(message, at, size).slice(), last, done);
        }
    }

    @Test
    void manyMessagesArriveWholeAndInOrderWhateverTheSplits() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            Random random = new Random(42);
            for (int m = 0; m < 500; m++) {
                byte[] message = new byte[random.nextInt(5000)];
                random.nextBytes(message);
                StreamedPieces<ByteBuffer> pieces = new StreamedPieces<>();
                Feeder feeder = new Feeder();
                threads.execute(() -> feeder.feed(pieces, message, new Random(message.length), threads, 0));
                MessageInputStream input = new MessageInputStream(pieces);
                ByteArrayOutputStream read = new ByteArrayOutputStream();
                byte[] chunk = new byte[1 + random.nextInt(700)];
                int n;
                while ((n = input.read(chunk, 0, chunk.length)) >= 0) {
                    read.write(chunk, 0, n);
                }
                assertArrayEquals(message, read.toByteArray());
                assertFalse(feeder.lastDone.isDone(), "the last piece is held until the reader finished");
                pieces.finish();
                feeder.lastDone.get(5, TimeUnit.SECONDS);
                assertEquals(feeder.offered.get(), feeder.completions.get());
            }
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aReaderThatStopsEarlyLetsTheRestGoAtOnce() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            byte[] message = new byte[100_000];
            StreamedPieces<ByteBuffer> pieces = new StreamedPieces<>();
            Feeder feeder = new Feeder();
            threads.execute(() -> feeder.feed(pieces, message, new Random(7), threads, 0));
            MessageInputStream input = new MessageInputStream(pieces);
            assertEquals(1000, input.readNBytes(1000).length);
            pieces.finish();
            feeder.lastDone.get(5, TimeUnit.SECONDS);
            assertEquals(feeder.offered.get(), feeder.completions.get());
            assertThrows(IOException.class, input::read);
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aFailureWakesAWaitingReader() throws Exception {
        StreamedPieces<ByteBuffer> pieces = new StreamedPieces<>();
        MessageInputStream input = new MessageInputStream(pieces);
        CompletableFuture<Throwable> failed = CompletableFuture.supplyAsync(() -> {
            try {
                input.read();
                return null;
            } catch (IOException x) {
                return x;
            }
        });
        Thread.sleep(50);
        assertFalse(failed.isDone(), "the reader waits for a piece");
        pieces.fail(new java.nio.channels.ClosedChannelException());
        Throwable cause = failed.get(5, TimeUnit.SECONDS);
        assertTrue(cause != null && cause.getMessage().contains("ended before the message"), String.valueOf(cause));
    }
}
