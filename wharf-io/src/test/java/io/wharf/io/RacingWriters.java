package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.EOFException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import io.wharf.util.Callback;

/**
 * The harness of the concurrent-write stress tests, plain and TLS: threads race to write
 * framed messages (length, writer, sequence, a pattern) through one endpoint, each write
 * either completing or refused with {@link WritePendingException}; a peer reader checks every
 * message it receives. {@link #assertPeerReceivedExactlyTheCompleted} then holds the outcome
 * against the test's promise: no lost, doubled, corrupt or interleaved message.
 */
public final class RacingWriters {

    private final int threads;
    private final int attempts;
    private final Set<Long> refused = ConcurrentHashMap.newKeySet();
    private final Set<Long> completed = ConcurrentHashMap.newKeySet();
    private final Set<Long> received = ConcurrentHashMap.newKeySet();
    private final AtomicInteger attempted = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private Thread reader;

    /**
     * @param threads how many writers race
     * @param attempts the write attempts of all writers together
     */
    public RacingWriters(int threads, int attempts) {
        this.threads = threads;
        this.attempts = attempts;
    }

    /** Records the first failure of any thread of the test; the assertion reports it. */
    public void fail(Throwable cause) {
        failure.compareAndSet(null, cause);
    }

    /** Starts the peer's reader, which checks each message until end of input. */
    public void startPeerReader(InputStream stream) {
        reader = Thread.ofPlatform().name("peer-reader").start(() -> {
            try {
                DataInputStream in = new DataInputStream(stream);
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
                fail(x);
            }
        });
    }

    /** Races the writers through {@code endPoint} until all attempts are made, and waits for them. */
    public void writeThrough(EndPoint endPoint) throws InterruptedException {
        CyclicBarrier start = new CyclicBarrier(threads);
        Thread[] writers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int writer = t;
            writers[t] = Thread.ofPlatform().name("writer-" + t).start(() -> {
                try {
                    start.await();
                    int sequence = 0;
                    while (attempted.getAndIncrement() < attempts) {
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
                    fail(x);
                }
            });
        }
        for (Thread writer : writers) {
            writer.join();
        }
    }

    /**
     * Waits for the peer's reader to see end of input (the test shut the endpoint's output),
     * then asserts that no thread failed, every attempt completed or was refused, both
     * happened, and the peer got exactly the completed messages.
     */
    public void assertPeerReceivedExactlyTheCompleted(String peerGotThem) throws InterruptedException {
        reader.join(30_000);
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        assertEquals(attempts, completed.size() + refused.size(), "every attempt completed or was refused");
        assertTrue(completed.size() > attempts / 100, "a fair share of writes went through: " + completed.size());
        assertTrue(refused.size() > 0, "writers really raced: " + refused.size());
        assertEquals(completed, received, peerGotThem);
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
