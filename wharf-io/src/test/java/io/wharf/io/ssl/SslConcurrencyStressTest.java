package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLSocket;

import io.wharf.io.AbstractConnection;
import io.wharf.io.EchoServer;
import io.wharf.io.EndPoint;
import io.wharf.io.RacingWriters;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * 8 threads write framed messages concurrently through one server-side TLS endpoint (20,000
 * attempts) while the same endpoint reads a 16 MiB stream the peer sends at the same time.
 * Every write completes whole or is refused with {@link WritePendingException}; the peer (a
 * plain JDK SSLSocket) decrypts exactly the completed messages, intact, and no byte of a
 * refused one; the server reads the peer's stream intact. A garbled TLS record would fail
 * the peer's decryption, so this also proves records never interleave.
 */
@Timeout(120)
class SslConcurrencyStressTest {

    private static final int THREADS = 8;
    private static final int ATTEMPTS = 20_000;
    private static final long UPLOAD = 16L << 20;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void concurrentWritesNeverInterleaveWhileReading(String protocol) throws Exception {
        CompletableFuture<StreamChecker> serverSide = new CompletableFuture<>();
        try (EchoServer server = SslTesting.server(leaks.pool(), Duration.ofSeconds(60), tls -> { }, endPoint -> {
            StreamChecker checker = new StreamChecker(endPoint, leaks.pool(), UPLOAD);
            serverSide.complete(checker);
            return checker;
        }); SSLSocket socket = (SSLSocket) TestCertificates.clientContext().getSocketFactory().createSocket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setEnabledProtocols(new String[] {protocol});
            socket.setSoTimeout(30_000);
            socket.startHandshake();
            StreamChecker checker = serverSide.get(10, TimeUnit.SECONDS);
            EndPoint endPoint = checker.getEndPoint();

            RacingWriters race = new RacingWriters(THREADS, ATTEMPTS);
            race.startPeerReader(socket.getInputStream());
            Thread uploader = Thread.ofPlatform().name("peer-uploader").start(() -> {
                try {
                    OutputStream out = socket.getOutputStream();
                    byte[] chunk = new byte[16 * 1024];
                    for (long offset = 0; offset < UPLOAD; offset += chunk.length) {
                        for (int i = 0; i < chunk.length; i++) {
                            chunk[i] = SslTesting.pattern(offset + i);
                        }
                        out.write(chunk);
                    }
                    out.flush();
                } catch (Throwable x) {
                    race.fail(x);
                }
            });

            race.writeThrough(endPoint);
            uploader.join(60_000);
            assertEquals(UPLOAD, checker.done.get(60, TimeUnit.SECONDS), "the server read the peer's stream intact while writing");
            endPoint.shutdownOutput();
            race.assertPeerReceivedExactlyTheCompleted("the peer decrypted exactly the completed messages");
            endPoint.close();
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    /** Reads the peer's stream and checks every byte against {@link SslTesting#pattern}. */
    private static final class StreamChecker extends AbstractConnection {
        private final ByteBufferPool pool;
        private final long expected;
        private final CompletableFuture<Long> done = new CompletableFuture<>();
        private long offset;

        StreamChecker(EndPoint endPoint, ByteBufferPool pool, long expected) {
            super(endPoint, Runnable::run);
            this.pool = pool;
            this.expected = expected;
        }

        @Override
        public void onOpen() {
            fillInterested();
        }

        @Override
        public void onFillable() {
            RetainableByteBuffer buffer = pool.acquire(4096, true);
            try {
                while (true) {
                    int filled = getEndPoint().fill(buffer.byteBuffer());
                    if (filled < 0) {
                        done.completeExceptionally(new IOException("end of input at " + offset));
                        return;
                    }
                    ByteBuffer bytes = buffer.byteBuffer();
                    while (bytes.hasRemaining()) {
                        if (bytes.get() != SslTesting.pattern(offset)) {
                            throw new IOException("upload corrupt at " + offset);
                        }
                        offset++;
                    }
                    buffer.clear();
                    if (offset == expected) {
                        done.complete(offset);
                        return;
                    }
                    if (filled == 0) {
                        fillInterested();
                        return;
                    }
                }
            } catch (Throwable x) {
                done.completeExceptionally(x);
                getEndPoint().close(x);
            } finally {
                buffer.release();
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
