package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.MemoryEndPoint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The handshake's read buffer when the handshake ends on another thread while the answer is
 * being read: the handshake timeout closes the endpoint from the scheduler just as the reading
 * thread has taken a buffer for the answer. The reading thread is held right after the pool
 * gave it the buffer (the pool here holds it), the endpoint is closed, and the reader goes on:
 * the buffer must go back to the pool all the same, once.
 */
@Timeout(30)
class HandshakeConnectionTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() throws InterruptedException {
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void aCloseWhileTheAnswerIsReadLeavesNoBufferBehind() throws Exception {
        HoldingPool pool = new HoldingPool(leaks.pool());
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(4096, executor);
        MemoryEndPoint clientEnd = pipe[0];
        MemoryEndPoint serverEnd = pipe[1];
        clientEnd.onOpen();
        serverEnd.onOpen();
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        HandshakeConnection handshake = new HandshakeConnection(clientEnd, executor, pool, new FailingHandshake(failed));
        clientEnd.setConnection(handshake);
        handshake.onOpen();

        serverEnd.flush(ByteBuffer.wrap("HTTP/1.1 101 Switching Protocols\r\n".getBytes(StandardCharsets.ISO_8859_1)));
        assertTrue(pool.held.await(10, TimeUnit.SECONDS), "the reader took a buffer for the answer");
        clientEnd.close(new TimeoutException("the handshake timed out"));
        assertEquals("the handshake timed out", failed.get(10, TimeUnit.SECONDS).getMessage());
        pool.release.countDown();

        leaks.verify(Duration.ofSeconds(5));
    }

    /** Holds the first thread that takes a buffer, just after it has it, until told to go on. */
    private static final class HoldingPool implements ByteBufferPool {
        final CountDownLatch held = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private final ByteBufferPool delegate;

        HoldingPool(ByteBufferPool delegate) {
            this.delegate = delegate;
        }

        @Override
        public RetainableByteBuffer acquire(int size, boolean direct) {
            RetainableByteBuffer buffer = delegate.acquire(size, direct);
            if (held.getCount() > 0) {
                held.countDown();
                try {
                    release.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException x) {
                    Thread.currentThread().interrupt();
                }
            }
            return buffer;
        }

        @Override
        public void clear() {
            delegate.clear();
        }
    }

    /** A handshake that only writes its request and hears how it failed. */
    private record FailingHandshake(CompletableFuture<Throwable> failed) implements HandshakeConnection.Handshake {
        @Override
        public String request(String key) {
            return "GET / HTTP/1.1\r\nHost: test\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + key
                + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
        }

        @Override
        public List<String> subprotocols() {
            return List.of();
        }

        @Override
        public Connection upgrade(EndPoint endPoint, String subprotocol, List<Extension> extensions) {
            throw new AssertionError("no answer is complete here");
        }

        @Override
        public void opened() {
            throw new AssertionError("no answer is complete here");
        }

        @Override
        public List<Extension> extensions(List<ExtensionConfig> answer) {
            return List.of();
        }

        @Override
        public void failed(Throwable cause) {
            failed.complete(cause);
        }
    }
}
