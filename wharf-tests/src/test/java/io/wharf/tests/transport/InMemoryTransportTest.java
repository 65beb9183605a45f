package io.wharf.tests.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.client.Request;
import io.wharf.client.RequestContent;
import io.wharf.client.Response;
import io.wharf.client.Result;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.io.Content;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An {@link HttpClient} over a transport of another module ({@link InMemoryTransport}, written
 * against the exported SPI only): requests with and without content, a response streamed with
 * demand, a failure in the middle of a response, an abort, and the client's own follow-ups —
 * redirects and cookies — over it, with the request and response listeners told as over its own
 * transports.
 */
@Timeout(30)
class InMemoryTransportTest {

    private static final String BASE = "http://in-memory.test";

    private HttpClient client;

    private InMemoryTransport start(Function<InMemoryTransport.Received, InMemoryTransport.Answer> answers) throws Exception {
        InMemoryTransport transport = new InMemoryTransport(answers);
        client = new HttpClient(transport);
        client.start();
        return transport;
    }

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.stop();
        }
    }

    @Test
    void aGetWithoutContentIsAnsweredAndItsListenersToldInOrder() throws Exception {
        InMemoryTransport transport = start(received -> InMemoryTransport.Answer.of(200, "hello " + received.head().target()));
        List<String> events = new CopyOnWriteArrayList<>();
        ContentResponse response = client.newRequest(BASE + "/greet?who=ann")
            .listener(new Request.Listener() {
                @Override
                public void onBegin(Request request) {
                    events.add("request begin");
                }

                @Override
                public void onHeaders(Request request) {
                    events.add("request headers");
                }

                @Override
                public void onCommit(Request request) {
                    events.add("request commit");
                }

                @Override
                public void onSuccess(Request request) {
                    events.add("request success");
                }
            })
            .onResponse(new Response.Listener() {
                @Override
                public void onBegin(Response response) {
                    events.add("response begin " + response.getStatus());
                }

                @Override
                public void onHeaders(Response response) {
                    events.add("response headers");
                }

                @Override
                public void onSuccess(Response response) {
                    events.add("response success");
                }
            })
            .send();
        assertEquals(200, response.getStatus());
        assertEquals("hello /greet?who=ann", response.getContentAsString());
        assertEquals("text/plain", response.getHeaders().get(HttpHeader.CONTENT_TYPE));
        assertEquals(List.of("request begin", "request headers", "request commit", "request success",
            "response begin 200", "response headers", "response success"), events);
        InMemoryTransport.Received received = transport.received.remove();
        assertEquals("GET", received.head().method());
        assertEquals("in-memory.test", received.head().fields().get(HttpHeader.HOST), "the client adds Host as for its own transports");
        assertEquals("", received.content());
        assertEquals(1, transport.connections.get());
    }

    @Test
    void aPostsContentIsReadByTheTransportAndTheConnectionIsReused() throws Exception {
        InMemoryTransport transport = start(received -> InMemoryTransport.Answer.of(201, "got " + received.content()));
        List<String> written = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 3; i++) {
            ContentResponse response = client.POST(BASE + "/echo")
                .content(RequestContent.of("body " + i))
                .listener(new Request.Listener() {
                    @Override
                    public void onContent(Request request, ByteBuffer content) {
                        written.add(StandardCharsets.UTF_8.decode(content).toString());
                    }
                })
                .send();
            assertEquals(201, response.getStatus());
            assertEquals("got body " + i, response.getContentAsString());
        }
        assertEquals(List.of("body 0", "body 1", "body 2"), written);
        InMemoryTransport.Received first = transport.received.remove();
        assertEquals("POST", first.head().method());
        assertEquals("text/plain;charset=utf-8", first.head().fields().get(HttpHeader.CONTENT_TYPE));
        assertEquals(6, first.head().contentLength());
        assertEquals(1, transport.connections.get(), "one connection, given back to the client's pool after each exchange");
        assertEquals(1, client.getDestinations().get(0).getIdleConnectionCount());
    }

    @Test
    void manyThreadsShareTheBoundedPoolOfItsConnections() throws Exception {
        InMemoryTransport transport = start(received -> InMemoryTransport.Answer.of(200, received.head().target()));
        client.setMaxConnectionsPerDestination(4);
        int threads = 8;
        int each = 50;
        ExecutorService senders = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<CompletableFuture<ContentResponse>>>> sent = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                sent.add(senders.submit(() -> {
                    List<CompletableFuture<ContentResponse>> responses = new ArrayList<>();
                    for (int i = 0; i < each; i++) {
                        responses.add(client.newRequest(BASE + "/" + thread + "/" + i).sendAsync());
                    }
                    return responses;
                }));
            }
            for (int t = 0; t < threads; t++) {
                List<CompletableFuture<ContentResponse>> responses = sent.get(t).get(20, TimeUnit.SECONDS);
                for (int i = 0; i < each; i++) {
                    ContentResponse response = responses.get(i).get(20, TimeUnit.SECONDS);
                    assertEquals(200, response.getStatus());
                    assertEquals("/" + t + "/" + i, response.getContentAsString());
                }
            }
        } finally {
            senders.shutdownNow();
        }
        assertEquals(threads * each, transport.received.size());
        assertTrue(transport.connections.get() <= 4, () -> transport.connections.get() + " connections opened, at most 4 allowed");
    }

    @Test
    void aStreamedResponseGoesNoFurtherThanTheListenerDemands() throws Exception {
        start(received -> new InMemoryTransport.Answer(200, HttpFields.build(), List.of("one ", "two ", "three"), null));
        BlockingQueue<String> chunks = new LinkedBlockingQueue<>();
        BlockingQueue<Runnable> demands = new LinkedBlockingQueue<>();
        CompletableFuture<Result> done = new CompletableFuture<>();
        client.newRequest(BASE + "/stream").send(new Response.Listener() {
            @Override
            public void onContent(Response response, Content.Chunk chunk, Runnable demand) {
                chunks.add(StandardCharsets.UTF_8.decode(chunk.getByteBuffer()).toString());
                demands.add(demand);
            }

            @Override
            public void onComplete(Result result) {
                done.complete(result);
            }
        });
        for (String expected : List.of("one ", "two ", "three")) {
            assertEquals(expected, chunks.poll(10, TimeUnit.SECONDS));
            Runnable demand = demands.poll(10, TimeUnit.SECONDS);
            // Without demand nothing more comes and the exchange stays open.
            assertNull(chunks.poll(200, TimeUnit.MILLISECONDS), "a chunk came before the listener demanded it");
            assertFalse(done.isDone());
            demand.run();
        }
        Result result = done.get(10, TimeUnit.SECONDS);
        assertTrue(result.isSucceeded(), () -> "failed: " + result);
        assertEquals(200, result.response().getStatus());
    }

    @Test
    void aFailureInTheMiddleOfAResponseFailsTheExchange() throws Exception {
        IOException cut = new IOException("the in-memory peer went away");
        InMemoryTransport transport = start(received -> new InMemoryTransport.Answer(200, HttpFields.build(), List.of("partial"), cut));
        List<String> content = new CopyOnWriteArrayList<>();
        CompletableFuture<Throwable> failed = new CompletableFuture<>();
        CompletableFuture<Result> done = new CompletableFuture<>();
        client.newRequest(BASE + "/cut").send(new Response.Listener() {
            @Override
            public void onContent(Response response, Content.Chunk chunk, Runnable demand) {
                content.add(StandardCharsets.UTF_8.decode(chunk.getByteBuffer()).toString());
                demand.run();
            }

            @Override
            public void onFailure(Response response, Throwable failure) {
                failed.complete(failure);
            }

            @Override
            public void onComplete(Result result) {
                done.complete(result);
            }
        });
        assertSame(cut, failed.get(10, TimeUnit.SECONDS));
        Result result = done.get(10, TimeUnit.SECONDS);
        assertSame(cut, result.responseFailure());
        assertEquals(List.of("partial"), content);
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> client.GET(BASE + "/cut"));
        assertSame(cut, thrown.getCause());
        assertEquals(2, transport.connections.get(), "a connection whose response failed is not reused");
    }

    @Test
    void anAbortEndsTheExchangeAndTheConnection() throws Exception {
        InMemoryTransport transport = start(received -> new InMemoryTransport.Answer(200, HttpFields.build(), List.of("a", "b"), null));
        IOException reason = new IOException("the application changed its mind");
        CompletableFuture<Result> done = new CompletableFuture<>();
        Request request = client.newRequest(BASE + "/slow");
        request.send(new Response.Listener() {
            @Override
            public void onContent(Response response, Content.Chunk chunk, Runnable demand) {
                // Aborts instead of demanding: the transport must stop and let go of the connection.
                request.abort(reason);
            }

            @Override
            public void onComplete(Result result) {
                done.complete(result);
            }
        });
        Result result = done.get(10, TimeUnit.SECONDS);
        assertSame(reason, result.responseFailure());
        assertSame(reason, transport.aborts.poll(), "the connection was told of the abort");
        assertEquals(0, client.getDestinations().get(0).getConnectionCount(), "the aborted connection left the pool");
        assertEquals("ab", client.newRequest(BASE + "/again").send().getContentAsString(), "the next request goes on a new connection");
        assertEquals(2, transport.connections.get());
    }

    @Test
    void redirectsAndCookiesWorkOverIt() throws Exception {
        InMemoryTransport transport = start(received -> switch (received.head().target()) {
            case "/login" -> new InMemoryTransport.Answer(302, HttpFields.build()
                .add("Location", "/home").add("Set-Cookie", "session=abc; Path=/"), List.of(), null);
            case "/home" -> InMemoryTransport.Answer.of(200, "cookie " + received.head().fields().get(HttpHeader.COOKIE));
            default -> InMemoryTransport.Answer.of(404, "no");
        });
        ContentResponse response = client.GET(BASE + "/login");
        assertEquals(200, response.getStatus());
        assertEquals("cookie session=abc", response.getContentAsString());
        assertEquals(List.of("/login", "/home"), transport.received.stream().map(received -> received.head().target()).toList());
    }
}
