package io.wharf.server;

import static io.wharf.server.LocalServer.crlf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.wharf.http.HttpCookie;
import io.wharf.http.HttpHeader;
import io.wharf.http.QualityList;
import io.wharf.http.form.FormFields;
import io.wharf.http.form.FormLimits;
import io.wharf.testing.LeakTracking;
import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hostile-input table: each row is a raw request and the status it must get. Every
 * row is followed on the same connection by {@code GET /smuggled}; after an error the
 * connection must close without ever handling it — nothing of a bad request is ever taken
 * as the start of the next one.
 */
class HostileRequestsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String SMUGGLED = "GET /smuggled HTTP/1.1\r\nHost: localhost\r\n\r\n";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final Queue<String> handled = new ConcurrentLinkedQueue<>();
    private LocalServer local;

    @BeforeEach
    void start() throws Exception {
        local = new LocalServer(leaks.pool());
        local.start(Handler.of((request, response, callback) -> {
            String path = request.getHttpURI().getPath();
            handled.add(path);
            String body = switch (path) {
                case "/form" -> {
                    FormFields form = Request.readFormFields(request, StandardCharsets.UTF_8, FormLimits.DEFAULT);
                    yield "keys=" + form.size();
                }
                case "/cookies" -> Request.getCookies(request).stream()
                        .filter(cookie -> cookie.getName().equals("JSESSIONID"))
                        .map(HttpCookie::getValue).collect(Collectors.joining(","));
                case "/accept" -> "preferred=" + QualityList.parse(request.getHeaders().getValuesList(HttpHeader.ACCEPT))
                        .preferred(List.of("application/json", "text/html", "text/plain"));
                default -> "read " + Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20).length();
            };
            Response.write(response, true, body, callback);
            return true;
        }));
    }

    @AfterEach
    void stop() throws Exception {
        local.close();
    }

    static Stream<Arguments> hostileRequests() {
        String post = "POST / HTTP/1.1\nHost: localhost\n";
        String chunked = post + "Transfer-Encoding: chunked\n\n";
        return Stream.of(
                row("Content-Length +10", post + "Content-Length: +10\n\n0123456789", 400),
                row("Content-Length -10", post + "Content-Length: -10\n\n", 400),
                row("Content-Length abc", post + "Content-Length: abc\n\n", 400),
                row("Content-Length 1.5", post + "Content-Length: 1.5\n\n", 400),
                row("Content-Length 1,0", post + "Content-Length: 1,0\n\n", 400),
                row("Content-Length of 46 digits", post + "Content-Length: " + "9".repeat(46) + "\n\n", 400),
                row("two differing Content-Length", post + "Content-Length: 3\nContent-Length: 4\n\nabcd", 400),
                row("Content-Length with chunked", post + "Content-Length: 3\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n", 400),
                row("chunk size of 17 hex digits", chunked + "1" + "0".repeat(16) + "\nabc\n", 400),
                row("bare LF after a chunk size", chunked.replace("\n", "\r\n") + "3\nabc\r\n0\r\n\r\n", 400, false),
                row("unterminated quoted chunk extension", chunked + "3;name=\"" + "x".repeat(2000) + "\nabc\n", 400),
                row("trailers beyond the limit", chunked + "0\n" + "X-Trailer: " + "t".repeat(9000) + "\n\n", 431),
                row("header block of 8 KiB + 1", headerBlockOf(8193), 431),
                row("101 fields against a limit of 100", fields(101), 431),
                row("obs-fold", "GET / HTTP/1.1\nHost: localhost\nX-Folded: a\n b\n\n", 400),
                row("space before the colon", "GET / HTTP/1.1\nHost : localhost\n\n", 400),
                row("NUL in a value", "GET / HTTP/1.1\nHost: localhost\nX-Nul: a\u0000b\n\n", 400),
                row("CR in a value", "GET / HTTP/1.1\r\nHost: localhost\r\nX-CR: a\rb\r\n\r\n", 400, false),
                row("duplicate Host", "GET / HTTP/1.1\nHost: a\nHost: b\n\n", 400),
                row("Host 127.0.0.1:65536", "GET / HTTP/1.1\nHost: 127.0.0.1:65536\n\n", 400),
                row("absolute-form with userinfo", "GET http://user:secret@localhost/ HTTP/1.1\nHost: localhost\n\n", 400),
                row("/%2e/", "GET /%2e/secret HTTP/1.1\nHost: localhost\n\n", 400),
                row("/.%00/", "GET /.%00/secret HTTP/1.1\nHost: localhost\n\n", 400),
                row("/a/..;/", "GET /a/..;/secret HTTP/1.1\nHost: localhost\n\n", 400),
                row("%2F in the path", "GET /a%2Fb HTTP/1.1\nHost: localhost\n\n", 400),
                row("%5C in the path", "GET /a%5Cb HTTP/1.1\nHost: localhost\n\n", 400),
                row("1,001 form keys", form(IntStream.range(0, 1001).mapToObj(i -> "k" + i + "=v").collect(Collectors.joining("&"))), 413),
                row("a 10 MB form field with no &", form("f=" + "x".repeat(10_000_000)), 413));
    }

    private static Arguments row(String name, String request, int status) {
        return row(name, request, status, true);
    }

    /** @param lineEndsAsGiven false when the row's CR/LF bytes are exact; true to turn \n into CR LF */
    private static Arguments row(String name, String request, int status, boolean lineEndsAsGiven) {
        return Arguments.of(name, lineEndsAsGiven ? crlf(request) : request, status);
    }

    /** @return a request whose header fields, with the empty line after them, take {@code bytes} */
    private static String headerBlockOf(int bytes) {
        String start = "Host: localhost\r\nX-Fill: ";
        String end = "\r\n\r\n";
        return "GET / HTTP/1.1\r\n" + start + "f".repeat(bytes - start.length() - end.length()) + end;
    }

    private static String fields(int count) {
        StringBuilder request = new StringBuilder("GET / HTTP/1.1\nHost: localhost\n");
        for (int i = 1; i < count; i++) {
            request.append("X-Field-").append(i).append(": v\n");
        }
        return request.append('\n').toString();
    }

    private static String form(String body) {
        return "POST /form HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
                + body.length() + "\r\n\r\n" + body;
    }

    @ParameterizedTest(name = "{0} -> {2}")
    @MethodSource("hostileRequests")
    void hostileRequestsGetTheirStatusAndNothingAfterThemIsParsed(String name, String request, int status) throws Exception {
        try (LocalConnector.Client client = local.connector.connect()) {
            try {
                client.send(request + SMUGGLED);
            } catch (java.io.IOException closedWhileSending) {
                // The server may answer and close before taking every byte (a 10 MB form).
            }
            String response = client.readUntilClosed(WAIT);
            assertTrue(response.startsWith("HTTP/1.1 " + status + " "), name + " answered: " + firstLine(response));
            assertEquals(1, response.split("HTTP/1.1 ", -1).length - 1, name + ": exactly one response");
        }
        assertFalse(handled.contains("/smuggled"), name + ": the request after it was handled");
    }

    /**
     * The request line and the header fields have limits of their own, and a refusal names the
     * one passed: a long target is never blamed on the fields (431), nor fields on the target.
     */
    @Test
    void aLongTargetMeetsTheRequestLineLimitAndLongFieldsTheHeaderLimit() throws Exception {
        String fields = "Host: localhost\r\nUser-Agent: curl/8.5.0\r\nAccept: */*\r\n" + "X-Trace: " + "t".repeat(300) + "\r\n\r\n";
        // A query of 8,100 characters: its request line (8,122 bytes) is within 8 KiB.
        String query = "q=" + "x".repeat(8098);
        String served = local.get("GET /search?" + query + " HTTP/1.1\r\n" + fields);
        assertTrue(served.startsWith("HTTP/1.1 200 "), served.lines().findFirst().orElse(served));
        assertTrue(handled.contains("/search"));

        String longTarget = local.get("GET /search?q=" + "x".repeat(8200) + " HTTP/1.1\r\n" + fields);
        assertTrue(longTarget.startsWith("HTTP/1.1 414 "), longTarget);
        assertTrue(longTarget.contains("request line longer than 8192 bytes"), longTarget);

        String longFields = local.get("GET /search HTTP/1.1\r\n" + "X-Fill: " + "f".repeat(8200) + "\r\n" + fields);
        assertTrue(longFields.startsWith("HTTP/1.1 431 "), longFields);
        assertTrue(longFields.contains("header fields longer than 8192 bytes"), longFields);

        local.configuration.setRequestUriSize(1024);
        String configured = local.get("GET /search?q=" + "x".repeat(1010) + " HTTP/1.1\r\n" + fields);
        assertTrue(configured.startsWith("HTTP/1.1 414 "), configured);
        assertTrue(configured.contains("request line longer than 1024 bytes"), configured);
    }

    @Test
    void tenAcceptHeadersOf5000QualityParametersAreAnsweredQuickly() {
        local.configuration.setRequestHeaderSize(1 << 20);
        // 625 parameters a field, then 5000; the server's threads do the work, so all threads' CPU time counts.
        LinearTime.assertLinear(LinearTime.Clock.ALL_THREADS_CPU, "ten Accept fields of 625 quality parameters", 625, count -> {
            StringBuilder request = new StringBuilder("GET /accept HTTP/1.1\r\nHost: localhost\r\n");
            String parameters = ";q=0.5".repeat(count);
            for (int i = 0; i < 10; i++) {
                request.append("Accept: text/html").append(parameters).append(", application/json;q=0.9").append("\r\n");
            }
            request.append("\r\n");
            return () -> {
                String response = local.get(request.toString());
                assertTrue(response.endsWith("preferred=application/json"), response);
            };
        });
    }

    @Test
    void tenAcceptHeadersOf5000QualityParametersOverflowTheDefaultHeaderLimit() throws Exception {
        String request = "GET /accept HTTP/1.1\r\nHost: localhost\r\n"
                + ("Accept: text/html" + ";q=0.5".repeat(5000) + "\r\n").repeat(10) + "\r\n";
        assertTrue(local.get(request).startsWith("HTTP/1.1 431 "));
    }

    @Test
    void aCookieValueHidingJsessionidInsideQuotesIsNotASession() throws Exception {
        String response = local.get("""
                GET /cookies HTTP/1.1
                Host: localhost
                Cookie: foo="bar; JSESSIONID=evil"; JSESSIONID=good

                """);
        assertTrue(response.endsWith("\r\n\r\ngood"), response);
    }

    private static String firstLine(String response) {
        int end = response.indexOf('\r');
        return end < 0 ? response : response.substring(0, end);
    }
}
