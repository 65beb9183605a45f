package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Read interest is added from pool threads while, on the same endpoint, write interest is
 * added by an application thread and removed by the selector when the socket drains —
 * 100,000 round trips. The client sends the next ping as soon as an answer begins, so the
 * server reads (adding read interest) while the previous answer is still being written
 * (write interest added, then removed by the selector). A lost interest update stalls a
 * direction and fails the test by its deadline.
 *
 * <p>The server's send buffer is made small so that the large answers really wait for
 * OP_WRITE; the test asserts they did.
 */
@Timeout(120)
class InterestStressTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static final int ROUND_TRIPS = 100_000;
    private static final int FILLER = 1024;
    private static final int BIG_FILLER = 64 * 1024;
    private static final int BIG_EVERY = 20;

    @Test
    void noInterestUpdateIsLost() throws Exception {
        LeakTrackingByteBufferPool pool = leaks.pool();
        BlockingQueue<Integer> pings = new LinkedBlockingQueue<>();
        AtomicReference<EndPoint> serverEndPoint = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (EchoServer server = new EchoServer(pool, false, Duration.ofSeconds(60), (endPoint, p) -> {
                serverEndPoint.set(endPoint);
                return new PingReader(endPoint, p, pings);
            });
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(30_000);
            socket.setTcpNoDelay(true);
            Deadline.await(() -> serverEndPoint.get() != null, Duration.ofSeconds(5));
            ((SocketChannel) serverEndPoint.get().getTransport()).setOption(StandardSocketOptions.SO_SNDBUF, 16 * 1024);
            AtomicInteger pendingWrites = new AtomicInteger();

            // The server's application thread: one answer per ping, sometimes large enough to need OP_WRITE.
            Thread answerer = Thread.ofPlatform().name("answerer").start(() -> {
                try {
                    for (int i = 0; i < ROUND_TRIPS; i++) {
                        Integer ping = pings.poll(30, TimeUnit.SECONDS);
                        if (ping == null) {
                            throw new AssertionError("no ping after " + i + " round trips: read interest lost");
                        }
                        int filler = ping % BIG_EVERY == 0 ? BIG_FILLER : FILLER;
                        ByteBuffer answer = ByteBuffer.allocate(8 + filler);
                        answer.putInt(ping).putInt(filler).position(8 + filler).flip();
                        Callback.Completable done = new Callback.Completable();
                        serverEndPoint.get().write(done, answer);
                        if (!done.isDone()) {
                            pendingWrites.incrementAndGet();
                        }
                        done.get(30, TimeUnit.SECONDS);
                    }
                } catch (Throwable x) {
                    failure.compareAndSet(null, x);
                }
            });

            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            DataInputStream in = new DataInputStream(socket.getInputStream());
            AtomicInteger answered = new AtomicInteger();
            Thread client = Thread.ofPlatform().name("client").start(() -> {
                try {
                    byte[] skip = new byte[BIG_FILLER];
                    out.writeInt(0);
                    out.flush();
                    for (int i = 0; i < ROUND_TRIPS; i++) {
                        int echoed = in.readInt();
                        int filler = in.readInt();
                        if (i + 1 < ROUND_TRIPS) {
                            out.writeInt(i + 1);
                            out.flush();
                        }
                        in.readFully(skip, 0, filler);
                        if (echoed != i) {
                            throw new AssertionError("answer " + echoed + " for ping " + i);
                        }
                        answered.incrementAndGet();
                    }
                } catch (Throwable x) {
                    failure.compareAndSet(null, x);
                }
            });
            client.join(110_000);
            answerer.join(5_000);
            if (failure.get() != null) {
                throw new AssertionError("after " + answered.get() + " round trips", failure.get());
            }
            assertEquals(ROUND_TRIPS, answered.get());
            assertTrue(pendingWrites.get() >= ROUND_TRIPS / BIG_EVERY / 2, "large answers waited for OP_WRITE: " + pendingWrites.get());
        }
    }

    /** Reads 4-byte pings on pool threads (a BLOCKING connection), re-registering interest each time. */
    private static final class PingReader extends AbstractConnection {
        private final ByteBufferPool pool;
        private final BlockingQueue<Integer> pings;
        private final ByteBuffer partial = ByteBuffer.allocate(4);

        PingReader(EndPoint endPoint, ByteBufferPool pool, BlockingQueue<Integer> pings) {
            super(endPoint, Runnable::run);
            this.pool = pool;
            this.pings = pings;
        }

        @Override
        public void onOpen() {
            fillInterested();
        }

        @Override
        public void onFillable() {
            RetainableByteBuffer buffer = pool.acquire(64, false);
            try {
                while (true) {
                    int filled = getEndPoint().fill(buffer.byteBuffer());
                    if (filled < 0) {
                        return;
                    }
                    ByteBuffer bytes = buffer.byteBuffer();
                    while (bytes.hasRemaining()) {
                        partial.put(bytes.get());
                        if (!partial.hasRemaining()) {
                            pings.add(partial.flip().getInt());
                            partial.clear();
                        }
                    }
                    buffer.clear();
                    if (filled == 0) {
                        fillInterested();
                        return;
                    }
                }
            } catch (IOException x) {
                getEndPoint().close(x);
            } finally {
                buffer.release();
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.BLOCKING;
        }
    }
}
