package io.wharf.tests.servlet;

import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Error handling (Servlet 6.1 section 10.9) compared between the containers: errors sent and
 * exceptions thrown, matched to error pages by status, by exception type (through a subclass
 * and through a wrapping ServletException) or to the default page, and what the error page
 * sees. Each peer registers {@link ErrorApplication#PAGES} its own way, there being no
 * Servlet API for it.
 */
class ServletErrorTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new ErrorApplication(), ErrorApplication.PAGES);

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {
        "/ctx/e/send-404?q=1", "/ctx/e/send-410-message", "/ctx/e/send-500", "/ctx/e/send-503", "/ctx/e/set-404",
        "/ctx/e/throw-state", "/ctx/e/throw-state-subclass", "/ctx/e/throw-wrapped-state", "/ctx/e/throw-io",
        "/ctx/e/throw-runtime", "/ctx/unavailable", "/ctx/e/send-after-write", "/ctx/nowhere",
    })
    void errors(String target) {
        containers.check(Differential.request("GET", target), Compared.ALL_OF_ERRORS);
    }

    @ParameterizedTest(name = "POST {0}")
    @ValueSource(strings = {"/ctx/e/send-404?post", "/ctx/e/throw-state?post"})
    void errorsOfAPost(String target) {
        containers.check(Differential.request("POST", target, "Content-Length: 0"), Compared.ALL_OF_ERRORS);
    }
}
