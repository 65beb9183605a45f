package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.EOFException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.wharf.util.Callback;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 16 threads write concurrently through one endpoint, 100,000 attempts in all: every write
 * either completes whole or is refused with {@link WritePendingException}, and the peer
 * receives every completed message intact and no byte of a refused one.
 */
@Timeout(120)
class ConcurrentWriteStressTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static final int THREADS = 16;
    private static final int ATTEMPTS = 100_000;

    @Test
    void concurrentWritesNeverInterleave() throws Exception {
        LeakTrackingByteBufferPool pool = leaks.pool();
        CompletableFuture<EndPoint> serverEndPoint = new CompletableFuture<>();
        try (EchoServer server = new EchoServer(pool, false, Duration.ofSeconds(60), (endPoint, p) -> {
                serverEndPoint.complete(endPoint);
                return new IdleTestConnection(endPoint);
            });
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            EndPoint endPoint = serverEndPoint.get(5, TimeUnit.SECONDS);

            Set<Long> refused = ConcurrentHashMap.newKeySet();
            Set<Long> completed = ConcurrentHashMap.newKeySet();
            Set<Long> received = ConcurrentHashMap.newKeySet();
            AtomicInteger attempts = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();

            Thread reader = Thread.ofPlatform().name("peer-reader").start(() -> {
                try {
                    DataInputStream in = new DataInputStream(socket.getInputStream());
                    while (true) {
                        int length;
                        try {
                            length = in.readInt();
                        } catch (EOFException x) {
                            return;
                        }
                        int writer = in.readInt();
                        int sequence = in.readInt();
                        byte[] payload = new byte[length];
                        in.readFully(payload);
                        for (int i = 0; i < length; i++) {
                            if (payload[i] != pattern(writer, sequence, i)) {
                                throw new AssertionError("message " + writer + "/" + sequence + " corrupt at byte " + i);
                            }
                        }
                        if (!received.add(key(writer, sequence))) {
                            throw new AssertionError("message " + writer + "/" + sequence + " received twice");
                        }
                    }
                } catch (Throwable x) {
                    failure.compareAndSet(null, x);
                }
            });

            CyclicBarrier start = new CyclicBarrier(THREADS);
            Thread[] writers = new Thread[THREADS];
            for (int t = 0; t < THREADS; t++) {
                int writer = t;
                writers[t] = Thread.ofPlatform().name("writer-" + t).start(() -> {
                    try {
                        start.await();
                        int sequence = 0;
                        while (attempts.getAndIncrement() < ATTEMPTS) {
                            sequence++;
                            ByteBuffer message = message(writer, sequence);
                            Callback.Completable done = new Callback.Completable();
                            try {
                                endPoint.write(done, message);
                            } catch (WritePendingException x) {
                                refused.add(key(writer, sequence));
                                LockSupport.parkNanos(ThreadLocalRandom.current().nextLong(1_000, 20_000));
                                continue;
                            }
                            done.get(30, TimeUnit.SECONDS);
                            completed.add(key(writer, sequence));
                        }
                    } catch (Throwable x) {
                        failure.compareAndSet(null, x);
                    }
                });
            }
            for (Thread writer : writers) {
                writer.join();
            }
            endPoint.shutdownOutput();
            reader.join(30_000);
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(ATTEMPTS, completed.size() + refused.size(), "every attempt completed or was refused");
            assertTrue(completed.size() > ATTEMPTS / 100, "a fair share of writes went through: " + completed.size());
            assertTrue(refused.size() > 0, "writers really raced: " + refused.size());
            assertEquals(completed, received, "the peer received exactly the completed messages");
        }
    }

    private static long key(int writer, int sequence) {
        return ((long) writer << 32) | sequence;
    }

    private static byte pattern(int writer, int sequence, int index) {
        return (byte) (writer * 31 + sequence * 17 + index);
    }

    private static ByteBuffer message(int writer, int sequence) {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int length = random.nextInt(50) == 0 ? 64 * 1024 + random.nextInt(64 * 1024) : 16 + random.nextInt(2000);
        ByteBuffer buffer = ByteBuffer.allocate(12 + length);
        buffer.putInt(length).putInt(writer).putInt(sequence);
        for (int i = 0; i < length; i++) {
            buffer.put(pattern(writer, sequence, i));
        }
        return buffer.flip();
    }
}
