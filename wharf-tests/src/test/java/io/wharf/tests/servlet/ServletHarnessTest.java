package io.wharf.tests.servlet;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletContainerInitializer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The differential harness itself: the raw client's reading of each kind of framing, and the
 * comparison failing on a real difference (each container's {@code getServerInfo}) with a
 * side-by-side report, accepting it when the table lists it, and failing on a listed
 * difference that does not happen or on a row that cites no section; a sequence's cookies and
 * quoted fields, and its report of each step that differs.
 */
class ServletHarnessTest {

    @TempDir
    Path directory;

    @Test
    void readsAChunkedBodyAndKeepsItsTrailers() throws IOException {
        RawResponse response = read(false, """
            HTTP/1.1 100 Continue

            HTTP/1.1 200 OK
            Transfer-Encoding: chunked
            content-type: text/plain

            5;ext=1
            hello
            7
            , world
            0
            X-Checksum: abc

            """);
        assertEquals(200, response.status());
        assertEquals("hello, world", response.bodyText());
        assertEquals("abc", response.trailers().get("x-checksum"));
        assertEquals("text/plain", response.headers().get("Content-Type"));
    }

    @Test
    void readsByContentLengthOrToTheClose() throws IOException {
        assertEquals("abc", read(false, "HTTP/1.1 200 OK\nContent-Length: 3\n\nabcdef").bodyText());
        assertEquals("to the end", read(false, "HTTP/1.1 200 OK\nConnection: close\n\nto the end").bodyText());
        assertArrayEquals(new byte[0], read(true, "HTTP/1.1 200 OK\nContent-Length: 3\n\n").body());
        assertArrayEquals(new byte[0], read(false, "HTTP/1.1 304 Not Modified\nContent-Length: 3\n\n").body());
        assertEquals(List.of("a", "b"), read(false, "HTTP/1.1 204 No Content\nX-A: a\nx-a:  b \n\n").headers().all("X-A"));
        assertThrows(IOException.class, () -> read(false, "HTTP/1.1 200 OK\nContent-Length: 9\n\nshort"));
    }

    @Test
    void aDifferenceFailsWithASideBySideReport() throws Exception {
        try (Differential containers = serverInfo(KnownDifferences.parse(""))) {
            AssertionError failure = assertThrows(AssertionError.class, () -> containers.get("/ctx/info"));
            String report = failure.getMessage();
            assertTrue(report.startsWith("ServletHarnessTest, GET /ctx/info: the containers answer differently"), report);
            assertTrue(report.contains("body differs:"), report);
            assertTrue(report.matches("(?s).*line 1 +\\| jetty/12\\.1\\.14 +\\| Apache Tomcat/11\\.0\\.27.*"), report);
            containers.get("/ctx/same");
        }
    }

    @Test
    void aListedDifferenceIsAcceptedAndAListedSameAnswerFails() throws Exception {
        String page = KnownDifferences.HEADING + "\n\n| Test | Request | Peer | Differs in | Why |\n|---|---|---|---|---|\n"
            + "| ServletHarnessTest | `GET /ctx/info` | Tomcat | body | §4.x: the server's name is its own |\n"
            + "| ServletHarnessTest | `GET /ctx/same` | Tomcat | body | §4.x: listed though it does not differ |\n";
        try (Differential containers = serverInfo(KnownDifferences.parse(page))) {
            containers.get("/ctx/info");
            AssertionError stale = assertThrows(AssertionError.class, () -> containers.get("/ctx/same"));
            assertTrue(stale.getMessage().contains("body is the same on every peer now"), stale.getMessage());
        }
    }

    @Test
    void aSequenceCarriesCookiesAndQuotesThePreviousResponse() throws IOException {
        Map<String, String> cookies = new LinkedHashMap<>();
        Differential.keepCookies(read(false, "HTTP/1.1 200 OK\nSet-Cookie: JSESSIONID=abc; Path=/ctx; HttpOnly\nSet-Cookie: b=2\n"
            + "Content-Length: 0\n\n"), cookies);
        assertEquals("GET /x HTTP/1.1\nCookie: JSESSIONID=abc; b=2\nHost: {host}\n\n",
            Differential.withCookies("GET /x HTTP/1.1\nHost: {host}\n\n", cookies));
        Differential.keepCookies(read(false, "HTTP/1.1 200 OK\nSet-Cookie: b=; Max-Age=0\nContent-Length: 0\n\n"), cookies);
        assertEquals(Map.of("JSESSIONID", "abc"), cookies);
        RawResponse redirect = read(false, "HTTP/1.1 303 See Other\nLocation: http://127.0.0.1:8080/ctx/a?b\nETag: \"x\"\n"
            + "Content-Length: 0\n\n");
        assertEquals("GET /ctx/a?b HTTP/1.1\nIf-None-Match: \"x\"\n",
            Differential.quoting("GET {previous:Location} HTTP/1.1\nIf-None-Match: {previous:ETag}\n", redirect));
    }

    @Test
    void aSequenceReportsTheStepsThatDiffer() throws Exception {
        try (Differential containers = serverInfo(KnownDifferences.parse(""))) {
            AssertionError failure = assertThrows(AssertionError.class, () -> containers.sequence(Compared.ALL,
                Differential.request("GET", "/ctx/same"), Differential.request("GET", "/ctx/info"), Differential.request("GET", "/ctx/info?again")));
            String report = failure.getMessage();
            assertTrue(report.contains("GET /ctx/info: the containers answer differently"), report);
            assertTrue(report.contains("GET /ctx/info?again: the containers answer differently"), report);
            assertFalse(report.contains("GET /ctx/same:"), report);
        }
    }

    @Test
    void stepsAreMadeFromEachPeersEarlierResponsesAndDerivedFieldsAreCompared() throws Exception {
        try (Differential containers = serverInfo(KnownDifferences.parse(""))) {
            List<String> earlierBodies = new CopyOnWriteArrayList<>();
            containers.steps(Compared.ALL, earlier -> Differential.request("GET", "/ctx/same"), earlier -> {
                earlierBodies.add(earlier.getFirst().bodyText());
                return Differential.request("GET", "/ctx/same?" + earlier.getFirst().status());
            });
            assertEquals(List.of("same\n", "same\n"), earlierBodies);
            AssertionError failure = assertThrows(AssertionError.class, () -> containers.check(Differential.request("GET", "/ctx/info"),
                Compared.WITHOUT_BODY.andDerived("server", response -> response.bodyText().split("/")[0])));
            assertTrue(failure.getMessage().matches("(?s).*server differs:.*\\| jetty +\\| Apache Tomcat.*"), failure.getMessage());
        }
    }

    @Test
    void aRowMustCiteASection() {
        String page = KnownDifferences.HEADING + "\n\n| Test | Request | Peer | Differs in | Why |\n|---|---|---|---|---|\n"
            + "| ServletHarnessTest | `GET /ctx/info` | Tomcat | body | because |\n";
        assertThrows(IllegalArgumentException.class, () -> KnownDifferences.parse(page));
    }

    /** @return Jetty and Tomcat running an application whose {@code /info} prints the container's name and {@code /same} does not */
    private Differential serverInfo(KnownDifferences known) throws Exception {
        ServletContainerInitializer application = (classes, context) -> {
            context.addServlet("info", new PrintingServlet((request, response) -> List.of(context.getServerInfo()))).addMapping("/info");
            context.addServlet("same", new PrintingServlet((request, response) -> List.of("same"))).addMapping("/same");
        };
        return Differential.start(getClass().getSimpleName(), known,
            List.of(new JettyPeer(), new TomcatPeer(Files.createDirectories(directory.resolve("tomcat")))), "/ctx", application);
    }

    private static RawResponse read(boolean head, String text) throws IOException {
        return RawHttpClient.read(new ByteArrayInputStream(text.replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1)), head);
    }
}
