package io.wharf.tests.servlet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Multipart requests (Servlet 6.1 section 3.2) and session life (chapter 7) compared between the containers. */
class ServletPartsAndSessionsTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new PartsAndSessionsApplication());

    private static final String FORM = """
        --XyZ\r
        Content-Disposition: form-data; name="field"\r
        \r
        value\r
        --XyZ\r
        Content-Disposition: form-data; name="file"; filename="a.txt"\r
        Content-Type: text/plain\r
        \r
        file content\r
        --XyZ--\r
        """;

    private static String post(String target, String body) {
        return Differential.request("POST", target, "Content-Type: multipart/form-data; boundary=XyZ",
            "Content-Length: " + body.length()) + body;
    }

    @ParameterizedTest(name = "POST {0}")
    @ValueSource(strings = {"/ctx/parts", "/ctx/parts-unconfigured"})
    void parts(String target) {
        containers.check(post(target, FORM), Compared.ALL);
    }

    @Test
    void aPartOverMaxFileSizeIsRefused() {
        String big = FORM.replace("file content", "x".repeat(2000));
        containers.check(post("/ctx/parts?big", big), Compared.WITHOUT_BODY);
    }

    @ParameterizedTest(name = "GET {0}")
    @ValueSource(strings = {"/ctx/session/plain", "/ctx/session/invalidate", "/ctx/session/change"})
    void sessions(String target) {
        containers.get(target);
    }

    @Test
    void anUnknownSessionIdIsNotValid() {
        containers.get("/ctx/session/plain", "Cookie: JSESSIONID=made-up");
    }
}
