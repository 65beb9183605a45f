package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import io.wharf.examples.Demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as {@code ./wharf demo} starts it (on free ports), driven by the real curl: its
 * pages over HTTP and over HTTPS with the self-signed certificate made at the first start —
 * trusted with {@code --cacert}, refused without — and the certificate kept for the next start.
 */
class DemoTest {

    @TempDir
    Path directory;

    private Demo.Running demo;

    @AfterEach
    void stop() throws Exception {
        if (demo != null) {
            demo.server().stop();
        }
    }

    @Test
    void servesItsPagesOverHttpAndHttps() throws Exception {
        Path certificates = directory.resolve("demo-tls");
        demo = Demo.start(0, 0, certificates);
        Path pem = certificates.resolve("demo.pem");
        assertTrue(Files.exists(pem), "the certificate was made at the first start");
        String http = "http://localhost:" + demo.httpPort();
        String https = "https://localhost:" + demo.httpsPort();
        assertEquals("Hello, World!", Curl.run(http + "/hello"));
        assertEquals("Hello, World!", Curl.run("--cacert", pem.toString(), https + "/hello"));
        assertEquals("{\"message\":\"Hello, World!\"}", Curl.run("--cacert", pem.toString(), "--http1.1", https + "/json"));
        String head = Curl.run("-I", "--cacert", pem.toString(), "--http1.1", https + "/large.bin");
        assertTrue(head.startsWith("HTTP/1.1 200"), head);
        // HTTP/2: h2 by ALPN on the HTTPS port, h2c by prior knowledge and by Upgrade on the HTTP port.
        String h2Head = Curl.run("-I", "--cacert", pem.toString(), https + "/large.bin");
        assertTrue(h2Head.startsWith("HTTP/2 200"), h2Head);
        assertEquals("Hello, World! 2", Curl.run("--cacert", pem.toString(), "-w", " %{http_version}", https + "/hello"));
        assertEquals("Hello, World! 2", Curl.run("--http2-prior-knowledge", "-w", " %{http_version}", http + "/hello"));
        assertEquals("Hello, World! 2", Curl.run("--http2", "-w", " %{http_version}", http + "/hello"));
        AssertionError untrusted = org.junit.jupiter.api.Assertions.assertThrows(AssertionError.class, () -> Curl.run(https + "/hello"));
        assertTrue(untrusted.getMessage().contains("certificate"), untrusted.getMessage());

        byte[] made = Files.readAllBytes(certificates.resolve("demo.p12"));
        demo.server().stop();
        demo = Demo.start(0, 0, certificates);
        assertTrue(java.util.Arrays.equals(made, Files.readAllBytes(certificates.resolve("demo.p12"))), "the next start keeps the certificate");
        assertEquals("Hello, World!", Curl.run("--cacert", pem.toString(), "https://localhost:" + demo.httpsPort() + "/hello"));
    }
}
