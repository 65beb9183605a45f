package io.wharf.server.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.http2.SocketHttp2Client;
import io.wharf.server.http2.SocketHttp2Client.Frame;
import io.wharf.server.proxy.ProxyConnectionFactory;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A graceful stop over every transport the server speaks: plain TCP, TLS, the PROXY protocol,
 * and TLS behind the PROXY protocol. A download in flight when the stop begins finishes whole
 * (HTTP/1.1, and h2 — h2c on plain TCP, h2 by ALPN on TLS — with a GOAWAY NO_ERROR first),
 * then the connection closes cleanly; over TLS the close_notify comes after the response's last
 * byte ({@link EngineTlsClient} tells it from a bare end of input). An idle h2 connection gets
 * GOAWAY NO_ERROR before its end of input, an idle HTTP/1.1 one a clean close (a close_notify
 * over TLS). Stops racing TLS handshakes that pick h2 leave no connection behind. Raw sockets,
 * {@code SSLSocket}s and the engine client drive the server; every test runs on the
 * leak-tracking pool.
 */
class GracefulStopTest {

    /** The content after the first part: several writes, so some are still to come when the stop begins. */
    private static final int REST = 1 << 20;
    private static final int FIRST = 16 * 1024;
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(20);

    /** How the client reaches the server. */
    enum Transport {
        PLAIN(false, false), TLS(true, false), PROXY(false, true), PROXY_TLS(true, true);

        final boolean tls;
        final boolean proxied;

        Transport(boolean tls, boolean proxied) {
            this.tls = tls;
            this.proxied = proxied;
        }
    }

    @TempDir
    static Path keys;
    private static Path store;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final CountDownLatch started = new CountDownLatch(1);
    private final CountDownLatch release = new CountDownLatch(1);
    private Server server;
    private ServerConnector connector;

    @BeforeAll
    static void makeKeys() throws Exception {
        store = TestKeys.keyStore(keys, "graceful", "localhost");
    }

    @AfterEach
    void stop() throws Exception {
        release.countDown();
        if (server != null) {
            server.stop();
        }
    }

    /** Byte {@code i} of the download. */
    private static byte at(int i) {
        return (byte) (i % 251);
    }

    /** GET /download: the first part, then (once released) the rest in several writes. */
    private Handler download() {
        return Handler.of((request, response, callback) -> {
            response.getHeaders().put("Content-Length", Integer.toString(FIRST + REST));
            byte[] content = new byte[FIRST + REST];
            for (int i = 0; i < content.length; i++) {
                content[i] = at(i);
            }
            try (OutputStream out = Response.asOutputStream(response)) {
                out.write(content, 0, FIRST);
                out.flush();
                started.countDown();
                assertTrue(release.await(30, TimeUnit.SECONDS), "released");
                for (int at = FIRST; at < content.length; at += 64 * 1024) {
                    out.write(content, at, Math.min(64 * 1024, content.length - at));
                }
            }
            callback.succeeded();
            return true;
        });
    }

