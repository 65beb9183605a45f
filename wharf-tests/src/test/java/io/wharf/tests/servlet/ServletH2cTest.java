package io.wharf.tests.servlet;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import io.wharf.testing.Peers;

/**
 * A representative slice of the suite's requests — mapping, the request, the response, async,
 * error pages, response trailers — sent over cleartext HTTP/2 to the three containers, whose
 * plain connectors speak h2c besides HTTP/1.1 as each is set up for it (Wharf's
 * {@code Http2CleartextConnectionFactory}, Jetty's {@code HTTP2CServerConnectionFactory},
 * Tomcat's {@code Http2Protocol} as the NIO connector's upgrade protocol). Each request goes two
 * ways: with prior knowledge (RFC 9113 §3.3) by nghttp ({@link NghttpClient}), which shows
 * response trailers and sends request trailers (a trailing HEADERS frame, RFC 9113 §8.1), and
 * by {@code Upgrade: h2c} (RFC 7540 §3.2) by the JDK's client ({@link Http2Client}), a new one
 * for each request so that every request is an upgrade; the JDK's client neither shows nor
 * sends trailers, so their field reads none for every peer there. A server may decline the
 * upgrade (RFC 9110 §7.8) and answer over HTTP/1.1: the protocol of each answer is compared too.
 */
class ServletH2cTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx",
        Applications.of(new MappingApplication(), new RequestApplication(), new ResponseApplication(), new AsyncApplication(),
            new ErrorApplication(), new TrailersApplication()),
        Deployment.NONE.withErrorPages(ErrorApplication.PAGES).withH2c());

    private static Differential priorKnowledge;
    private static Differential upgrade;

    /** Checks nghttp is there first: a client missing on every peer would otherwise compare as the same failure. */
    @BeforeAll
    static void startClients() {
        Peers.requireTool("nghttp");
        priorKnowledge = containers.over(new NghttpClient());
        upgrade = containers.over(ServletH2cTest::upgrade);
    }

    /** Sends the request with a new JDK client, so that it asks for the upgrade. */
    private static RawResponse upgrade(URI base, List<byte[]> parts, Duration pause) throws IOException {
        try (Http2Client client = new Http2Client(Differential.TIMEOUT)) {
            return client.exchange(base, parts, pause);
        }
    }

    /**
     * Compares {@code request} with prior knowledge, then asking for the upgrade, its target then
     * marked {@code upgrade} in its query (so that the table of known differences tells the two
     * apart); both times also the protocol each peer answered over, as the field {@code version}.
     */
    private static void both(String request, Compared compared) {
        Compared andVersion = compared.andDerived("version", RawResponse::version);
        priorKnowledge.check(request, andVersion);
        int space = request.indexOf(' ');
        int end = request.indexOf(' ', space + 1);
        String target = request.substring(space + 1, end);
        String marked = target + (target.contains("?") ? "&" : "?") + "upgrade";
        upgrade.check(request.substring(0, space + 1) + marked + request.substring(end), andVersion);
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/exact", "/ctx/a/x", "/ctx/x.do", "/ctx/", "/ctx/a/%61",
        "/ctx/r/basics?h2c", "/ctx/r/parameters?a=1&a=2&b=%C3%A9",
        "/ctx/s/status-201", "/ctx/s/send-error-404", "/ctx/s/redirect-relative", "/ctx/s/headers", "/ctx/s/cookies",
        "/ctx/s/large-body", "/ctx/s/content-length-exact",
        "/ctx/async/complete", "/ctx/async/dispatch?q=1", "/ctx/async/timeout-answered",
    })
    void get(String target) {
        both(Differential.request("GET", target), Compared.ALL);
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {"/ctx/e/send-404?q=1", "/ctx/e/throw-state", "/ctx/e/throw-io"})
    void errorPages(String target) {
        both(Differential.request("GET", target), Compared.ALL_OF_ERRORS);
    }

    static Stream<String> trailerAnswers() {
        return Stream.concat(Stream.of("/ctx/s/trailers"), TrailersApplication.ANSWERS.keySet().stream().map(name -> "/ctx/t/answer/" + name));
    }

    /** Response trailers, each case of {@link TrailersApplication}: a trailing HEADERS frame (RFC 9113 §8.1). */
    @ParameterizedTest(name = "GET {0}")
    @MethodSource("trailerAnswers")
    void trailers(String target) {
        both(Differential.request("GET", target, "TE: trailers"), ServletTrailersTest.ANSWER);
    }

    @Test
    void requestHeaders() {
        both("""
            GET /ctx/r/headers HTTP/1.1
            Host: {host}
            X-A: one
            x-a: two, three
            X-Int: 42
            Connection: close

            """, Compared.ALL);
    }

    @Test
    void formPost() {
        both("""
            POST /ctx/r/parameters?a=query HTTP/1.1
            Host: {host}
            Content-Type: application/x-www-form-urlencoded
            Content-Length: 15

            a=body&z=%C3%A9""", Compared.ALL);
    }

    /**
     * A request body of a known length: over HTTP/2 trailer fields may still follow it (RFC 9113
     * §8.1), so they are ready only once the body is read to its end.
     */
    @Test
    void requestBodyOfAKnownLength() {
        priorKnowledge.check("""
            POST /ctx/t/echo?length HTTP/1.1
            Host: {host}
            Content-Type: text/plain
            Content-Length: 11

            hello world""");
    }

    /** Request trailers, which nghttp sends as a trailing HEADERS frame after the body: over prior knowledge only. */
    @Test
    void requestTrailers() {
        priorKnowledge.check(ServletTrailersTest.chunked("X-Checksum: abc\nX-Count: 2\n")
            .replace("/ctx/t/echo ", "/ctx/t/echo?trailers "));
    }

    @Test
    void requestWithoutTrailers() {
        priorKnowledge.check(ServletTrailersTest.chunked("").replace("/ctx/t/echo ", "/ctx/t/echo?none "));
    }

    @Test
    void theSameConnectorStillSpeaksHttp1() {
        containers.get("/ctx/r/basics?http1");
    }
}
