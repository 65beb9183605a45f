package io.wharf.io;


import java.net.InetAddress;
import java.net.Socket;
import java.nio.channels.WritePendingException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

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

            RacingWriters race = new RacingWriters(THREADS, ATTEMPTS);
            race.startPeerReader(socket.getInputStream());
            race.writeThrough(endPoint);
            endPoint.shutdownOutput();
            race.assertPeerReceivedExactlyTheCompleted("the peer received exactly the completed messages");
        }
    }
}
