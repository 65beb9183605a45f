package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpVersion;
import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The client over HTTP/2 against Wharf's own server: h2c with prior knowledge, many exchanges
 * at once on one connection, the same listeners and content as HTTP/1.1.
 */
@Timeout(30)
class Http2ClientTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** Answers "METHOD /path|version|content". */
    static Handler echo() {
        return Handler.of((request, response, callback) -> {
            String content = io.wharf.server.Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            io.wharf.server.Response.write(response, true, request.getMethod() + " " + request.getHttpURI().getPath() + "|"
                    + request.getConnectionMetaData().getHttpVersion() + "|" + content, callback);
            return true;
        });
    }

    @Test
    void getAndPostOverH2cWithPriorKnowledge() throws Exception {
        Http2TestServer server = loopback.http2Server(echo(), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });

        ContentResponse get = client.GET(server.uri("/hello"));
        assertEquals(200, get.getStatus());
        assertEquals(HttpVersion.HTTP_2, get.getVersion());
        assertEquals("GET /hello|HTTP/2.0|", get.getContentAsString());

        ContentResponse post = client.POST(server.uri("/items")).content(RequestContent.of("x".repeat(100_000))).send();
        assertEquals("POST /items|HTTP/2.0|" + "x".repeat(100_000), post.getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "one connection carried both");
    }

    @Test
    void manyExchangesAtOnceShareOneConnection() throws Exception {
        Set<String> connections = ConcurrentHashMap.newKeySet();
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            connections.add(request.getConnectionMetaData().getId());
            io.wharf.server.Response.write(response, true, request.getHttpURI().getPath(), callback);
            return true;
        }), setup -> setup.session.setMaxConcurrentStreams(256));
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        // The first opens the connection; then 200 go at once, within the server's 256 streams.
        assertEquals(200, client.GET(server.uri("/first")).getStatus());
        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            BufferingResponseListener listener = new BufferingResponseListener(1 << 16);
            client.newRequest(server.uri("/" + i)).send(listener);
            CompletableFuture<ContentResponse> future = listener.future();
            responses.add(future);
        }
        for (int i = 0; i < 200; i++) {
            assertEquals("/" + i, responses.get(i).get(20, TimeUnit.SECONDS).getContentAsString());
        }
        assertEquals(1, connections.size(), "every exchange went on the one connection: " + connections);
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
        assertTrue(client.getDestinations().get(0).getQueuedRequestCount() == 0);
    }

    @Test
    void theServersConcurrentStreamsBoundEachConnection() throws Exception {
        java.util.Map<String, java.util.concurrent.atomic.AtomicInteger> active = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger most = new java.util.concurrent.atomic.AtomicInteger();
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            var now = active.computeIfAbsent(request.getConnectionMetaData().getId(), id -> new java.util.concurrent.atomic.AtomicInteger());
            most.accumulateAndGet(now.incrementAndGet(), Math::max);
            Thread.sleep(150);
            now.decrementAndGet();
            io.wharf.server.Response.write(response, true, "ok", callback);
            return true;
        }), setup -> setup.session.setMaxConcurrentStreams(3));
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals(200, client.GET(server.uri("/first")).getStatus());
        List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            BufferingResponseListener listener = new BufferingResponseListener(1024);
            client.newRequest(server.uri("/" + i)).send(listener);
            responses.add(listener.future());
        }
        for (CompletableFuture<ContentResponse> response : responses) {
            assertEquals("ok", response.get(20, TimeUnit.SECONDS).getContentAsString());
        }
        assertEquals(3, most.get(), "no connection carried more than the 3 streams its server allows, and one carried 3");
    }

    @Test
    void uploadsTheHandlerNeverReadsNeitherFailNorStallTheConnection() throws Exception {
        // Each request's 300 KB arrive while the handler sleeps and are dropped unread when it
        // answers; the server then resets the stream with NO_ERROR, which must not fail the
        // response (RFC 9113 section 8.1). 40 of them are three times the server's 4 MiB
        // connection window, so the connection would stall if dropped content were not credited.
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            if (request.getHttpURI().getPath().equals("/read")) {
                int read = io.wharf.server.Request.asInputStream(request).readAllBytes().length;
                io.wharf.server.Response.write(response, true, "read " + read, callback);
                return true;
            }
            Thread.sleep(20);
            io.wharf.server.Response.write(response, true, "not read", callback);
            return true;
        }), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        byte[] upload = new byte[300 * 1024];
        for (int i = 0; i < 40; i++) {
            ContentResponse response = client.POST(server.uri("/" + i)).content(RequestContent.of(upload))
                    .timeout(java.time.Duration.ofSeconds(10)).send();
            assertEquals("not read", response.getContentAsString(), "request " + i);
        }
        // The connection's window is whole again: an upload that is read goes through.
        assertEquals("read 1048576", client.POST(server.uri("/read")).content(RequestContent.of(new byte[1 << 20]))
                .timeout(java.time.Duration.ofSeconds(10)).send().getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void largeUploadAndDownloadUnderFlowControl() throws Exception {
        byte[] big = new byte[8 * 1024 * 1024 + 7];
        new java.util.Random(7).nextBytes(big);
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            byte[] got = io.wharf.server.Request.asInputStream(request).readAllBytes();
            response.getHeaders().put("X-Digest", Integer.toString(java.util.Arrays.hashCode(got)));
            try (java.io.OutputStream out = io.wharf.server.Response.asOutputStream(response)) {
                out.write(big);
            }
            callback.succeeded();
            return true;
        }), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> c.setMaxResponseContentBytes(16 << 20));
        ContentResponse response = client.POST(server.uri("/big")).content(RequestContent.of(big)).send();
        assertEquals(200, response.getStatus());
        assertEquals(Integer.toString(java.util.Arrays.hashCode(big)), response.getHeaders().get("X-Digest"), "the upload arrived whole");
        assertTrue(java.util.Arrays.equals(big, response.getContent()), "the download arrived whole");
    }

    @Test
    void aListenerThatDoesNotDemandHoldsTheServerBackByTheStreamWindow() throws Exception {
        java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
        int total = 16 * 1024 * 1024;
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            try (java.io.OutputStream out = io.wharf.server.Response.asOutputStream(response)) {
                byte[] piece = new byte[16 * 1024];
                for (int sent = 0; sent < total; sent += piece.length) {
                    out.write(piece);
                    out.flush();
                    written.addAndGet(piece.length);
                }
            }
            callback.succeeded();
            return true;
        }), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> c.getHttp2Configuration().setInitialStreamWindow(256 * 1024));
        java.util.concurrent.BlockingQueue<Runnable> demands = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
        CompletableFuture<Result> done = new CompletableFuture<>();
        client.newRequest(server.uri("/stream")).send(new Response.Listener() {
            @Override
            public void onContent(Response response, io.wharf.io.Content.Chunk chunk, Runnable demand) {
                received.addAndGet(chunk.remaining());
                demands.add(demand);
            }

            @Override
            public void onComplete(Result result) {
                done.complete(result);
            }
        });
        Runnable first = demands.poll(10, TimeUnit.SECONDS);
        Thread.sleep(500);
        // The client's stream window is 256 KiB: without demand the server cannot write much more.
        assertTrue(written.get() <= 512 * 1024, "the server wrote " + written.get() + " bytes to a reader that did not demand");
        demands.add(first);
        while (!done.isDone()) {
            Runnable demand = demands.poll(100, TimeUnit.MILLISECONDS);
            if (demand != null) {
                demand.run();
            }
        }
        assertTrue(done.get().isSucceeded(), () -> String.valueOf(done.join().getFailure()));
        assertEquals(total, received.get());
    }

    @Test
    void trailersAndEarlyHintsArriveAsOverHttp1() throws Exception {
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            response.writeInterim(103, io.wharf.http.HttpFields.build().add("Link", "</style.css>; rel=preload"), io.wharf.util.Callback.NOOP);
            response.setTrailersSupplier(() -> io.wharf.http.HttpFields.build().add("X-Checksum", "abc"));
            io.wharf.server.Response.write(response, true, "body", callback);
            return true;
        }), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        List<String> interim = new java.util.concurrent.CopyOnWriteArrayList<>();
        ContentResponse response = client.newRequest(server.uri("/hints")).onResponse(new Response.Listener() {
            @Override
            public void onInformational(Response hint) {
                interim.add(hint.getStatus() + " " + hint.getHeaders().get("link"));
            }
        }).send();
        assertEquals("body", response.getContentAsString());
        assertEquals(List.of("103 </style.css>; rel=preload"), interim);
        assertEquals("abc", response.getTrailers().get("x-checksum"));
    }

    @Test
    void anAbortMidDownloadResetsOnlyItsStream() throws Exception {
        CompletableFuture<Throwable> serverSaw = new CompletableFuture<>();
        Http2TestServer server = loopback.http2Server(Handler.of((request, response, callback) -> {
            if (request.getHttpURI().getPath().equals("/small")) {
                io.wharf.server.Response.write(response, true, "small", callback);
                return true;
            }
            try (java.io.OutputStream out = io.wharf.server.Response.asOutputStream(response)) {
                byte[] piece = new byte[16 * 1024];
                for (int i = 0; i < 4096; i++) {
                    out.write(piece);
                    out.flush();
                }
            } catch (java.io.IOException x) {
                serverSaw.complete(x);
                callback.failed(x);
                return true;
            }
            callback.succeeded();
            return true;
        }), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals("small", client.GET(server.uri("/small")).getContentAsString());
        CompletableFuture<Result> done = new CompletableFuture<>();
        java.util.concurrent.atomic.AtomicLong received = new java.util.concurrent.atomic.AtomicLong();
        client.newRequest(server.uri("/large")).send(new Response.Listener() {
            @Override
            public void onContent(Response response, io.wharf.io.Content.Chunk chunk, Runnable demand) {
                if (received.addAndGet(chunk.remaining()) > 256 * 1024) {
                    response.abort(new java.util.concurrent.CancellationException("enough"));
                } else {
                    demand.run();
                }
            }

            @Override
            public void onComplete(Result result) {
                done.complete(result);
            }
        });
        Result result = done.get(10, TimeUnit.SECONDS);
        assertTrue(result.getFailure() instanceof java.util.concurrent.CancellationException, String.valueOf(result.getFailure()));
        assertTrue(serverSaw.get(10, TimeUnit.SECONDS) instanceof java.io.IOException, "the server's write failed on the reset stream");
        assertEquals("small", client.GET(server.uri("/small")).getContentAsString(), "the connection goes on");
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }

    @Test
    void exchangesAbortedAtRandomMomentsEachCompleteOnceAndLeakNothing() throws Exception {
        Http2TestServer server = loopback.http2Server(echo(), setup -> { });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> { });
        assertEquals(200, client.GET(server.uri("/warm")).getStatus());
        java.util.Random random = new java.util.Random(11);
        java.util.concurrent.ScheduledExecutorService timer = java.util.concurrent.Executors.newSingleThreadScheduledExecutor();
        java.util.concurrent.atomic.AtomicInteger completions = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(100);
        try {
            for (int i = 0; i < 100; i++) {
                Request request = i % 2 == 0 ? client.newRequest(server.uri("/get/" + i))
                        : client.POST(server.uri("/post/" + i)).content(RequestContent.of(new byte[64 * 1024 + i]));
                request.send(new BufferingResponseListener(1 << 20) {
                    @Override
                    public void onComplete(Result result) {
                        completions.incrementAndGet();
                        done.countDown();
                    }
                });
                if (random.nextBoolean()) {
                    timer.schedule(() -> request.abort(new java.util.concurrent.CancellationException("test")),
                            random.nextInt(3000), TimeUnit.MICROSECONDS);
                }
            }
            assertTrue(done.await(20, TimeUnit.SECONDS), "every exchange completed");
        } finally {
            timer.shutdownNow();
        }
        Thread.sleep(100);
        assertEquals(100, completions.get(), "each exchange completed once");
        assertTrue(client.GET(server.uri("/after")).getContentAsString().startsWith("GET /after|HTTP/2.0"));
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "aborts reset streams, not the connection");
    }

    @Test
    void plainHttpThroughAForwardingProxyStaysHttp11() throws Exception {
        List<String> heads = new java.util.concurrent.CopyOnWriteArrayList<>();
        ScriptedServer proxy = loopback.scripted(peer -> {
            String head;
            while ((head = peer.readHead()) != null) {
                heads.add(head.substring(0, head.indexOf('\r')));
                peer.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
            }
        });
        HttpClient client = loopback.client(HttpTransport.HTTP_2, c -> c.setProxies(List.of(Proxy.http("127.0.0.1", proxy.port()))));
        ContentResponse response = client.GET("http://origin.test/x");
        assertEquals("ok", response.getContentAsString());
        assertEquals(HttpVersion.HTTP_1_1, response.getVersion());
        assertEquals(List.of("GET http://origin.test/x HTTP/1.1"), heads);
    }
}