    private void start(Transport transport, boolean h2) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        server.setStopTimeout(STOP_TIMEOUT);
        List<ConnectionFactory> factories = new ArrayList<>();
        if (transport.proxied) {
            factories.add(new ProxyConnectionFactory(transport.tls ? TlsConnectionFactory.PROTOCOL : "HTTP/1.1"));
        }
        if (transport.tls) {
            factories.add(new TlsConnectionFactory(new ServerTlsContext().keyStore(store, TestKeys.PASSWORD)));
        }
        factories.add(new HttpConnectionFactory());
        if (h2) {
            factories.add(transport.tls ? new Http2ConnectionFactory() : new Http2CleartextConnectionFactory());
        }
        connector = new ServerConnector(server, 1, factories.toArray(ConnectionFactory[]::new));
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(download());
        server.start();
    }

    /** Connects as {@code transport} says, offering {@code alpn} over TLS. */
    private Socket connect(Transport transport, String alpn) throws Exception {
        Socket socket = connectTcp(transport);
        if (!transport.tls) {
            return socket;
        }
        SSLContext trusting = TestKeys.clientContext(null, store);
        SSLSocket tls = (SSLSocket) trusting.getSocketFactory().createSocket(socket, "localhost", connector.getLocalPort(), true);
        SSLParameters parameters = tls.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {alpn});
        tls.setSSLParameters(parameters);
        tls.startHandshake();
        assertEquals(alpn, tls.getApplicationProtocol());
        return tls;
    }

    /** Connects over TCP, and sends a PROXY header when {@code transport} is proxied. */
    private Socket connectTcp(Transport transport) throws IOException {
        Socket socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", connector.getLocalPort()), 5000);
        socket.setSoTimeout(10_000);
        if (transport.proxied) {
            socket.getOutputStream().write("PROXY TCP4 192.0.2.1 127.0.0.1 40000 443\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        return socket;
    }

    /** Stops the server on another thread once the handler is under way; completes when the stop returned. */
    private CompletableFuture<Void> stopWhileDownloading() throws InterruptedException {
        assertTrue(started.await(10, TimeUnit.SECONDS), "the handler started");
        CompletableFuture<Void> stopped = stopInTheBackground();
        Deadline.await(connector::isShutdown, Duration.ofSeconds(10)); // the connector began its graceful shutdown
        // The connector asks each connection to finish right after it sets the flag: give it
        // that moment, so the rest of the download is written after the connection was asked.
        Thread.sleep(100);
        return stopped;
    }

    /** Stops the server on another thread; completes when the stop returned. */
    private CompletableFuture<Void> stopInTheBackground() {
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        Thread.ofPlatform().start(() -> {
            try {
                server.stop();
                stopped.complete(null);
            } catch (Throwable x) {
                stopped.completeExceptionally(x);
            }
        });
        return stopped;
    }

    /** The stop returned well within its timeout, with no connection left open. */
    private void assertStopped(CompletableFuture<Void> stopped) throws Exception {
        stopped.get(STOP_TIMEOUT.toSeconds() / 2, TimeUnit.SECONDS);
        assertEquals(0, connector.getConnectionCount());
        assertTrue(server.isStopped());
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anHttp11DownloadInFlightFinishesWholeThenTheConnectionClosesCleanly(Transport transport) throws Exception {
        start(transport, false);
        try (Socket socket = connect(transport, "http/1.1")) {
            OutputStream out = socket.getOutputStream();
            out.write("GET /download HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            String head = readHead(in);
            assertTrue(head.startsWith("HTTP/1.1 200 "), head);
            CompletableFuture<Void> stopped = stopWhileDownloading();
            release.countDown();
            byte[] content = in.readNBytes(FIRST + REST);
            assertEquals(FIRST + REST, content.length, transport + ": the download was cut");
            for (int i = 0; i < content.length; i++) {
                assertEquals(at(i), content[i], "byte " + i);
            }
            assertCleanEnd(socket, transport + ": the connection closes after the response");
            assertStopped(stopped);
        }
    }

    @ParameterizedTest
    @EnumSource(Transport.class)
    void anIdleHttp11ConnectionClosesCleanly(Transport transport) throws Exception {
        start(transport, false);
        started.countDown();
        try (Socket socket = connect(transport, "http/1.1")) {
            // One exchange first, so the connection (and its TLS session) is fully under way.
            socket.getOutputStream().write("HEAD /download HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            release.countDown();
            InputStream in = socket.getInputStream();
            assertTrue(readHead(in).startsWith("HTTP/1.1 200 "));
            CompletableFuture<Void> stopped = stopWhileDownloading();
            assertCleanEnd(socket, transport + ": an idle connection just closes");
            assertStopped(stopped);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"TLS", "PROXY_TLS"})
    void overTlsTheCloseNotifyFollowsTheLastByteOfTheResponse(Transport transport) throws Exception {
        start(transport, false);
        try (EngineTlsClient client = new EngineTlsClient(TestKeys.clientContext(null, store), connectTcp(transport), "http/1.1")) {
            client.write("GET /download HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            CompletableFuture<Void> stopped = stopWhileDownloading();
            release.countDown();
            EngineTlsClient.End end = client.readToEnd();
            String response = new String(end.bytes(), StandardCharsets.ISO_8859_1);
            assertTrue(response.startsWith("HTTP/1.1 200 "), response.substring(0, Math.min(200, response.length())));
            assertEquals(FIRST + REST, response.length() - response.indexOf("\r\n\r\n") - 4, transport + ": the whole content, nothing after it");
            assertTrue(end.closeNotify(), transport + ": a close_notify after the response, not a bare end of input");
            assertStopped(stopped);
        }
    }

    @Test
    void overTlsAnIdleConnectionGetsACloseNotify() throws Exception {
        start(Transport.TLS, false);
        started.countDown();
        release.countDown();
        try (EngineTlsClient client = new EngineTlsClient(TestKeys.clientContext(null, store), connectTcp(Transport.TLS), "http/1.1")) {
            client.write("HEAD /download HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String head = new String(client.read(1), StandardCharsets.ISO_8859_1);
            while (!head.endsWith("\r\n\r\n")) {
                byte[] more = client.read(1);
                assertTrue(more.length > 0, "the whole head: " + head);
                head += new String(more, StandardCharsets.ISO_8859_1);
            }
            CompletableFuture<Void> stopped = stopWhileDownloading();
            EngineTlsClient.End end = client.readToEnd();
            assertEquals(0, end.bytes().length);
            assertTrue(end.closeNotify(), "a close_notify, not a bare end of input");
            assertStopped(stopped);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"PLAIN", "TLS"})
    void anH2DownloadInFlightFinishesWholeAfterGoAwayNoError(Transport transport) throws Exception {
        start(transport, true);
        try (SocketHttp2Client client = new SocketHttp2Client(connect(transport, "h2"))) {
            client.start(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 1 << 30).build());
            client.windowUpdate(0, (1 << 30) - 65_535);
            client.get(1, "/download");
            CompletableFuture<Void> stopped = stopWhileDownloading();
            release.countDown();
            List<String> events = new ArrayList<>();
            long received = 0;
            boolean ended = false;
            for (Frame frame = client.readFrame(); frame != null; frame = client.readFrame()) {
                if (frame.type() == Frame.GOAWAY) {
                    events.add("GOAWAY " + frame.errorCode() + " " + frame.debug());
                } else if (frame.type() == Frame.DATA && frame.streamId() == 1) {
                    received += frame.payload().length;
                    ended = frame.isEndStream();
                    if (ended) {
                        events.add("END_STREAM 1 after " + received);
                    }
                }
            }
            events.add("EOF");
            assertEquals(List.of("GOAWAY 0 shutting down", "END_STREAM 1 after " + (FIRST + REST), "EOF"), events, transport.toString());
            assertTrue(ended);
            assertStopped(stopped);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Transport.class, names = {"PLAIN", "TLS"})
    void anIdleH2ConnectionGetsGoAwayNoErrorBeforeItsEnd(Transport transport) throws Exception {
        start(transport, true);
        started.countDown();
        try (SocketHttp2Client client = new SocketHttp2Client(connect(transport, "h2"))) {
            client.start(Settings.EMPTY);
            Frame settings = client.readFrame();
            assertNotNull(settings, "the server's SETTINGS");
            assertEquals(Frame.SETTINGS, settings.type());
            CompletableFuture<Void> stopped = stopWhileDownloading();
            List<String> frames = new ArrayList<>();
            for (Frame frame = client.readFrame(); frame != null; frame = client.readFrame()) {
                if (frame.type() == Frame.GOAWAY) {
                    frames.add("GOAWAY " + frame.errorCode());
                }
            }
            frames.add("EOF");
            assertEquals(List.of("GOAWAY 0", "EOF"), frames, transport.toString());
            assertStopped(stopped);
        }
    }

    @Test
    void aTlsHandshakeUnderWayWhenTheStopBeginsIsClosed() throws Exception {
        start(Transport.TLS, true);
        started.countDown();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", connector.getLocalPort()), 5000);
            socket.setSoTimeout(10_000);
            // Connected and accepted, but no ClientHello: nothing is in flight, so it closes at once.
            Deadline.await(() -> connector.getConnectionCount() > 0, Duration.ofSeconds(10)); // the server accepted
            CompletableFuture<Void> stopped = stopWhileDownloading();
            // At most the TLS alert an engine closed before its handshake sends (record type 21), then the end.
            byte[] rest = socket.getInputStream().readAllBytes();
            assertTrue(rest.length == 0 || rest[0] == 21, "an alert or nothing, then the end: " + Arrays.toString(rest));
            assertStopped(stopped);
        }
    }

    /**
     * Stops racing TLS handshakes whose ALPN picks h2: whichever way the race goes, a
     * connection closes without lingering — before h2 began, or once h2 began (the server's
     * SETTINGS came) after a GOAWAY NO_ERROR — and the stop returns well within its timeout.
     * Twenty rounds of sixteen connections opened at once on as many threads.
     */
    @Test
    void stopsRacingTlsHandshakesThatUpgradeToH2() throws Exception {
        int rounds = 20;
        int connections = 16;
        for (int round = 0; round < rounds; round++) {
            start(Transport.TLS, true);
            List<CompletableFuture<String>> outcomes = new ArrayList<>();
            CountDownLatch connected = new CountDownLatch(connections);
            for (int i = 0; i < connections; i++) {
                CompletableFuture<String> outcome = new CompletableFuture<>();
                outcomes.add(outcome);
                Thread.ofVirtual().start(() -> outcome.complete(raceH2(connected)));
            }
            assertTrue(connected.await(10, TimeUnit.SECONDS), "round " + round + ": every client connected");
            CompletableFuture<Void> stopped = stopInTheBackground();
            for (CompletableFuture<String> outcome : outcomes) {
                String result = outcome.get(30, TimeUnit.SECONDS);
                assertTrue(result.equals("closed before h2") || result.equals("GOAWAY 0, EOF"), "round " + round + ": " + result);
            }
            assertStopped(stopped);
            server = null;
        }
    }

    /** One client of {@link #stopsRacingTlsHandshakesThatUpgradeToH2()}: what it saw, as text. */
    private String raceH2(CountDownLatch connected) {
        Socket tcp;
        try {
            tcp = connectTcp(Transport.TLS);
        } catch (IOException x) {
            connected.countDown();
            return "closed before h2";
        }
        connected.countDown();
        try (Socket socket = tcp) {
            SSLSocket tls = (SSLSocket) TestKeys.clientContext(null, store).getSocketFactory()
                .createSocket(socket, "localhost", connector.getLocalPort(), true);
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            tls.setSSLParameters(parameters);
            SocketHttp2Client client = new SocketHttp2Client(tls);
            boolean settings = false;
            List<String> seen = new ArrayList<>();
            try {
                client.start(Settings.EMPTY);
                for (Frame frame = client.readFrame(); frame != null; frame = client.readFrame()) {
                    settings |= frame.type() == Frame.SETTINGS;
                    if (frame.type() == Frame.GOAWAY) {
                        seen.add("GOAWAY " + frame.errorCode());
                    }
                }
            } catch (SocketTimeoutException x) {
                return "no end within 10 s: " + seen + " " + x;
            } catch (IOException x) {
                // The server closed before or during the handshake, or while the preface was being written.
                if (!settings) {
                    return "closed before h2";
                }
                return "failed after SETTINGS: " + seen + " " + x;
            }
            seen.add("EOF");
            return settings ? String.join(", ", seen) : "closed before h2";
        } catch (Exception x) {
            return "failed: " + x;
        }
    }

    /** The server closed after its last byte: the end of input, with no byte, reset or TLS failure before it. */
    private static void assertCleanEnd(Socket socket, String what) throws IOException {
        assertEquals(-1, socket.getInputStream().read(), what);
    }

    private static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                throw new IOException("closed after " + head);
            }
            head.append((char) b);
        }
        return head.toString();
    }
}
