package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.client.HttpClient;
import io.wharf.examples.WebSocketEchoServer;
import io.wharf.websocket.client.WebSocketClient;
import io.wharf.websocket.core.WebSocketConfiguration;
import io.wharf.websocket.deflate.PerMessageDeflateFactory;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Autobahn WebSocket conformance cases run against Wharf's client: kosoku listens in
 * fuzzingserver mode and the client drives it the Autobahn way — {@code /getCaseCount}, then
 * {@code /runCase?case=N&agent=wharf} for every case with an echo listener (each session runs
 * until the case closes it), then {@code /updateReports?agent=wharf} — and every case of
 * sections 1 to 13 must pass (OK, NON-STRICT or INFORMATIONAL), compression included: the
 * client offers permessage-deflate with the {@code client_no_context_takeover} promise, which
 * the cases of 13.2, 13.5 and 13.6 need to agree to it.
 */
class AutobahnClientTest {

    private static final String AGENT = "wharf";

    @TempDir
    Path directory;

    private Process kosoku;
    private HttpClient httpClient;

    @AfterEach
    void stop() throws Exception {
        if (httpClient != null) {
            httpClient.stop();
        }
        if (kosoku != null) {
            kosoku.destroy();
            if (!kosoku.waitFor(10, TimeUnit.SECONDS)) {
                kosoku.destroyForcibly();
            }
        }
    }

    /** The echo server's echo, which also tells the first text and when the case ends the session. */
    static final class Echo extends WebSocketEchoServer.Echo {
        final CompletableFuture<String> firstText = new CompletableFuture<>();
        final CompletableFuture<Integer> closed = new CompletableFuture<>();

        @Override
        public void onText(String text) {
            firstText.complete(text);
            super.onText(text);
        }

        @Override
        public void onClose(int code, String reason) {
            closed.complete(code);
        }
    }

    @Test
    void everyCasePassesAgainstTheClient() throws Exception {
        String executable = Kosoku.executable();
        int port = freePort();
        Path reports = directory.resolve("reports");
        kosoku = new ProcessBuilder(executable, "-m", "fuzzingserver", "-o", reports.toString(), "127.0.0.1:" + port)
            .directory(directory.toFile()).redirectErrorStream(true).redirectOutput(directory.resolve("kosoku.log").toFile()).start();
        awaitListening(port);

        httpClient = new HttpClient();
        httpClient.start();
        WebSocketClient client = new WebSocketClient(httpClient);
        int limit = 16 * 1024 * 1024;
        client.setConfiguration(WebSocketConfiguration.defaults().withMaxMessageSize(limit)
            .withTimeouts(Duration.ofSeconds(60), Duration.ofSeconds(5)).withMaxQueuedFrames(16 * 1024));
        client.addExtension(new PerMessageDeflateFactory(java.util.zip.Deflater.BEST_SPEED, true, 8));
        String base = "ws://127.0.0.1:" + port;

        long start = System.nanoTime();
        Echo counter = new Echo();
        client.connect(counter, URI.create(base + "/getCaseCount")).get(10, TimeUnit.SECONDS);
        int count = Integer.parseInt(counter.firstText.get(10, TimeUnit.SECONDS).trim());
        counter.closed.get(10, TimeUnit.SECONDS);
        assertTrue(count >= 517, "kosoku has " + count + " cases, expected the 517 of sections 1-13");
        // Two cases at a time, one per core, as the server's run does.
        List<String> stuck = java.util.Collections.synchronizedList(new ArrayList<>());
        AtomicInteger next = new AtomicInteger(1);
        List<CompletableFuture<Void>> workers = new ArrayList<>();
        for (int w = 0; w < 2; w++) {
            workers.add(CompletableFuture.runAsync(() -> {
                for (int i = next.getAndIncrement(); i <= count; i = next.getAndIncrement()) {
                    runCase(client, base, i, stuck);
                }
            }));
        }
        CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(30, TimeUnit.MINUTES);
        Echo update = new Echo();
        client.connect(update, URI.create(base + "/updateReports?agent=" + AGENT)).get(10, TimeUnit.SECONDS);
        update.closed.get(2, TimeUnit.MINUTES);
        Path index = reports.resolve("index.json");
        for (int i = 0; i < 100 && !Files.exists(index); i++) {
            Thread.sleep(100);
        }
        assertTrue(Files.exists(index), "no report at " + index + ": " + Files.readString(directory.resolve("kosoku.log")));
        Kosoku.Report report = Kosoku.read(index);
        System.out.println("Autobahn cases 1-13 against WebSocketClient: " + report.cases() + " cases, " + report.behaviors()
            + " in " + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) + " s; passed but not OK: " + report.notOk());
        assertTrue(stuck.isEmpty(), "sessions that never closed: " + stuck);
        assertTrue(report.cases() >= 517, "expected the 517 cases of sections 1-13 in the report, found " + report.cases());
        assertTrue(report.failed().isEmpty(), "failed cases: " + report.failed());
    }

    /** Runs case {@code i} with an echo listener until the case closes the session. */
    private static void runCase(WebSocketClient client, String base, int i, List<String> stuck) {
        Echo echo = new Echo();
        try {
            client.connect(echo, URI.create(base + "/runCase?case=" + i + "&agent=" + AGENT)).get(10, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException x) {
            // A case may refuse or break the handshake on purpose; its report says whether that was right.
            return;
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            echo.closed.get(2, TimeUnit.MINUTES);
        } catch (ExecutionException | TimeoutException x) {
            stuck.add("case " + i);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private void awaitListening(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
                assertNotNull(socket);
                return;
            } catch (IOException x) {
                if (!kosoku.isAlive() || System.nanoTime() > deadline) {
                    throw new AssertionError("kosoku did not listen on " + port + ": "
                        + Files.readString(directory.resolve("kosoku.log")), x);
                }
                Thread.sleep(100);
            }
        }
    }
}
