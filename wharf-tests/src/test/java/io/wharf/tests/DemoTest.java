package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.wharf.examples.Demo;
import io.wharf.http.HttpFields;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo as {@code ./wharf demo} starts it (on free ports), driven by the real curl: its
 * pages over HTTP and over HTTPS with the self-signed certificate made at the first start —
 * trusted with {@code --cacert}, refused without — and the certificate kept for the next start;
 * and the request targets without a path ({@code OPTIONS *}, {@code CONNECT host:port}) over
 * HTTP/1.1 and HTTP/2, plain and TLS, answered 200 and 405, never 5xx; and over HTTPS, the
 * content coding chosen by the qualities of {@code Accept-Encoding}, with {@code Vary:
 * Accept-Encoding} on every answer, a multi-range 206 and a 416 among them.
 */
class DemoTest {

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    private Demo.Running demo;

    @Test
    void servesItsPagesOverHttpAndHttps() throws Exception {
        Path certificates = directory.resolve("demo-tls");
        demo = demos.start(certificates);
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
        demo = demos.start(certificates);
        assertTrue(java.util.Arrays.equals(made, Files.readAllBytes(certificates.resolve("demo.p12"))), "the next start keeps the certificate");
        assertEquals("Hello, World!", Curl.run("--cacert", pem.toString(), "https://localhost:" + demo.httpsPort() + "/hello"));
    }

    /** The servlet section with curl over h2: a session in the cookie jar, the async page, and FORM login to the account page. */
    @Test
    void servletSectionKeepsASessionAndLogsInByForm() throws Exception {
        Path certificates = directory.resolve("demo-tls");
        demo = demos.start(certificates);
        String pem = certificates.resolve("demo.pem").toString();
        String base = "https://localhost:" + demo.httpsPort() + "/servlet";
        String jar = directory.resolve("jar.txt").toString();
        assertTrue(Curl.run("--cacert", pem, "-c", jar, "-b", jar, base + "/").contains("Visit 1 of this session, over HTTP/2.0"));
        assertTrue(Curl.run("--cacert", pem, "-c", jar, "-b", jar, base + "/").contains("Visit 2 of this session"));
        assertTrue(Curl.run("--cacert", pem, base + "/async").contains("written a second after you asked"));
        String loginPage = Curl.run("--cacert", pem, "-c", jar, "-b", jar, base + "/account");
        assertTrue(loginPage.contains("j_security_check"), loginPage);
        String account = Curl.run("--cacert", pem, "-c", jar, "-b", jar, "-L", "-d", "j_username=demo&j_password=demo",
            base + "/j_security_check");
        assertTrue(account.contains("Logged in as <b>demo</b> by FORM"), account);
        String wrong = Curl.run("--cacert", pem, "-c", jar, "-b", jar, "-d", "j_username=demo&j_password=nope", base + "/j_security_check");
        assertTrue(wrong.contains("Wrong name or password"), wrong);
        String jsp = Curl.run("--cacert", pem, base + "/clock.jsp");
        assertTrue(jsp.contains("<li>HTTP/2</li>") && jsp.contains("You asked over HTTP/2.0."), jsp);
    }

    private static final String ALLOW = "GET, HEAD, POST, PUT, DELETE, OPTIONS";

