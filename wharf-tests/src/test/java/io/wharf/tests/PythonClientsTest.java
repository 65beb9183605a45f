package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.examples.Demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The demo driven by clients written by others, in Python ({@link PythonClients}), over plain
 * TCP and over TLS with the demo's certificate trusted: h2, its own checks off, sends fields
 * that make a request malformed (RFC 9113 section 8.2) and gets RST_STREAM PROTOCOL_ERROR for
 * each, while the same requests well formed get 200; websockets is closed with 1001 (going
 * away) when the demo stops gracefully; httpx sends {@code OPTIONS *} over h2, and its CONNECT,
 * which it cannot send well formed over HTTP/2 (it keeps {@code :scheme} and {@code :path}), is
 * refused as malformed.
 */
@Timeout(180)
class PythonClientsTest {

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    private Process client;

    @AfterEach
    void stop() {
        if (client != null) {
            client.destroyForcibly();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"plain", "tls"})
    void h2GetsRstStreamForEveryMalformedField(String mode) throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        String pem = directory.resolve("demo-tls").resolve("demo.pem").toString();
        String output = mode.equals("tls")
                ? PythonClients.run("h2_fields.py", "127.0.0.1", Integer.toString(demo.httpsPort()), "tls", pem)
                : PythonClients.run("h2_fields.py", "127.0.0.1", Integer.toString(demo.httpPort()), "plain");
        assertEquals("""
                good :status 200
                space-in-name RST_STREAM PROTOCOL_ERROR
                crlf-in-value RST_STREAM PROTOCOL_ERROR
                upper-case-name RST_STREAM PROTOCOL_ERROR
                lower-case-name :status 200
                host-not-authority RST_STREAM PROTOCOL_ERROR
                host-is-authority :status 200
                content-length-5-end-stream RST_STREAM PROTOCOL_ERROR
                """, output);
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ws", "wss"})
    void websocketsGetsGoingAwayWhenTheDemoStops(String scheme) throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        String pem = directory.resolve("demo-tls").resolve("demo.pem").toString();
        int port = scheme.equals("ws") ? demo.httpPort() : demo.httpsPort();
        client = PythonClients.start("ws_going_away.py", scheme + "://localhost:" + port + "/chat/ws?name=py", pem);
        BufferedReader lines = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8));
        String joined = lines.readLine();
        if (!"joined {\"type\":\"join\",\"name\":\"py\",\"members\":1}".equals(joined)) {
            // The script failed: its whole traceback says why (it ends once the exception is printed).
            client.waitFor(30, TimeUnit.SECONDS);
            StringBuilder rest = new StringBuilder(String.valueOf(joined));
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                rest.append('\n').append(line);
            }
            throw new AssertionError("ws_going_away.py did not join: " + rest);
        }
        assertEquals("open", lines.readLine());
        demo.server().stop();
        assertEquals("closed 1001 server stopping", lines.readLine());
        assertTrue(client.waitFor(30, TimeUnit.SECONDS), "the client did not end");
        assertEquals(0, client.exitValue());
    }

    @Test
    void httpxSendsTargetsWithoutPathOverH2() throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        String pem = directory.resolve("demo-tls").resolve("demo.pem").toString();
        List<String> answers = PythonClients.run("httpx_targets.py", "https://localhost:" + demo.httpsPort(), pem).lines().toList();
        assertEquals(List.of("OPTIONS * HTTP/2 200 allow=GET, HEAD, POST, PUT, DELETE, OPTIONS",
                "CONNECT 127.0.0.1:22 HTTP/2 RST_STREAM PROTOCOL_ERROR"), answers);
    }
}
