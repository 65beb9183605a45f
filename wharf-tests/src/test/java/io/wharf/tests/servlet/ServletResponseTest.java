package io.wharf.tests.servlet;

import java.util.stream.Stream;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The response (Servlet 6.1 chapter 5) compared between the containers, one request per case
 * of {@link ResponseApplication}: GET for each, HEAD and OPTIONS for some. The bodies of
 * {@code sendError} are each container's error page and are not compared (Servlet 6.1
 * §10.9.2 leaves them to the container); their status is. A body the servlet wrote
 * under an error status is compared.
 */
class ServletResponseTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new ResponseApplication());

    static Stream<String> cases() {
        return ResponseApplication.CASES.keySet().stream();
    }

    @ParameterizedTest(name = "GET /ctx/s/{0}")
    @MethodSource("cases")
    void get(String name) {
        Compared compared = switch (name) {
            case "status-404-with-body" -> Compared.ALL_OF_ERRORS;
            case "trailers" -> Compared.ALL.andHeaders("Transfer-Encoding", "Trailer");
            default -> Compared.ALL;
        };
        containers.check(Differential.request("GET", "/ctx/s/" + name), compared);
    }

    /** HEAD: the same status and fields as GET, no body (RFC 9110 §9.3.2); HttpServlet's doHead runs doGet. */
    @ParameterizedTest(name = "HEAD /ctx/s/{0}")
    @ValueSource(strings = {"status-201", "type-with-charset", "content-length-exact", "large-body", "redirect-relative", "send-error-404"})
    void head(String name) {
        containers.check(Differential.request("HEAD", "/ctx/s/" + name));
    }

    /** OPTIONS and TRACE as HttpServlet answers them: Allow lists the methods the servlet overrides. */
    @ParameterizedTest(name = "{0} /ctx/s/status-201")
    @ValueSource(strings = {"OPTIONS", "TRACE", "POST", "PUT", "DELETE"})
    void otherMethods(String method) {
        containers.check(Differential.request(method, "/ctx/s/status-201", "Content-Length: 0"));
    }
}
