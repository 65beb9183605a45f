package io.wharf.io.ssl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.wharf.io.Connection;
import io.wharf.io.EchoConnection;
import io.wharf.io.EndPoint;
import io.wharf.io.MemoryEndPoint;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The TLS state machine over in-memory pipes that buffer only a few bytes, so that every
 * network flush is partial and every read short: a fill that needs a wrap while the encrypted
 * output is being written (WAIT_FOR_FLUSH), a flush that needs an unwrap (WAIT_FOR_FILL), both
 * halves at once, on TLS 1.2 and 1.3. Wake-ups run on a pool of threads, so the halves race.
 */
@Timeout(60)
class SslStateMachineTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void dispose() throws Exception {
        executor.shutdown();
        assertTrue(executor.awaitTermination(10, TimeUnit.SECONDS));
    }

    /** A client and a server TLS connection over one in-memory pipe, opened. */
    private record Pair(SslConnection client, SslConnection server) {
    }

    private Pair open(int capacity, String protocol, Function<EndPoint, Connection> clientApplication,
                      Function<EndPoint, Connection> serverApplication) {
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(capacity, executor);
        SslConnectionFactory clientTls = SslConnectionFactory.forClient(TestCertificates.clientContext());
        clientTls.setParametersCustomizer(parameters -> parameters.setProtocols(new String[] {protocol}));
        SslConnectionFactory serverTls = SslConnectionFactory.forServer(TestCertificates.serverContext());
        SslConnection client = clientTls.newConnection(pipe[0], new InetSocketAddress("localhost", 443), executor, leaks.pool(), clientApplication);
        SslConnection server = serverTls.newConnection(pipe[1], executor, leaks.pool(), serverApplication);
        pipe[0].setConnection(client);
        pipe[1].setConnection(server);
        pipe[1].onOpen();
        server.onOpen();
        pipe[0].onOpen();
        client.onOpen();
        return new Pair(client, server);
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void echoesThroughPipesOfEverySize(String protocol) throws Exception {
        for (int capacity : List.of(1, 5, 64, 700, 5000, 17_000, 70_000)) {
            long total = 64 * 1024 + ThreadLocalRandom.current().nextInt(4096);
            CompletableFuture<Long> done = new CompletableFuture<>();
            Pair pair = open(capacity, protocol,
                endPoint -> new PatternClient(endPoint, leaks.pool(), total, 1 + ThreadLocalRandom.current().nextInt(20_000), done),
                endPoint -> new EchoConnection(endPoint, leaks.pool(), 1 + ThreadLocalRandom.current().nextInt(8192)));
            assertEquals(total, done.get(20, TimeUnit.SECONDS), "echoed intact through a pipe of " + capacity);
            assertEquals(protocol, pair.client.getSslEngine().getSession().getProtocol());
            pair.client.getDecryptedEndPoint().close();
            Deadline.await(() -> !pair.server.getDecryptedEndPoint().isOpen(), Duration.ofSeconds(10));
            // A network write failed by the close may complete on the thread that was writing.
            Deadline.await(() -> pair.client.getHeldBuffers() == 0 && pair.server.getHeldBuffers() == 0, Duration.ofSeconds(5));
        }
    }

    /**
     * The client never reads: its write alone must run the handshake (WAIT_FOR_FILL). The pipe
     * holds 4 KiB, less than the data, so the write is partial again and again, but more than a
     * handshake flight: a peer whose fill waits for its own blocked flush does not read, so two
     * peers that both block writing with nobody reading would deadlock, as plain TCP peers do.
     */
    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void aClientThatOnlyWritesDrivesTheHandshakeFromItsFlush(String protocol) throws Exception {
        CompletableFuture<EndPoint> clientEndPoint = new CompletableFuture<>();
        CompletableFuture<RecordingConnection> serverRecorder = new CompletableFuture<>();
        Pair pair = open(4096, protocol, endPoint -> {
            clientEndPoint.complete(endPoint);
            return new WriteOnlyConnection(endPoint);
        }, endPoint -> {
            RecordingConnection recorder = new RecordingConnection(endPoint, leaks.pool());
            serverRecorder.complete(recorder);
            return recorder;
        });
        StringBuilder text = new StringBuilder();
        while (text.length() < 40_000) {
            text.append("write-only client ").append(text.length()).append('\n');
        }
        Callback.Completable written = new Callback.Completable();
        clientEndPoint.get().write(written, ByteBuffers.utf8(text.toString()));
        written.get(20, TimeUnit.SECONDS);
        assertEquals(text.toString(), serverRecorder.get().received(text.length()).get(20, TimeUnit.SECONDS));
        assertEquals(0, pair.client.getHeldBuffers(), "an idle client holds no buffer");
        pair.client.getDecryptedEndPoint().shutdownOutput();
        assertEquals(text.toString(), serverRecorder.get().ended().get(10, TimeUnit.SECONDS), "close_notify ends the input after all data");
        pair.server.getDecryptedEndPoint().close();
        // The client never reads, so it cannot see the server's close; it closes itself.
        pair.client.getDecryptedEndPoint().close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"TLSv1.3", "TLSv1.2"})
    void sidesThatOnlyReadDriveTheHandshakeFromTheirFills(String protocol) throws Exception {
        CompletableFuture<RecordingConnection> clientRecorder = new CompletableFuture<>();
        CompletableFuture<RecordingConnection> serverRecorder = new CompletableFuture<>();
        Pair pair = open(2, protocol, endPoint -> {
            RecordingConnection recorder = new RecordingConnection(endPoint, leaks.pool());
            clientRecorder.complete(recorder);
            return recorder;
        }, endPoint -> {
            RecordingConnection recorder = new RecordingConnection(endPoint, leaks.pool());
            serverRecorder.complete(recorder);
            return recorder;
        });
        CompletableFuture<SslHandshake> handshake = new CompletableFuture<>();
        pair.server.addListener(new SslConnection.Listener() {
            @Override
            public void handshakeSucceeded(SslHandshake event) {
                handshake.complete(event);
            }
        });
        // Nobody writes: the handshake runs from the two read interests only.
        SslHandshake event = handshake.get(20, TimeUnit.SECONDS);
        assertEquals(protocol, event.protocol());
        Callback.Completable written = new Callback.Completable();
        pair.server.getDecryptedEndPoint().write(written, ByteBuffers.utf8("greetings from a reader"));
        written.get(10, TimeUnit.SECONDS);
        assertEquals("greetings from a reader", clientRecorder.get().received(23).get(10, TimeUnit.SECONDS));
        Deadline.await(() -> pair.client.getHeldBuffers() == 0 && pair.server.getHeldBuffers() == 0, Duration.ofSeconds(5));
        pair.server.getDecryptedEndPoint().shutdownOutput();
        assertEquals("greetings from a reader", clientRecorder.get().ended().get(10, TimeUnit.SECONDS));
        pair.client.getDecryptedEndPoint().shutdownOutput();
        assertEquals("", serverRecorder.get().ended().get(10, TimeUnit.SECONDS));
        assertNull(serverRecorder.get().closed().get(10, TimeUnit.SECONDS), "both close_notify exchanged: a normal close");
        assertNull(clientRecorder.get().closed().get(10, TimeUnit.SECONDS));
    }

    @Test
    void manyRandomRounds() throws Exception {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        for (int round = 0; round < 40; round++) {
            int capacity = 1 + random.nextInt(random.nextBoolean() ? 40 : 40_000);
            String protocol = random.nextBoolean() ? "TLSv1.3" : "TLSv1.2";
            long total = random.nextInt(200_000);
            CompletableFuture<Long> done = new CompletableFuture<>();
            Pair pair = open(capacity, protocol,
                endPoint -> new PatternClient(endPoint, leaks.pool(), total, 1 + random.nextInt(30_000), done),
                endPoint -> new EchoConnection(endPoint, leaks.pool(), 1 + random.nextInt(20_000)));
            if (total > 0) {
                assertEquals(total, done.get(20, TimeUnit.SECONDS), "round " + round + ": " + protocol + " capacity " + capacity);
            }
            pair.client.getDecryptedEndPoint().close();
            Deadline.await(() -> !pair.server.getDecryptedEndPoint().isOpen(), Duration.ofSeconds(10));
        }
    }

    /**
     * The network read callback declares the invocation type of what it will wake: nothing
     * (non-blocking), the decrypted fill interest's callback while the reader waits for bytes.
     */
    @Test
    void theNetworkReadCallbackDeclaresTheWaitingReadersType() throws Exception {
        CompletableFuture<RecordingConnection> serverRecorder = new CompletableFuture<>();
        CompletableFuture<SslHandshake> handshake = new CompletableFuture<>();
        Pair pair = open(70_000, "TLSv1.3", endPoint -> new RecordingConnection(endPoint, leaks.pool(), InvocationType.BLOCKING), endPoint -> {
            RecordingConnection recorder = new RecordingConnection(endPoint, leaks.pool());
            serverRecorder.complete(recorder);
            return recorder;
        });
        pair.client.addListener(new SslConnection.Listener() {
            @Override
            public void handshakeSucceeded(SslHandshake event) {
                handshake.complete(event);
            }
        });
        handshake.get(10, TimeUnit.SECONDS);
        Deadline.await(() -> pair.client.getDecryptedEndPoint().isFillInterested() && pair.client.invocationType() == InvocationType.BLOCKING,
            Duration.ofSeconds(5));
        Deadline.await(() -> pair.server.getDecryptedEndPoint().isFillInterested()
            && pair.server.invocationType() == InvocationType.NON_BLOCKING, Duration.ofSeconds(5));
        pair.client.getDecryptedEndPoint().close();
        assertEquals(InvocationType.NON_BLOCKING, pair.client.invocationType(), "nobody waits after the close");
        // The server reads the end, or fails writing its session tickets to the closed client.
        serverRecorder.get().ended().handle((text, failure) -> text).get(10, TimeUnit.SECONDS);
        pair.server.getDecryptedEndPoint().close();
    }

    /** Never reads: its writes alone must complete the handshake. */
    private static final class WriteOnlyConnection extends io.wharf.io.AbstractConnection {
        WriteOnlyConnection(EndPoint endPoint) {
            super(endPoint, Runnable::run);
        }

        @Override
        public void onFillable() {
            throw new AssertionError("a write-only connection is never told to read");
        }
    }
}
