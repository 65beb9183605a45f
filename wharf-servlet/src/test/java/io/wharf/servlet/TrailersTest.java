package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import java.util.TreeMap;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;


import org.junit.jupiter.api.Test;

/** Trailer fields both ways (Servlet 6.1 sections 3.6 and 5.3): a chunked request's, and the response's after its content. */
class TrailersTest extends ServletTestCase {

    @Test
    void requestTrailersAfterTheContentAndResponseTrailersAfterTheChunks() throws Exception {
        tester("/");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                boolean readyBefore = request.isTrailerFieldsReady();
                String content = new String(request.getInputStream().readAllBytes());
                Map<String, String> trailers = new TreeMap<>(request.getTrailerFields());
                response.setTrailerFields(() -> Map.of("checksum", "c-" + content.length()));
                response.getWriter().print("content=" + content + " readyBefore=" + readyBefore + " readyAfter="
                    + request.isTrailerFieldsReady() + " trailers=" + trailers);
            }
        }, "/*");
        tester.start();
        String response = tester.request("""
            POST /t HTTP/1.1
            Host: test
            Transfer-Encoding: chunked
            Connection: close

            5
            hello
            0
            X-Digest: abc
            X-Count: 1

            """);
        assertEquals(200, status(response));
        assertTrue(response.contains("Transfer-Encoding: chunked"), "trailers need a chunked response: " + response);
        assertTrue(response.contains("content=hello readyBefore=false readyAfter=true trailers={x-count=1, x-digest=abc}"), response);
        assertTrue(response.contains("\r\n0\r\nchecksum: c-5\r\n\r\n"), response);
    }
}