    @Test
    void answersTargetsWithoutPathOverEveryProtocol() throws Exception {
        Path certificates = directory.resolve("demo-tls");
        demo = demos.start(certificates);
        String pem = certificates.resolve("demo.pem").toString();
        String http = "http://localhost:" + demo.httpPort();
        String https = "https://localhost:" + demo.httpsPort();
        // OPTIONS * with curl: HTTP/1.1 and h2c on the plain port, HTTP/1.1 and h2 over TLS.
        for (List<String> options : List.of(List.of("--http1.1", http), List.of("--http2-prior-knowledge", http),
                List.of("--http1.1", "--cacert", pem, https), List.of("--cacert", pem, https))) {
            List<String> command = new java.util.ArrayList<>(List.of("-i", "-X", "OPTIONS", "--request-target", "*"));
            command.addAll(options);
            String head = Curl.run(command.toArray(String[]::new));
            assertTrue(head.startsWith("HTTP/1.1 200") || head.startsWith("HTTP/2 200"), options + ": " + head);
            assertTrue(head.toLowerCase(java.util.Locale.ROOT).contains("\r\nallow: " + ALLOW.toLowerCase(java.util.Locale.ROOT) + "\r\n"),
                    options + ": " + head);
        }
        // CONNECT in authority form over HTTP/1.1, plain and TLS.
        String connect = "CONNECT 127.0.0.1:22 HTTP/1.1\r\nHost: 127.0.0.1:22\r\n\r\n";
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), demo.httpPort())) {
            String head = http1Head(plain, connect);
            assertTrue(head.startsWith("HTTP/1.1 405 ") && head.contains("\r\nAllow: " + ALLOW + "\r\n"), head);
        }
        try (Socket tls = tls(pem, "http/1.1")) {
            String head = http1Head(tls, connect);
            assertTrue(head.startsWith("HTTP/1.1 405 ") && head.contains("\r\nAllow: " + ALLOW + "\r\n"), head);
        }
        // CONNECT without :protocol over HTTP/2: h2c by prior knowledge, and h2 over TLS.
        HttpFields.Mutable h2Connect = HttpFields.build().add(":method", "CONNECT").add(":authority", "127.0.0.1:22");
        try (Socket plain = new Socket(InetAddress.getLoopbackAddress(), demo.httpPort())) {
            String head = RawHttp2Request.send(plain, h2Connect);
            assertTrue(head.startsWith(":status=405 allow=" + ALLOW + " "), head);
        }
        try (Socket tls = tls(pem, "h2")) {
            String head = RawHttp2Request.send(tls, h2Connect);
            assertTrue(head.startsWith(":status=405 allow=" + ALLOW + " "), head);
        }
    }

    @Test
    void choosesTheContentCodingByQualityAndVariesOverHttps() throws Exception {
        Path certificates = directory.resolve("demo-tls");
        demo = demos.start(certificates);
        String pem = certificates.resolve("demo.pem").toString();
        String css = "https://localhost:" + demo.httpsPort() + "/style.css";
        for (String version : List.of("--http1.1", "--http2")) {
            String status = version.equals("--http1.1") ? "http/1.1 " : "http/2 ";
            // Accept-Encoding -> whether gzip is sent.
            for (Map.Entry<String, Boolean> qualities : Map.of("gzip", true, "*", true, "br;q=1, gzip;q=0.1", true,
                    "gzip;q=0.5, identity;q=1", false, "gzip;q=0", false, "*;q=0", false, "identity;q=0", false).entrySet()) {
                String head = Curl.run(version, "--cacert", pem, "-o", "/dev/null", "-D", "-", "-H", "Accept-Encoding: " + qualities.getKey(), css)
                        .toLowerCase(Locale.ROOT);
                String what = version + " Accept-Encoding: " + qualities.getKey() + ": " + head;
                assertTrue(head.startsWith(status + "200"), what);
                assertEquals(qualities.getValue(), head.contains("\r\ncontent-encoding: gzip\r\n"), what);
                assertTrue(head.contains("\r\nvary: accept-encoding\r\n"), what);
            }
            String parts = Curl.run(version, "--cacert", pem, "-D", "-", "-H", "Accept-Encoding: gzip;q=0.5, identity;q=1", "-r", "0-9,20-29", css);
            String head = parts.toLowerCase(Locale.ROOT);
            assertTrue(head.startsWith(status + "206"), version + ": " + parts);
            assertTrue(head.contains("\r\ncontent-type: multipart/byteranges; boundary="), version + ": " + parts);
            assertTrue(head.contains("\r\nvary: accept-encoding\r\n") && !head.contains("content-encoding"), version + ": " + parts);
            assertTrue(parts.contains("Content-Range: bytes 0-9/") && parts.contains("\r\n\r\nbody { fon\r\n")
                    && parts.contains("Content-Range: bytes 20-29/"), version + ": " + parts);
            String unsatisfiable = Curl.run(version, "--cacert", pem, "-o", "/dev/null", "-D", "-", "-H", "Accept-Encoding: gzip", "-r", "5000-6000", css)
                    .toLowerCase(Locale.ROOT);
            assertTrue(unsatisfiable.startsWith(status + "416"), version + ": " + unsatisfiable);
            assertTrue(unsatisfiable.contains("\r\nvary: accept-encoding\r\n"), version + ": " + unsatisfiable);
        }
    }

    /** @return a TLS socket to the demo's HTTPS port, trusting its certificate, that agreed on {@code protocol} by ALPN */
    private Socket tls(String pem, String protocol) throws Exception {
        SSLContext context = PemTrust.context(Path.of(pem));
        SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("localhost", demo.httpsPort());
        SSLParameters parameters = socket.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {protocol});
        socket.setSSLParameters(parameters);
        socket.setSoTimeout(10_000);
        socket.startHandshake();
        assertEquals(protocol, socket.getApplicationProtocol());
        return socket;
    }

    /** @return the head of the response to {@code request}, written as is on {@code socket} */
    private static String http1Head(Socket socket, String request) throws Exception {
        socket.setSoTimeout(10_000);
        OutputStream out = socket.getOutputStream();
        out.write(request.getBytes(StandardCharsets.US_ASCII));
        out.flush();
        InputStream in = socket.getInputStream();
        StringBuilder head = new StringBuilder();
        for (int b = in.read(); b >= 0; b = in.read()) {
            head.append((char) b);
            if (head.toString().endsWith("\r\n\r\n")) {
                break;
            }
        }
        return head.toString();
    }
}
