package io.wharf.tests.servlet;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The test application of the response (Servlet 6.1 chapter 5): one servlet at {@code /s/*}
 * whose path info names a case ({@link #CASES}) that sets a status, sends an error or a
 * redirect, combines content type, character encoding and locale, mixes writer and stream,
 * or works the buffer; where a case learns something (an exception, whether the response is
 * committed) it writes it into the body as text.
 */
final class ResponseApplication implements ServletContainerInitializer {

    /** One case: what the servlet does to the response. */
    @FunctionalInterface
    interface Case {
        void run(HttpServletRequest request, HttpServletResponse response) throws IOException;
    }

    static final Map<String, Case> CASES = new LinkedHashMap<>();

    static {
        // Status (HttpServletResponse.setStatus)
        CASES.put("status-201", (request, response) -> {
            response.setStatus(201);
            ascii(response, "created\n");
        });
        CASES.put("status-299", (request, response) -> {
            response.setStatus(299);
            ascii(response, "unusual\n");
        });
        CASES.put("status-204-with-body", (request, response) -> {
            response.setStatus(204);
            ascii(response, "no content has no body\n");
        });
        CASES.put("status-404-with-body", (request, response) -> {
            response.setStatus(404);
            ascii(response, "my own not found\n");
        });
        CASES.put("status-after-commit", (request, response) -> {
            ascii(response, "first\n");
            response.flushBuffer();
            response.setStatus(500);
            ascii(response, "status=" + response.getStatus() + "\n");
        });
        // Errors: compared by status (their pages differ by design)
        CASES.put("send-error-404", (request, response) -> response.sendError(404));
        CASES.put("send-error-500-message", (request, response) -> response.sendError(500, "boom"));
        CASES.put("send-error-after-commit", (request, response) -> afterCommit(response, "sendError", () -> response.sendError(500)));
        // Redirects (section 5.4, HttpServletResponse.sendRedirect)
        CASES.put("redirect-relative", (request, response) -> response.sendRedirect("target?x=1"));
        CASES.put("redirect-dot-dot", (request, response) -> response.sendRedirect("../up"));
        CASES.put("redirect-absolute-path", (request, response) -> response.sendRedirect("/elsewhere"));
        CASES.put("redirect-absolute-uri", (request, response) -> response.sendRedirect("http://example.com/x"));
        CASES.put("redirect-network-path", (request, response) -> response.sendRedirect("//example.com/x"));
        CASES.put("redirect-301", (request, response) -> response.sendRedirect("target", 301));
        CASES.put("redirect-keep-body", (request, response) -> {
            ascii(response, "written before\n");
            response.sendRedirect("target", 302, false);
        });
        CASES.put("redirect-after-commit", (request, response) -> afterCommit(response, "sendRedirect", () -> response.sendRedirect("target")));
        // Content type, character encoding and locale (section 5.5)
        CASES.put("type-html-writer", (request, response) -> {
            response.setContentType("text/html");
            writer(response, "html\n");
        });
        CASES.put("type-html-stream", (request, response) -> {
            response.setContentType("text/html");
            ascii(response, "html\n");
        });
        CASES.put("type-with-charset", (request, response) -> {
            response.setContentType("text/plain; charset=UTF-8");
            writer(response, "\u00e9t\u00e9\n");
        });
        CASES.put("type-then-encoding", (request, response) -> {
            response.setContentType("text/plain");
            response.setCharacterEncoding("UTF-8");
            writer(response, "\u00e9t\u00e9\n");
        });
        CASES.put("encoding-then-type", (request, response) -> {
            response.setCharacterEncoding("UTF-8");
            response.setContentType("text/plain");
            writer(response, "\u00e9t\u00e9\n");
        });
        CASES.put("encoding-after-writer", (request, response) -> {
            response.setContentType("text/plain");
            PrintWriter writer = response.getWriter();
            response.setCharacterEncoding("UTF-8");
            writer.print("\u00e9t\u00e9 encoding=" + response.getCharacterEncoding() + "\n");
        });
        CASES.put("type-charset-after-writer", (request, response) -> {
            response.setContentType("text/plain;charset=ISO-8859-1");
            PrintWriter writer = response.getWriter();
            response.setContentType("text/html;charset=UTF-8");
            writer.print("type=" + response.getContentType() + "\n");
        });
        CASES.put("locale-without-mapping", (request, response) -> {
            response.setContentType("text/plain");
            response.setLocale(Locale.JAPAN);
            writer(response, "encoding=" + response.getCharacterEncoding() + " locale=" + response.getLocale() + "\n");
        });
        CASES.put("locale-after-encoding", (request, response) -> {
            response.setCharacterEncoding("UTF-8");
            response.setLocale(Locale.FRANCE);
            response.setContentType("text/plain");
            writer(response, "encoding=" + response.getCharacterEncoding() + "\n");
        });
        CASES.put("json-writer", (request, response) -> {
            response.setContentType("application/json");
            writer(response, "{}\n");
        });
        CASES.put("image-with-encoding", (request, response) -> {
            response.setContentType("image/png");
            response.setCharacterEncoding("UTF-8");
            ascii(response, "png\n");
        });
        CASES.put("encoding-null", (request, response) -> {
            response.setContentType("text/plain;charset=UTF-8");
            response.setCharacterEncoding((String) null);
            ascii(response, "encoding=" + response.getCharacterEncoding() + " type=" + response.getContentType() + "\n");
        });
        CASES.put("type-null", (request, response) -> {
            response.setContentType("text/plain;charset=UTF-8");
            response.setContentType(null);
            ascii(response, "encoding=" + response.getCharacterEncoding() + " type=" + response.getContentType() + "\n");
        });
        CASES.put("no-type-writer", (request, response) -> writer(response, "no type\n"));
        CASES.put("quoted-charset", (request, response) -> {
            response.setContentType("text/plain; charset=\"utf-8\"");
            writer(response, "encoding=" + response.getCharacterEncoding() + "\n");
        });
        CASES.put("get-content-type", (request, response) -> {
            response.setContentType("text/plain");
            String before = response.getContentType();
            response.setCharacterEncoding("UTF-8");
            ascii(response, "before=" + before + "\nafter=" + response.getContentType() + "\n");
        });
        // Writer and stream (ServletResponse.getWriter and getOutputStream)
        CASES.put("writer-then-stream", (request, response) -> {
            response.setContentType("text/plain");
            PrintWriter writer = response.getWriter();
            try {
                response.getOutputStream();
                writer.print("no exception\n");
            } catch (IllegalStateException e) {
                writer.print("getOutputStream after getWriter: IllegalStateException\n");
            }
        });
        CASES.put("stream-then-writer", (request, response) -> {
            response.setContentType("text/plain");
            ServletOutputStream out = response.getOutputStream();
            try {
                response.getWriter();
                out.print("no exception\n");
            } catch (IllegalStateException e) {
                out.print("getWriter after getOutputStream: IllegalStateException\n");
            }
        });
        CASES.put("writer-twice", (request, response) -> {
            response.setContentType("text/plain");
            writer(response, "same writer=" + (response.getWriter() == response.getWriter()) + "\n");
        });
        // Buffering (section 5.1)
        CASES.put("buffer-size", (request, response) -> {
            int before = response.getBufferSize();
            response.setBufferSize(100);
            ascii(response, "default>=8192=" + (before >= 8192) + " afterSet>=100=" + (response.getBufferSize() >= 100) + "\n");
        });
        CASES.put("buffer-size-after-write", (request, response) -> {
            ascii(response, "first\n");
            try {
                response.setBufferSize(100_000);
                ascii(response, "no exception\n");
            } catch (IllegalStateException e) {
                ascii(response, "setBufferSize after write: IllegalStateException\n");
            }
        });
        CASES.put("reset-buffer", (request, response) -> {
            response.setHeader("X-Kept", "yes");
            response.setStatus(202);
            ascii(response, "dropped\n");
            response.resetBuffer();
            ascii(response, "committed=" + response.isCommitted() + " status=" + response.getStatus() + "\n");
        });
        CASES.put("reset", (request, response) -> {
            response.setHeader("X-Kept", "no");
            response.setStatus(202);
            response.setContentType("text/html");
            ascii(response, "dropped\n");
            response.reset();
            ascii(response, "status=" + response.getStatus() + " type=" + response.getContentType()
                + " X-Kept=" + response.getHeader("X-Kept") + "\n");
        });
        CASES.put("reset-after-commit", (request, response) -> afterCommit(response, "reset", response::reset));
        CASES.put("overflow-commits", (request, response) -> {
            response.setBufferSize(1024);
            ascii(response, "x".repeat(64 * 1024) + "\n");
            ascii(response, "committed=" + response.isCommitted() + "\n");
        });
        CASES.put("reset-writer-switch", (request, response) -> {
            response.getWriter().print("dropped");
            response.reset();
            response.setContentType("text/plain");
            ascii(response, "after reset the stream is allowed\n");
        });
        // Content length (section 5.6: the response is closed when the length is written)
        CASES.put("content-length-exact", (request, response) -> {
            response.setContentLength(6);
            ascii(response, "hello\n");
        });
        CASES.put("content-length-short", (request, response) -> {
            response.setContentLength(5);
            ascii(response, "hello world\n");
            ascii(response, "after\n");
        });
        CASES.put("content-length-committed", (request, response) -> {
            response.setContentLength(5);
            ascii(response, "hello");
            ascii(response, "");
            response.getOutputStream().flush();
        });
        CASES.put("header-content-length", (request, response) -> {
            response.setHeader("Content-Length", "3");
            ascii(response, "abc");
        });
        CASES.put("large-body", (request, response) -> {
            StringBuilder body = new StringBuilder();
            for (int i = 0; i < 5000; i++) {
                body.append("line ").append(i).append('\n');
            }
            ascii(response, body.toString());
        });
        // Headers (section 5.2), cookies and trailers (section 5.3)
        CASES.put("headers", (request, response) -> {
            response.setHeader("X-One", "1");
            response.addHeader("X-One", "2");
            response.setIntHeader("X-Int", 42);
            response.setDateHeader("X-Date", 784111777000L);
            response.addHeader("X-Null", null);
            response.setHeader("X-Removed", "x");
            response.setHeader("X-Removed", null);
            ascii(response, "containsHeader(x-one)=" + response.containsHeader("x-one") + " getHeaders(X-One)="
                + response.getHeaders("X-One") + " getHeader(X-Int)=" + response.getHeader("X-Int")
                + " getHeader(X-Removed)=" + response.getHeader("X-Removed") + "\n");
        });
        CASES.put("cookies", (request, response) -> {
            Cookie plain = new Cookie("plain", "1");
            response.addCookie(plain);
            Cookie full = new Cookie("full", "v");
            full.setPath("/ctx");
            full.setMaxAge(60);
            full.setHttpOnly(true);
            full.setSecure(true);
            full.setAttribute("SameSite", "Lax");
            response.addCookie(full);
            Cookie gone = new Cookie("gone", "");
            gone.setMaxAge(0);
            response.addCookie(gone);
            ascii(response, "cookies\n");
        });
        CASES.put("trailers", (request, response) -> {
            response.setTrailerFields(() -> Map.of("X-Trailer", "t"));
            ascii(response, "with trailers\n");
        });
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addServlet("response", new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                Case action = CASES.get(request.getPathInfo().substring(1));
                if (action == null) {
                    response.sendError(400, "no case " + request.getPathInfo());
                } else {
                    action.run(request, response);
                }
            }
        }).addMapping("/s/*");
    }

    /** An action on the response that may throw. */
    private interface Action {
        void run() throws IOException;
    }

    /**
     * Commits the response with a first line, then tries {@code action} on it, which must fail:
     * writes a line that says whether it did, and whether the response is still committed.
     */
    private static void afterCommit(HttpServletResponse response, String name, Action action) throws IOException {
        ascii(response, "first\n");
        response.flushBuffer();
        try {
            action.run();
            ascii(response, name + " after commit: no exception\n");
        } catch (IllegalStateException e) {
            ascii(response, name + " after commit: IllegalStateException committed=" + response.isCommitted() + "\n");
        }
    }

    /** Writes {@code text} as US-ASCII bytes through the output stream, which leaves the character encoding alone. */
    private static void ascii(HttpServletResponse response, String text) throws IOException {
        response.getOutputStream().write(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static void writer(HttpServletResponse response, String text) throws IOException {
        response.getWriter().print(text);
    }
}
