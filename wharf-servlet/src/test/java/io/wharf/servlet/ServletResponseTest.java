package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.header;
import static io.wharf.servlet.ServletTester.headers;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;


import org.junit.jupiter.api.Test;

/** The servlet response (Servlet 6.1 chapter 5): buffer, commit, content type and charset, errors, redirects, headers. */
class ServletResponseTest extends ServletTestCase {

    /** What a test servlet does with the response. */
    @FunctionalInterface
    interface Body {
        void write(HttpServletRequest request, HttpServletResponse response) throws IOException;
    }

    private ServletTester serve(Body body) throws Exception {
        tester("/");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                body.write(request, response);
            }
        }, "/*");
        tester.context.addLocaleEncoding("ja", "Shift_JIS");
        return tester.start();
    }

    @Test
    void aSmallResponseGetsAContentLengthAndALargeOneIsChunked() throws Exception {
        serve((request, response) -> {
            int size = Integer.parseInt(request.getParameter("size"));
            response.getOutputStream().write("x".repeat(size).getBytes(StandardCharsets.US_ASCII));
        });
        String small = tester.get("/?size=100");
        assertEquals("100", header(small, "Content-Length"));
        assertNull(header(small, "Transfer-Encoding"));
        String large = tester.get("/?size=100000");
        assertEquals("chunked", header(large, "Transfer-Encoding"));
        assertNull(header(large, "Content-Length"));
    }

    @Test
    void theCharsetFollowsSection56() throws Exception {
        serve((request, response) -> {
            switch (request.getPathInfo()) {
                case "/type-then-encoding" -> {
                    response.setContentType("text/html");
                    response.setCharacterEncoding("UTF-8");
                }
                case "/charset-in-type" -> response.setContentType("text/plain; charset=utf-16");
                case "/encoding-after-writer" -> {
                    response.setContentType("text/plain");
                    response.getWriter();
                    response.setCharacterEncoding("UTF-8");
                }
                case "/locale" -> {
                    response.setContentType("text/plain");
                    response.setLocale(Locale.JAPANESE);
                }
                case "/locale-after-encoding" -> {
                    response.setContentType("text/plain");
                    response.setCharacterEncoding("UTF-8");
                    response.setLocale(Locale.JAPANESE);
                }
                case "/no-type" -> response.getWriter().print("é");
                default -> throw new IllegalArgumentException(request.getPathInfo());
            }
            response.getWriter().print("é");
        });
        assertEquals("text/html;charset=UTF-8", header(tester.get("/type-then-encoding"), "Content-Type"));
        assertEquals("text/plain;charset=utf-16", header(tester.get("/charset-in-type"), "Content-Type"));
        String afterWriter = tester.get("/encoding-after-writer");
        assertEquals("text/plain;charset=ISO-8859-1", header(afterWriter, "Content-Type"));
        assertEquals("1", header(afterWriter, "Content-Length"));
        String locale = tester.get("/locale");
        assertEquals("text/plain;charset=Shift_JIS", header(locale, "Content-Type"));
        assertEquals("ja", header(locale, "Content-Language"));
        assertEquals("text/plain;charset=UTF-8", header(tester.get("/locale-after-encoding"), "Content-Type"));
        String noType = tester.get("/no-type");
        assertNull(header(noType, "Content-Type"));
        assertEquals("2", header(noType, "Content-Length"), "ISO-8859-1 has one byte for é, written twice");
    }

    @Test
    void writerAndStreamExcludeEachOther() throws Exception {
        serve((request, response) -> {
            response.getWriter();
            try {
                response.getOutputStream();
                response.getWriter().print("no exception");
            } catch (IllegalStateException expected) {
                response.getWriter().print("IllegalStateException");
            }
        });
        assertEquals("IllegalStateException", content(tester.get("/")));
    }

    @Test
    void resetAndResetBufferClearWhatIsNotCommitted() throws Exception {
        serve((request, response) -> {
            response.setHeader("X-Gone", "1");
            response.setStatus(201);
            response.getWriter().print("gone");
            response.reset();
            response.setHeader("X-Kept", "1");
            response.getWriter().print("also gone");
            response.resetBuffer();
            response.getWriter().print("kept");
            if (response.isCommitted()) {
                throw new AssertionError("committed before flushBuffer");
            }
            response.flushBuffer();
            try {
                response.reset();
            } catch (IllegalStateException expected) {
                response.getWriter().print(" reset refused, committed=" + response.isCommitted());
            }
        });
        String response = tester.get("/");
        assertEquals(200, status(response));
        assertNull(header(response, "X-Gone"));
        assertEquals("1", header(response, "X-Kept"));
        assertEquals("kept reset refused, committed=true", content(response));
    }

    @Test
    void aContentLengthClosesTheResponseWhenReached() throws Exception {
        serve((request, response) -> {
            response.setContentLength(5);
            response.getOutputStream().print("hello, and more");
            response.getOutputStream().print("even more");
        });
        String response = tester.get("/");
        assertEquals("5", header(response, "Content-Length"));
        assertEquals("hello", content(response));
    }

    @Test
    void sendErrorWritesTheServersErrorPageAndKeepsHeadersButTheContents() throws Exception {
        serve((request, response) -> {
            response.addCookie(new Cookie("kept", "1"));
            response.setHeader("X-Kept", "1");
            response.setHeader("Last-Modified", "Thu, 01 Jan 1970 00:00:00 GMT");
            response.getWriter().print("discarded");
            response.sendError(403, "no <entry>");
            response.getWriter().print("ignored after sendError");
        });
        String response = tester.request("GET / HTTP/1.1\nHost: test\nAccept: text/html\nConnection: close\n\n");
        assertEquals(403, status(response));
        assertEquals(List.of("kept=1"), headers(response, "Set-Cookie"));
        assertEquals("1", header(response, "X-Kept"), "headers other than the content's stay");
        assertNull(header(response, "Last-Modified"), "the content's headers go with the content");
        String body = content(response);
        assertTrue(body.contains("no &lt;entry&gt;"), body);
        assertFalse(body.contains("discarded") || body.contains("ignored"), body);
    }

    /**
     * RFC 9110 section 15.5.6: a 405 carries Allow. Spring MVC sets it, then calls sendError(405);
     * Jetty and Tomcat keep it on their error page, and so does an exception's error page keep
     * what was set before.
     */
    @Test
    void theDefaultErrorPageKeepsAllowAndRetryAfter() throws Exception {
        serve((request, response) -> {
            if (request.getParameter("throw") != null) {
                response.setHeader("Retry-After", "5");
                throw new IllegalStateException("failed");
            }
            response.setHeader("Allow", "GET, HEAD");
            response.sendError(405, "Method 'DELETE' is not supported.");
        });
        String refused = tester.request("DELETE / HTTP/1.1\nHost: test\nConnection: close\n\n");
        assertEquals(405, status(refused));
        assertEquals("GET, HEAD", header(refused, "Allow"));
        String failed = tester.get("/?throw=1");
        assertEquals(500, status(failed));
        assertEquals("5", header(failed, "Retry-After"));
    }

    @Test
    void anUncaughtExceptionIs500WithoutAStackTrace() throws Exception {
        serve((request, response) -> {
            response.getWriter().print("partial");
            throw new IllegalStateException("secret detail");
        });
        String response = tester.get("/");
        assertEquals(500, status(response));
        assertFalse(response.contains("secret detail"), response);
        assertFalse(response.contains("IllegalStateException"), response);
        assertFalse(response.contains("partial"), response);
    }

    @Test
    void redirectsResolveRelativeLocations() throws Exception {
        serve((request, response) -> response.sendRedirect(request.getParameter("to")));
        assertEquals("/a/b/c", header(tester.get("/a/b/x?to=c"), "Location"));
        assertEquals("/a/c", header(tester.get("/a/b/x?to=../c"), "Location"));
        assertEquals("/abs?q=1", header(tester.get("/a/b/x?to=/abs%3Fq%3D1"), "Location"));
        assertEquals("//other.example/p", header(tester.get("/a/b/x?to=//other.example/p"), "Location"));
        assertEquals("https://example.com/x", header(tester.get("/a?to=https://example.com/x"), "Location"));
        assertEquals(302, status(tester.get("/a?to=b")));
    }

    @Test
    void headersSpecialCaseContentTypeAndLengthAndIgnoreChangesAfterCommit() throws Exception {
        serve((request, response) -> {
            response.setHeader("Content-Type", "text/plain; charset=UTF-8");
            response.addIntHeader("X-Int", 1);
            response.addIntHeader("X-Int", 2);
            response.setDateHeader("X-Date", 0);
            response.getWriter().print("ok");
            response.flushBuffer();
            response.setHeader("X-Late", "1");
            response.setStatus(500);
            response.getWriter().print(" " + response.getStatus() + " " + response.getContentType());
        });
        String response = tester.get("/");
        assertEquals(200, status(response));
        assertEquals("text/plain;charset=UTF-8", header(response, "Content-Type"));
        assertEquals(List.of("1", "2"), headers(response, "X-Int"));
        assertEquals("Thu, 01 Jan 1970 00:00:00 GMT", header(response, "X-Date"));
        assertNull(header(response, "X-Late"));
        assertTrue(content(response).contains("ok 200 text/plain;charset=UTF-8"), response);
    }

    @Test
    void headAnswersTheHeadersOfGetWithoutTheBody() throws Exception {
        serve((request, response) -> {
            response.setContentType("text/plain");
            response.getWriter().print("twelve bytes");
        });
        String response = tester.request("HEAD / HTTP/1.1\nHost: test\nConnection: close\n\n");
        assertEquals(200, status(response));
        assertEquals("12", header(response, "Content-Length"));
        assertEquals("", content(response));
    }
}
