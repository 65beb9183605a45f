package io.wharf.tests.servlet;

import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Trailer fields both ways over HTTP/1.1 (the Servlet 6.1 javadoc of the trailer methods; RFC 9110 §6.5, RFC 9112
 * §7.1.2) compared between the containers, with {@link TrailersApplication}: a chunked request
 * body with a trailer section (sent whole, or with the trailer section a pause after the last
 * chunk) and what {@code isTrailerFieldsReady} and {@code getTrailerFields} say before and after
 * the body is read; and responses with trailer fields set by {@code setTrailerFields}, with
 * and without {@code TE: trailers} from the client, with a Content-Length set before or after,
 * committed before or after, over HTTP/1.1 and HTTP/1.0. A response's trailer fields are
 * compared as the field {@code trailers}: the trailer section of a chunked body, names in lower
 * case, sorted.
 */
class ServletTrailersTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new TrailersApplication());

    /** What the answers are compared in: the framing fields, what the servlet learned, and the trailer section. */
    static final Compared ANSWER = Compared.ALL.andHeaders("Transfer-Encoding", "Trailer", "X-Set", "X-TE")
        .andDerived("trailers", ServletTrailersTest::trailers);

    /** @return the trailer section of {@code response}, each field as {@code name: value}, names in lower case, sorted */
    static String trailers(RawResponse response) {
        String fields = response.trailers().asList().stream()
            .map(field -> field.getKey().toLowerCase(Locale.ROOT) + ": " + field.getValue()).sorted()
            .collect(Collectors.joining(" || "));
        return fields.isEmpty() ? Answer.NONE : fields;
    }

    /**
     * @return a POST of a chunked body ({@code hello world} in two chunks) to the echo servlet,
     *     with {@code trailerSection} after the last chunk
     */
    static String chunked(String trailerSection) {
        return """
            POST /ctx/t/echo HTTP/1.1
            Host: {host}
            Content-Type: text/plain
            Transfer-Encoding: chunked
            Connection: close

            5
            hello
            6
             world
            0
            """ + trailerSection + "\n";
    }

    @Test
    void requestTrailers() {
        containers.check(chunked("X-Checksum: abc\nX-Count: 2\n"));
    }

    @Test
    void requestTrailersDeclaredInATrailerField() {
        containers.check(chunked("X-Checksum: abc\n").replace("Connection: close", "Trailer: X-Checksum\nConnection: close"));
    }

    @Test
    void requestTrailerNamesInMixedCaseAndRepeated() {
        containers.check(chunked("X-Checksum: abc\nx-checksum: def\nX-Other:  spaced  \n"));
    }

    @Test
    void requestWithoutTrailers() {
        containers.check(chunked(""));
    }

    /** The trailer section comes a pause after the last chunk: not ready before the body is read, ready after its end. */
    @Test
    void requestTrailersAfterAPause() {
        containers.check(chunked("{pause}X-Checksum: abc\n"));
    }

    /** The servlet asks before any chunk has come. */
    @Test
    void requestTrailersOfABodyThatComesLater() {
        containers.check(chunked("X-Checksum: abc\n").replace("\n\n5\n", "\n\n{pause}5\n"));
    }

    /** A body framed by Content-Length has no trailer section: ready at once, no fields (javadoc of isTrailerFieldsReady). */
    @Test
    void requestWithContentLength() {
        containers.check("""
            POST /ctx/t/echo HTTP/1.1
            Host: {host}
            Content-Type: text/plain
            Content-Length: 11
            Connection: close

            hello world""");
    }

    /** A chunked form with trailers: the container reads the body for the parameters, after which the trailers are ready. */
    @Test
    void requestTrailersOfAFormReadForItsParameters() {
        containers.check("""
            POST /ctx/t/form HTTP/1.1
            Host: {host}
            Content-Type: application/x-www-form-urlencoded
            Transfer-Encoding: chunked
            Connection: close

            3
            a=1
            0
            X-Checksum: abc

            """);
    }

    @Test
    void requestWithoutBody() {
        containers.get("/ctx/t/echo");
    }

    static Stream<String> answers() {
        return TrailersApplication.ANSWERS.keySet().stream();
    }

    @ParameterizedTest(name = "GET /ctx/t/answer/{0}?te")
    @MethodSource("answers")
    void answerToAClientThatAcceptsTrailers(String name) {
        containers.check(Differential.request("GET", "/ctx/t/answer/" + name + "?te", "TE: trailers"), ANSWER);
    }

    @ParameterizedTest(name = "GET /ctx/t/answer/{0}")
    @MethodSource("answers")
    void answerToAClientThatDoesNotSayItAcceptsTrailers(String name) {
        containers.check(Differential.request("GET", "/ctx/t/answer/" + name), ANSWER);
    }

    /** HTTP/1.0 has no chunked coding and so no trailers: setTrailerFields throws (its javadoc). */
    @ParameterizedTest(name = "GET /ctx/t/answer/{0} HTTP/1.0")
    @MethodSource("answers")
    void answerOverHttp10(String name) {
        containers.check("GET /ctx/t/answer/" + name + "?http10 HTTP/1.0\nHost: {host}\nTE: trailers\n\n", ANSWER);
    }
}
