package io.wharf.tests.servlet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A representative subset of the suite's requests sent over HTTP/2 (h2 over TLS, chosen by
 * ALPN) with the JDK's {@link java.net.http.HttpClient} ({@link Http2Client}) to the three
 * containers, their TLS connectors offering h2 and HTTP/1.1: the request's protocol, scheme,
 * port and headers as the servlet sees them, a form POST, response headers, cookies, a large
 * body, redirects, {@code sendError}, async completion and dispatch, error pages. The
 * applications are those of the HTTP/1.1 suites ({@link RequestApplication},
 * {@link ResponseApplication}, {@link AsyncApplication}, {@link ErrorApplication}) in one context.
 * The JDK's client does not show trailer fields, so trailers are not compared here.
 */
class ServletHttp2Test {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx",
        Applications.of(new RequestApplication(), new ResponseApplication(), new AsyncApplication(), new ErrorApplication()),
        Deployment.NONE.withErrorPages(ErrorApplication.PAGES).withTls(new Tls(Tls.ClientCertificates.NONE, true, null)));

    private static Differential h2;

    @BeforeAll
    static void startClient() throws Exception {
        h2 = containers.over(containers.http2Client());
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/r/basics?h2", "/ctx/r/parameters?a=1&a=2&b=%C3%A9", "/ctx/r/locales?fr",
        "/ctx/s/status-201", "/ctx/s/status-204-with-body", "/ctx/s/send-error-404", "/ctx/s/send-error-500-message",
        "/ctx/s/redirect-relative", "/ctx/s/redirect-absolute-path", "/ctx/s/headers", "/ctx/s/cookies", "/ctx/s/large-body",
        "/ctx/s/content-length-exact", "/ctx/s/reset-buffer", "/ctx/s/trailers",
        "/ctx/async/complete", "/ctx/async/dispatch?q=1", "/ctx/async/timeout-answered", "/ctx/plain/x",
    })
    void get(String target) {
        h2.check(Differential.request("GET", target));
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {"/ctx/e/send-404?q=1", "/ctx/e/send-500", "/ctx/e/throw-state", "/ctx/e/throw-io", "/ctx/nowhere"})
    void errorPages(String target) {
        h2.check(Differential.request("GET", target), Compared.ALL_OF_ERRORS);
    }

    @Test
    void requestHeaders() {
        h2.check("""
            GET /ctx/r/headers HTTP/1.1
            Host: {host}
            X-A: one
            x-a: two, three
            X-Int: 42
            X-Not-Int: forty-two
            If-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT
            Connection: close

            """);
    }

    @Test
    void formPost() {
        h2.check("""
            POST /ctx/r/parameters?a=query HTTP/1.1
            Host: {host}
            Content-Type: application/x-www-form-urlencoded
            Content-Length: 15

            a=body&z=%C3%A9""");
    }

    @Test
    void encodingOfAPost() {
        h2.check("""
            POST /ctx/r/encoding?utf8 HTTP/1.1
            Host: {host}
            Content-Type: application/x-www-form-urlencoded; charset=UTF-8
            Content-Length: 11

            name=%C3%A9""");
    }

    @Test
    void theSameRequestOverHttp1OnTheSameConnector() {
        containers.get("/ctx/r/basics?http1");
    }
}
