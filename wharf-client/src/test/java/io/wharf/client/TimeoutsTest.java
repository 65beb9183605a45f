package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Total, idle and connect timeouts, and aborts from other threads: each ends the exchange once, with a clear cause. */
@Timeout(30)
class TimeoutsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    private TestServer server;
    private HttpClient client;
    /** Released at the end of each test, so that handlers that hold a response return. */
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch handling = new CountDownLatch(1);

    /** A handler that answers only when the test ends. */
    private Handler stalling() {
        return Handler.of((request, response, callback) -> {
            handling.countDown();
            release.await(20, TimeUnit.SECONDS);
            io.wharf.server.Response.write(response, true, "late", callback);
            return true;
        });
    }

    private void start(Handler handler) throws Exception {
        server = loopback.server(handler);
        client = loopback.client();
    }

    @AfterEach
    void release() {
        release.countDown();
    }

    /** A handler that writes up to 64 MB, until the client goes away or the test ends. */
    private Handler floodUntilReleased() {
        return Handler.of((request, response, callback) -> {
            try (var out = io.wharf.server.Response.asOutputStream(response)) {
                byte[] block = new byte[64 * 1024];
                for (int i = 0; i < 1024 && release.getCount() > 0; i++) {
                    out.write(block);
                }
            } catch (IOException expected) {
                // The client went away.
            }
            callback.succeeded();
            return true;
        });
    }

    /** Counts the completions of each request it is given to. */
    private static final class Completions implements Response.Listener {
        final AtomicInteger count = new AtomicInteger();
        final CompletableFuture<Result> result = new CompletableFuture<>();

        @Override
        public void onComplete(Result done) {
            count.incrementAndGet();
            result.complete(done);
        }
    }

    @Test
    void totalTimeoutNamesItselfAndItsValue() throws Exception {
        start(stalling());
        long start = System.nanoTime();
        TimeoutException timeout = assertThrows(TimeoutException.class,
                () -> client.newRequest(server.uri("/slow")).timeout(Duration.ofMillis(300)).send());
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(timeout.getMessage().startsWith("total timeout of 300 ms elapsed"), timeout.getMessage());
        assertTrue(elapsed >= 290 && elapsed < 5000, "elapsed " + elapsed);
        assertEquals(0, client.getDestinations().get(0).getConnectionCount(), "the timed-out connection is closed");
    }

    @Test
    void totalTimeoutCountsTheTimeInTheQueue() throws Exception {
        start(stalling());
        client.setMaxConnectionsPerDestination(1);
        Completions first = new Completions();
        client.newRequest(server.uri("/first")).timeout(Duration.ofSeconds(20)).send(first);
        assertTrue(handling.await(10, TimeUnit.SECONDS));
        TimeoutException timeout = assertThrows(TimeoutException.class,
                () -> client.newRequest(server.uri("/queued")).timeout(Duration.ofMillis(200)).send());
        assertTrue(timeout.getMessage().startsWith("total timeout of 200 ms"), timeout.getMessage());
        release.countDown();
        assertTrue(first.result.get(10, TimeUnit.SECONDS).isSucceeded());
    }

    @Test
    void idleTimeoutOfTheRequestNamesItselfAndItsValue() throws Exception {
        start(stalling());
        TimeoutException timeout = assertThrows(TimeoutException.class,
                () -> client.newRequest(server.uri("/silent")).idleTimeout(Duration.ofMillis(250)).send());
        assertTrue(timeout.getMessage().startsWith("idle timeout of 250 ms elapsed"), timeout.getMessage());
    }

    @Test
    void idleTimeoutOfTheClientApplies() throws Exception {
        start(stalling());
        client.setIdleTimeout(Duration.ofMillis(300));
        TimeoutException timeout = assertThrows(TimeoutException.class, () -> client.GET(server.uri("/silent")));
        assertTrue(timeout.getMessage().startsWith("idle timeout of 300 ms elapsed"), timeout.getMessage());
    }

    @Test
    void idlePooledConnectionsAreEvicted() throws Exception {
        start(Handler.of((request, response, callback) -> {
            io.wharf.server.Response.write(response, true, "ok", callback);
            return true;
        }));
        client.setIdleTimeout(Duration.ofMillis(200));
        assertEquals("ok", client.GET(server.uri("/")).getContentAsString());
        Destination destination = client.getDestinations().get(0);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (destination.getConnectionCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(20); // polling an observable count; nothing to latch on
        }
        assertEquals(0, destination.getConnectionCount());
        assertEquals("ok", client.GET(server.uri("/")).getContentAsString());
    }

    @Test
    void connectTimeoutNamesItselfAndItsValue() throws Exception {
        // A listening socket whose backlog is full and which never accepts: further SYNs are
        // dropped on Linux, so a connect waits until its timeout.
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            List<Socket> fillers = new ArrayList<>();
            try {
                for (int i = 0; i < 8; i++) {
                    Socket filler = new Socket();
                    try {
                        filler.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), full.getLocalPort()), 200);
                        fillers.add(filler);
                    } catch (IOException timedOut) {
                        filler.close();
                        break;
                    }
                }
                start(stalling());
                client.setConnectTimeout(Duration.ofMillis(300));
                TimeoutException timeout = assertThrows(TimeoutException.class,
                        () -> client.GET("http://127.0.0.1:" + full.getLocalPort() + "/"));
                assertTrue(timeout.getMessage().startsWith("connect timeout of 300 ms elapsed connecting to http://127.0.0.1:"),
                        timeout.getMessage());
                assertInstanceOf(java.net.SocketTimeoutException.class, timeout.getCause());
            } finally {
                for (Socket filler : fillers) {
                    filler.close();
                }
            }
        }
    }

    @Test
    void aRefusedConnectionFailsTheRequest() throws Exception {
        start(stalling());
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET("http://127.0.0.1:" + port + "/"));
        assertTrue(failure.getCause().getMessage().startsWith("Connect to /127.0.0.1:" + port + " failed"),
                failure.getCause().getMessage());
        assertInstanceOf(java.net.ConnectException.class, failure.getCause().getCause());
    }

    @Test
    void abortWhileQueuedCompletesOnce() throws Exception {
        start(stalling());
        client.setMaxConnectionsPerDestination(1);
        Completions first = new Completions();
        client.newRequest(server.uri("/first")).send(first);
        assertTrue(handling.await(10, TimeUnit.SECONDS));
        Completions queued = new Completions();
        Request second = client.newRequest(server.uri("/second"));
        second.send(queued);
        IOException cause = new IOException("changed my mind");
        assertTrue(second.abort(cause));
        assertSame(cause, queued.result.get(5, TimeUnit.SECONDS).getFailure());
        assertTrue(!second.abort(new IOException("again")), "a second abort does nothing");
        assertEquals(0, client.getDestinations().get(0).getQueuedRequestCount());
        release.countDown();
        assertTrue(first.result.get(10, TimeUnit.SECONDS).isSucceeded());
        assertEquals(1, queued.count.get());
        assertEquals(1, first.count.get());
    }

    @Test
    void abortMidUploadEndsTheExchangeAndClosesTheStream() throws Exception {
        CountDownLatch received = new CountDownLatch(1);
        start(Handler.of((request, response, callback) -> {
            try (InputStream in = io.wharf.server.Request.asInputStream(request)) {
                in.read(new byte[1]);
                received.countDown();
                in.readAllBytes();
            }
            io.wharf.server.Response.write(response, true, "done", callback);
            return true;
        }));
        CountDownLatch streamClosed = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        InputStream endless = new InputStream() {
            private volatile boolean closed;
            private int sent;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] bytes, int offset, int length) throws IOException {
                if (sent < 3) {
                    sent++;
                    bytes[offset] = 'x';
                    return 1;
                }
                blocked.countDown();
                while (!closed) {
                    try {
                        Thread.sleep(5); // a stream that blocks until closed, as a pipe would
                    } catch (InterruptedException x) {
                        throw new IOException(x);
                    }
                }
                throw new IOException("stream closed");
            }

            @Override
            public void close() {
                closed = true;
                streamClosed.countDown();
            }
        };
        Completions completions = new Completions();
        Request upload = client.POST(server.uri("/upload")).content(RequestContent.of(endless));
        upload.send(completions);
        assertTrue(received.await(10, TimeUnit.SECONDS));
        assertTrue(blocked.await(10, TimeUnit.SECONDS));
        IOException cause = new IOException("stop uploading");
        assertTrue(upload.abort(cause));
        Result result = completions.result.get(10, TimeUnit.SECONDS);
        assertSame(cause, result.requestFailure());
        assertSame(cause, result.responseFailure());
        assertTrue(streamClosed.await(10, TimeUnit.SECONDS), "the aborted upload closes its stream");
        assertEquals(1, completions.count.get());
    }

    @Test
    void abortMidDownloadThroughTheInputStream() throws Exception {
        start(floodUntilReleased());
        InputStreamResponseListener listener = new InputStreamResponseListener();
        Request download = client.newRequest(server.uri("/big"));
        download.send(listener);
        Response response = listener.get(10, TimeUnit.SECONDS);
        assertEquals(200, response.getStatus());
        InputStream in = listener.getInputStream();
        assertEquals(100_000, in.readNBytes(100_000).length);
        IOException cause = new IOException("enough");
        assertTrue(download.abort(cause));
        IOException failure = assertThrows(IOException.class, () -> in.readNBytes(1 << 20));
        assertSame(cause, failure.getCause());
        in.close();
    }

    @Test
    void closingTheInputStreamEarlyAbortsTheExchange() throws Exception {
        start(floodUntilReleased());
        InputStreamResponseListener listener = new InputStreamResponseListener();
        Completions completions = new Completions();
        client.newRequest(server.uri("/big")).onResponse(completions).send(listener);
        listener.get(10, TimeUnit.SECONDS);
        InputStream in = listener.getInputStream();
        assertEquals(10, in.readNBytes(10).length);
        in.close();
        Result result = completions.result.get(10, TimeUnit.SECONDS);
        assertTrue(result.getFailure().getMessage().contains("closed before the end"), result.getFailure().getMessage());
    }
}
