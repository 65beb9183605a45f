package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.proxy.ProxyConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real HAProxy in TCP mode in front of a Wharf connector with a {@link ProxyConnectionFactory}:
 * a client bound to 127.0.0.2 connects to HAProxy, which connects to Wharf from 127.0.0.1 and
 * sends a PROXY header (v1 or v2); the handler must see 127.0.0.2 and the client's port.
 * HAProxy comes from {@code scripts/install-peers haproxy}; without it the test is skipped,
 * or fails when {@code CI=true}.
 */
class HaproxyProxyProtocolTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Server server;
    private Process haproxy;

    @AfterEach
    void stop() throws Exception {
        if (haproxy != null) {
            haproxy.destroy();
            if (!haproxy.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                haproxy.destroyForcibly().waitFor(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void haproxySendingV1GivesTheClientsAddress() throws Exception {
        String response = throughHaproxy("send-proxy", "");
        assertTrue(response.contains("unique-id=-"), response);
    }

    @Test
    void haproxySendingV2GivesTheClientsAddressAndTlvs() throws Exception {
        String response = throughHaproxy("send-proxy-v2 proxy-v2-options unique-id", "    unique-id-format wharf-%ci\n");
        assertTrue(response.contains("unique-id=wharf-127.0.0.2"), response);
    }

    /**
     * Starts Wharf and HAProxy, sends one request from 127.0.0.2 and checks the address the
     * handler saw.
     *
     * @return the response body
     */
    private String throughHaproxy(String serverOptions, String frontendLines) throws Exception {
        Path executable = findHaproxy();
        int wharfPort = startWharf();
        int haproxyPort = freePort();
        Path config = directory.resolve("haproxy.cfg");
        Files.writeString(config, """
                global
                    maxconn 64

                defaults
                    mode tcp
                    timeout connect 5s
                    timeout client 30s
                    timeout server 30s

                frontend in
                    bind 127.0.0.1:%d
                %s    default_backend wharf

                backend wharf
                    server wharf1 127.0.0.1:%d %s
                """.formatted(haproxyPort, frontendLines, wharfPort, serverOptions));
        Path log = directory.resolve("haproxy.log");
        haproxy = new ProcessBuilder(executable.toString(), "-f", config.toString(), "-db")
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        awaitListening(haproxyPort, log);

        try (Socket client = new Socket()) {
            client.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0));
            client.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), haproxyPort), (int) WAIT.toMillis());
            client.setSoTimeout((int) WAIT.toMillis());
            client.getOutputStream().write("GET /who HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            String response = new String(client.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(response.startsWith("HTTP/1.1 200 OK\r\n"), response + "\nHAProxy: " + Files.readString(log));
            String body = response.substring(response.indexOf("\r\n\r\n") + 4);
            assertEquals("127.0.0.2:" + client.getLocalPort(), body.substring(0, body.indexOf(' ')),
                    "the handler sees the client's address and port, not HAProxy's 127.0.0.1");
            return body;
        }
    }

    /** Starts Wharf on 127.0.0.1 with PROXY then HTTP/1.1, echoing the client's address. */
    private int startWharf() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector connector = new ServerConnector(server, 1, new ProxyConnectionFactory(), new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        server.setHandler(Handler.of((request, response, callback) -> {
            String uniqueId = request.getConnectionMetaData().getProxyHeader()
                    .flatMap(header -> header.tlv(ProxyHeader.TLV_UNIQUE_ID))
                    .map(tlv -> tlv.asString(StandardCharsets.US_ASCII)).orElse("-");
            Response.write(response, true, Request.getRemoteAddress(request) + ":" + Request.getRemotePort(request)
                    + " unique-id=" + uniqueId, callback);
            return true;
        }));
        server.start();
        return connector.getLocalPort();
    }

    private static Path findHaproxy() {
        List<Path> candidates = Stream.concat(
                        Stream.of(System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)),
                        Stream.of("/usr/sbin", "/usr/local/sbin", "/sbin"))
                .filter(entry -> !entry.isEmpty())
                .map(entry -> Path.of(entry, "haproxy"))
                .filter(Files::isExecutable)
                .toList();
        if (candidates.isEmpty()) {
            String message = "haproxy is not installed; run scripts/install-peers haproxy";
            if ("true".equals(System.getenv("CI"))) {
                fail(message);
            }
            assumeTrue(false, message);
        }
        return candidates.get(0);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** Polls until HAProxy accepts on {@code port}, failing with its output when it exits or the wait ends. */
    private void awaitListening(int port, Path log) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            if (!haproxy.isAlive()) {
                fail("haproxy exited with " + haproxy.exitValue() + ": " + Files.readString(log));
            }
            try (Socket probe = new Socket()) {
                probe.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                return;
            } catch (IOException notYet) {
                if (System.nanoTime() - deadline > 0) {
                    fail("haproxy did not listen on " + port + " within " + WAIT + ": " + Files.readString(log));
                }
                // Polls at most every 20 ms; returns early if HAProxy exits.
                haproxy.waitFor(20, TimeUnit.MILLISECONDS);
            }
        }
    }
}
