package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import io.wharf.server.handler.push.PushHandler;
import io.wharf.server.handler.push.ReferrerPushStrategy;
import io.wharf.server.handler.resource.ResourceHandler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The real curl against Wharf over loopback: versions, keep-alive, uploads, HEAD, Unix sockets. */
class CurlTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private TestServer server;

    private TestServer start() throws Exception {
        Path site = Files.createDirectories(directory.resolve("site"));
        byte[] large = new byte[1_000_000];
        new Random(3).nextBytes(large);
        Files.write(site.resolve("large.bin"), large);
        Files.writeString(site.resolve("page.html"), "<p>hello</p>");
        server = new TestServer(leaks.pool(), new ResourceHandler(site), directory.resolve("wharf.sock"));
        return server;
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void earlyHintsReachCurlBeforeThePage() throws Exception {
        Path site = Files.createDirectories(directory.resolve("hinted"));
        Files.writeString(site.resolve("index.html"), "<link rel=stylesheet href=site.css>");
        Files.writeString(site.resolve("site.css"), "p { color: teal }");
        server = new TestServer(leaks.pool(), new PushHandler(new ReferrerPushStrategy(), new ResourceHandler(site)), null);
        String page = server.uri() + "/index.html";
        Curl.run(page);
        Curl.run("-H", "Referer: " + page, server.uri() + "/site.css");
        String answer = Curl.run("-i", page);
        assertTrue(answer.startsWith("HTTP/1.1 103 Early Hints\r\nLink: </site.css>; rel=preload; as=style\r\n\r\nHTTP/1.1 200 OK\r\n"), answer);
        assertTrue(answer.endsWith("<link rel=stylesheet href=site.css>"), answer);
    }

    @Test
    void http10AndHttp11() throws Exception {
        String uri = start().uri();
        assertEquals("GET /echo?a=1 HTTP/1.0 length=0 []", Curl.run("-0", uri + "/echo?a=1"));
        assertEquals("GET /echo?a=1 HTTP/1.1 length=0 []", Curl.run(uri + "/echo?a=1"));
        String head = Curl.run("-i", "-0", uri + "/echo");
        assertTrue(head.startsWith("HTTP/1.0 200 OK\r\n"), head);
    }

    @Test
    void keepAliveReusesOneConnectionForSeveralRequests() throws Exception {
        String uri = start().uri();
        String out = Curl.run("-w", " connects=%{num_connects}\\n", uri + "/echo?1", uri + "/echo?2", uri + "/echo?3");
        assertEquals("GET /echo?1 HTTP/1.1 length=0 [] connects=1\n"
                + "GET /echo?2 HTTP/1.1 length=0 [] connects=0\n"
                + "GET /echo?3 HTTP/1.1 length=0 [] connects=0\n", out);
    }

    @Test
    void uploadsWithContentLengthAndChunked() throws Exception {
        String uri = start().uri();
        Path file = directory.resolve("upload.bin");
        byte[] bytes = new byte[3_000_000];
        new Random(7).nextBytes(bytes);
        Files.write(file, bytes);
        assertEquals("POST /echo HTTP/1.1 length=3000000", Curl.run("--data-binary", "@" + file, uri + "/echo"));
        assertEquals("POST /echo HTTP/1.1 length=3000000",
                Curl.run("-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file, uri + "/echo"));
        assertEquals("POST /echo HTTP/1.1 length=5 [hello]",
                Curl.run("-H", "Expect: 100-continue", "--data-binary", "hello", uri + "/echo"));
    }

    @Test
    void headAndNotFound() throws Exception {
        String uri = start().uri();
        String head = Curl.run("-I", uri + "/echo");
        assertTrue(head.startsWith("HTTP/1.1 200 OK\r\n"), head);
        assertTrue(head.contains("Content-Length: 31\r\n"), head); // the length a GET would have: "HEAD /echo HTTP/1.1 length=0 []"
        String missing = Curl.run("-i", "-H", "Accept: text/plain", uri + "/missing");
        assertTrue(missing.startsWith("HTTP/1.1 404 Not Found\r\n"), missing);
    }

    @Test
    void overAUnixDomainSocket() throws Exception {
        start();
        Path socket = directory.resolve("wharf.sock");
        assertEquals("GET /echo?unix HTTP/1.1 length=0 []", Curl.run("--unix-socket", socket.toString(), "http://localhost/echo?unix"));
        assertEquals("POST /echo HTTP/1.1 length=4 [data]",
                Curl.run("--unix-socket", socket.toString(), "--data-binary", "data", "http://localhost/echo"));
    }

    @Test
    void rangesOfAStaticFile() throws Exception {
        String uri = start().uri();
        byte[] large = Files.readAllBytes(directory.resolve("site/large.bin"));
        Path out = directory.resolve("part.bin");
        Curl.run("-r", "1000-1999", "-o", out.toString(), uri + "/large.bin");
        assertEquals(java.util.Arrays.toString(java.util.Arrays.copyOfRange(large, 1000, 2000)),
                java.util.Arrays.toString(Files.readAllBytes(out)));
        String head = Curl.run("-i", "-r", "0-9,20-29", "-o", "/dev/null", "-D", "-", uri + "/large.bin");
        assertTrue(head.startsWith("HTTP/1.1 206 Partial Content\r\n"), head);
        assertTrue(head.contains("Content-Type: multipart/byteranges; boundary="), head);
        String unsatisfiable = Curl.run("-s", "-o", "/dev/null", "-w", "%{http_code}", "-r", "2000000-", uri + "/large.bin");
        assertEquals("416", unsatisfiable);
    }

    @Test
    void conditionalRequests() throws Exception {
        String uri = start().uri();
        String headers = Curl.run("-I", uri + "/page.html");
        String etag = headers.lines().filter(line -> line.startsWith("ETag: ")).findFirst().orElseThrow().substring(6);
        assertEquals("304", Curl.run("-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: " + etag, uri + "/page.html"));
        assertEquals("200", Curl.run("-o", "/dev/null", "-w", "%{http_code}", "-H", "If-None-Match: \"other\"", uri + "/page.html"));
        Path stamp = directory.resolve("site/page.html");
        assertEquals("304", Curl.run("-o", "/dev/null", "-w", "%{http_code}", "-z", stamp.toString(), uri + "/page.html"));
        assertEquals("412", Curl.run("-o", "/dev/null", "-w", "%{http_code}", "-H", "If-Match: \"other\"", uri + "/page.html"));
    }
}
