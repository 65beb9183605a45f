package io.wharf.websocket.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.wharf.io.MemoryEndPoint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The one writer of a session over an in-memory pipe whose small capacity makes every write
 * partial: frames sent concurrently come out whole and masked (a client's), each sender's in
 * its order; the bounded queue refuses what does not fit; failing fails what is queued.
 */
class FrameFlusherTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private MemoryEndPoint[] pipe(int capacity) {
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(capacity, executor);
        pipe[0].onOpen();
        pipe[1].onOpen();
        return pipe;
    }

    @Test
    void concurrentSendsNeverInterleaveAndAClientsFramesAreMasked() throws Exception {
        MemoryEndPoint[] pipe = pipe(100);
        FrameFlusher flusher = new FrameFlusher(pipe[0], leaks.pool(), true, 10_000);
        int senders = 4;
        int each = 300;
        List<CompletableFuture<Void>> sent = new ArrayList<>();
        List<CompletableFuture<Void>> senderThreads = new ArrayList<>();
        for (int s = 0; s < senders; s++) {
            int sender = s;
            senderThreads.add(CompletableFuture.runAsync(() -> {
                for (int n = 0; n < each; n++) {
                    String text = sender + ":" + n + ":" + "x".repeat(n % 300);
                    Callback.Completable done = new Callback.Completable();
                    synchronized (sent) {
                        sent.add(done);
                    }
                    flusher.send(Frame.of(OpCode.TEXT, ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8))), done);
                }
            }, executor));
        }
        FrameParser parser = new FrameParser(true, 1024);
        ByteBuffer input = ByteBuffer.allocate(4096).limit(0);
        Map<Integer, Integer> next = new HashMap<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        int frames = 0;
        while (frames < senders * each && System.nanoTime() < deadline) {
            Frame frame = parser.parse(input);
            if (frame == null) {
                input.clear().limit(0);
                if (pipe[1].fill(input) == 0) {
                    Thread.sleep(1);
                }
                continue;
            }
            String[] parts = StandardCharsets.UTF_8.decode(frame.payload()).toString().split(":");
            int sender = Integer.parseInt(parts[0]);
            int n = Integer.parseInt(parts[1]);
            assertEquals(next.getOrDefault(sender, 0), n, "sender " + sender + "'s frames in order");
            assertEquals(n % 300, parts.length > 2 ? parts[2].length() : 0);
            next.put(sender, n + 1);
            frames++;
        }
        assertEquals(senders * each, frames);
        CompletableFuture.allOf(senderThreads.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        for (CompletableFuture<Void> done : sent) {
            done.get(10, TimeUnit.SECONDS);
        }
        assertTrue(flusher.isIdle());
    }

    @Test
    void theBoundedQueueRefusesWhatDoesNotFitAndFailingFailsWhatIsQueued() throws Exception {
        MemoryEndPoint[] pipe = pipe(10);   // nobody reads: the first write stays pending
        FrameFlusher flusher = new FrameFlusher(pipe[0], leaks.pool(), false, 3);
        List<Callback.Completable> sends = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Callback.Completable done = new Callback.Completable();
            sends.add(done);
            flusher.send(Frame.of(OpCode.BINARY, ByteBuffer.allocate(100)), done);
        }
        // The first is being written, three wait, the fifth did not fit.
        assertEquals(3, flusher.queued());
        Throwable refused = sends.get(4).handle((ok, failure) -> failure).get(1, TimeUnit.SECONDS);
        assertInstanceOf(WebSocketQueueFullException.class, refused);
        pipe[0].close();
        flusher.fail(null);
        for (int i = 0; i < 4; i++) {
            assertTrue(sends.get(i).handle((ok, failure) -> failure).get(5, TimeUnit.SECONDS) != null, "send " + i + " failed");
        }
        Callback.Completable late = new Callback.Completable();
        flusher.send(Frame.of(OpCode.TEXT, ByteBuffer.allocate(1)), late);
        assertTrue(late.isCompletedExceptionally());
    }
}
