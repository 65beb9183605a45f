package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import io.wharf.http.HttpHeader;
import io.wharf.io.Content;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A connection borrows its parser, generator and response writer (its codec) while a request
 * is under way and gives them back when idle: idle connections hold none, a partial head
 * keeps one, and codecs passed from connection to connection never mix two clients' requests,
 * responses or learned field lines.
 */
class CodecLendingTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** Answers the request's User-Agent and path, so a response shows whose request it answers. */
    private static Handler whoAsked(InvocationType type) {
        return Handler.of(type, (request, response, callback) -> {
            String userAgent = request.getHeaders().get(HttpHeader.USER_AGENT);
            String body = userAgent + "|" + request.getHttpURI().getPath() + "|" + request.getLength();
            consumeThenAnswer(request, response, body, callback);
            return true;
        });
    }

    /** Reads the content to its end without blocking (demanding more while it is not all here), then answers {@code body}. */
    private static void consumeThenAnswer(Request request, Response response, String body, Callback callback) {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(() -> consumeThenAnswer(request, response, body, callback));
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                callback.failed(chunk.getFailure());
                return;
            }
            boolean last = chunk.isLast();
            chunk.release();
            if (last) {
                Response.write(response, true, body, callback);
                return;
            }
        }
    }

    @Test
    void idleKeepAliveConnectionsHoldNoCodec() throws Exception {
        LocalServer local = new LocalServer(leaks.pool()).start(whoAsked(InvocationType.NON_BLOCKING));
        server = local.server;
        HttpConnectionFactory factory = local.connector.getConnectionFactory(HttpConnectionFactory.class);
        List<LocalConnector.Client> clients = new ArrayList<>();
        try {
            for (int i = 0; i < 100; i++) {
                LocalConnector.Client client = local.connector.connect();
                clients.add(client);
                client.send("GET /" + i + " HTTP/1.1\r\nHost: h\r\nUser-Agent: client-" + i + "\r\n\r\n");
                String response = client.readResponse(WAIT);
                assertTrue(response.endsWith("client-" + i + "|/" + i + "|0"), response);
                // The response is read; the connection gives its codec back right after writing it.
                awaitIdleCodecs(factory, 1);
            }
            // A hundred open keep-alive connections, one codec made: each borrowed the one the last gave back.
            assertEquals(1, factory.getIdleCodecCount());

            // A head that arrived in part keeps its codec (it holds the partial line and times the head).
            clients.get(0).send("GET /late HTTP/1.1\r\nHost: h\r\nUser-Agent: cli");
            awaitIdleCodecs(factory, 0);
            clients.get(1).send("GET /other HTTP/1.1\r\nHost: h\r\nUser-Agent: client-1\r\n\r\n");
            assertTrue(clients.get(1).readResponse(WAIT).endsWith("client-1|/other|0"));
            awaitIdleCodecs(factory, 1);
            clients.get(0).send("ent-0\r\n\r\n");
            assertTrue(clients.get(0).readResponse(WAIT).endsWith("client-0|/late|0"));
            awaitIdleCodecs(factory, 2);
        } finally {
            for (LocalConnector.Client client : clients) {
                client.close();
            }
        }
    }

    @Test
    void aCodecMadeForOldSettingsIsNotLentAfterTheyChange() throws Exception {
        LocalServer local = new LocalServer(leaks.pool()).start(whoAsked(InvocationType.NON_BLOCKING));
        server = local.server;
        String longLine = "GET /x HTTP/1.1\r\nHost: h\r\nUser-Agent: " + "a".repeat(3000) + "\r\n\r\n";
        assertTrue(local.connector.getResponse(longLine).startsWith("HTTP/1.1 200"));
        local.configuration.setRequestHeaderSize(1024);
        assertTrue(local.connector.getResponse(longLine).startsWith("HTTP/1.1 431"), "parsed with the new limit");
    }

    private static void awaitIdleCodecs(HttpConnectionFactory factory, int expected) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (factory.getIdleCodecCount() != expected) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("idle codecs: " + factory.getIdleCodecCount() + ", expected " + expected);
            }
            Thread.sleep(1);
        }
    }

    /**
     * Many clients on real sockets, each with its own User-Agent, sending keep-alive requests
     * one at a time, pipelined in bursts, and split at random points with pauses (so heads
     * arrive in parts while other connections borrow and return codecs): every response must
     * answer its own client's request, in order.
     */
    @ParameterizedTest
    @EnumSource(value = InvocationType.class, names = {"NON_BLOCKING", "BLOCKING"})
    void codecsPassedBetweenConnectionsNeverMixClients(InvocationType handlerType) throws Exception {
        QueuedThreadPool threads = new QueuedThreadPool();
        server = new Server(threads, leaks.pool());
        ServerConnector connector = new ServerConnector(server, 2, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(whoAsked(handlerType));
        server.start();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), connector.getLocalPort());

        int clients = 32;
        int connectionsPerClient = 4;
        int requestsPerConnection = 60;
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int c = 0; c < clients; c++) {
                int client = c;
                results.add(pool.submit(() -> runClient(address, client, connectionsPerClient, requestsPerConnection)));
            }
            int answered = 0;
            for (Future<Integer> result : results) {
                answered += result.get(120, TimeUnit.SECONDS);
            }
            assertEquals(clients * connectionsPerClient * requestsPerConnection, answered);
        } finally {
            pool.shutdownNow();
        }
    }

    private static int runClient(InetSocketAddress address, int client, int connections, int requests) throws IOException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        String userAgent = "stress-client-" + client + "/" + "x".repeat(client % 7);
        int answered = 0;
        for (int k = 0; k < connections; k++) {
            try (Socket socket = new Socket()) {
                socket.connect(address, 5000);
                socket.setSoTimeout(20_000);
                socket.setTcpNoDelay(true);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                int sent = 0;
                while (sent < requests) {
                    int burst = Math.min(requests - sent, 1 + random.nextInt(4));
                    StringBuilder bytes = new StringBuilder();
                    for (int i = 0; i < burst; i++) {
                        int n = sent + i;
                        String body = n % 3 == 0 ? "b".repeat(n % 50) : "";
                        bytes.append(n % 3 == 0 ? "POST" : "GET").append(" /c").append(client).append("/r").append(n)
                                .append(" HTTP/1.1\r\nHost: localhost\r\nUser-Agent: ").append(userAgent).append("\r\n");
                        if (n % 3 == 0) {
                            bytes.append("Content-Length: ").append(body.length()).append("\r\n");
                        }
                        bytes.append("\r\n").append(body);
                    }
                    byte[] raw = bytes.toString().getBytes(StandardCharsets.ISO_8859_1);
                    if (random.nextInt(4) == 0) {
                        // Split anywhere, with a pause: a head or body arrives in two reads.
                        int split = 1 + random.nextInt(raw.length - 1);
                        out.write(raw, 0, split);
                        out.flush();
                        sleepQuietly(random.nextInt(3));
                        out.write(raw, split, raw.length - split);
                    } else {
                        out.write(raw);
                    }
                    out.flush();
                    for (int i = 0; i < burst; i++) {
                        int n = sent + i;
                        String expected = userAgent + "|/c" + client + "/r" + n + "|" + (n % 3 == 0 ? n % 50 : 0);
                        String body = readBody(in);
                        if (!expected.equals(body)) {
                            throw new AssertionError("client " + client + " request " + n + " got [" + body + "], expected [" + expected + "]");
                        }
                        answered++;
                    }
                    sent += burst;
                }
            }
        }
        return answered;
    }

    /** Reads one response with a Content-Length and returns its content. */
    private static String readBody(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.write(b);
            matched = (b == (matched % 2 == 0 ? '\r' : '\n')) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        if (!text.startsWith("HTTP/1.1 200 ")) {
            throw new AssertionError("not a 200: " + text);
        }
        int at = text.toLowerCase(java.util.Locale.ROOT).indexOf("content-length: ");
        int end = text.indexOf('\r', at);
        int length = Integer.parseInt(text.substring(at + 16, end).trim());
        return new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
    }

    private static void sleepQuietly(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }
}
