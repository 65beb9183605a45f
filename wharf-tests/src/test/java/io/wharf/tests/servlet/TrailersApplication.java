package io.wharf.tests.servlet;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * The test application of trailer fields both ways (Servlet 6.1, the javadoc of
 * {@code HttpServletRequest.getTrailerFields}, {@code isTrailerFieldsReady},
 * {@code HttpServletResponse.setTrailerFields}; RFC 9110 §6.5, RFC 9112 §7.1.2):
 * <ul>
 * <li>{@code /t/echo}: reads the request body to its end with the input stream and prints, in
 *     order, whether the trailer fields were ready before the first read, what
 *     {@code getTrailerFields} gave then (or the exception it threw), the body, whether they
 *     are ready after the end, and the trailer fields then (sorted by name);
 * <li>{@code /t/form}: the same of a form body, which the container reads for
 *     {@code getParameter} (the application never reads the body itself);
 * <li>{@code /t/answer/<case>}: an answer with trailer fields {@code x-checksum: abc} and
 *     {@code x-count: 2} set by a supplier, the case ({@link #ANSWERS}) saying when the body is
 *     written, whether a Content-Length is set first or after, whether the response is
 *     committed first; the header fields {@code X-Set} and {@code X-TE} (the body's first lines
 *     when the response is committed before) say whether {@code setTrailerFields} threw, and
 *     what the request's TE field was.
 * </ul>
 */
final class TrailersApplication implements ServletContainerInitializer {

    /** The trailer fields every answer sets, in the supplier. */
    static final Map<String, String> TRAILERS = Map.of("x-checksum", "abc", "x-count", "2");

    private static final String BODY = "a body with trailers\n";

    /** One way of answering with trailer fields. */
    @FunctionalInterface
    interface Case {
        void run(HttpServletRequest request, HttpServletResponse response) throws IOException;
    }

    /** The cases of {@code /t/answer/<case>}. */
    static final Map<String, Case> ANSWERS = new LinkedHashMap<>();

    static {
        // The plain case: trailers set, then the body, of a length the container does not know.
        ANSWERS.put("plain", (request, response) -> {
            String set = setTrailers(response);
            write(response, request, set);
        });
        // Content-Length first: the response cannot be chunked on HTTP/1.1 (the javadoc of setTrailerFields: IllegalStateException).
        ANSWERS.put("length-first", (request, response) -> {
            response.setContentLength(BODY.length());
            String set = setTrailers(response);
            write(response, request, set);
        });
        // Content-Length after the trailers were set: what is sent, the length or the trailers?
        ANSWERS.put("length-after", (request, response) -> {
            String set = setTrailers(response);
            response.setContentLength(BODY.length());
            write(response, request, set);
        });
        // The body flushed before the end, then more: committed chunked, the trailers at the end.
        ANSWERS.put("flushed", (request, response) -> {
            String set = setTrailers(response);
            response.getOutputStream().write("first\n".getBytes(StandardCharsets.US_ASCII));
            response.flushBuffer();
            write(response, request, set);
        });
        // Trailers set after the response was committed: IllegalStateException (javadoc of setTrailerFields).
        ANSWERS.put("after-commit", (request, response) -> {
            response.getOutputStream().write("first\n".getBytes(StandardCharsets.US_ASCII));
            response.flushBuffer();
            String set = setTrailers(response);
            write(response, request, set);
        });
        // No body at all: the trailers follow the headers.
        ANSWERS.put("empty", (request, response) -> {
            response.setHeader("X-Set", setTrailers(response));
            response.setHeader("X-TE", "TE=" + request.getHeader("TE"));
        });
    }

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addServlet("trailers-echo", new PrintingServlet((request, response) -> {
            List<String> lines = new ArrayList<>();
            lines.add("ready-before=" + request.isTrailerFieldsReady());
            lines.add("trailers-before=" + trailers(request));
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            request.getInputStream().transferTo(body);
            lines.add("body=" + body.toString(StandardCharsets.ISO_8859_1).replace("\n", "\\n"));
            lines.add("ready-after=" + request.isTrailerFieldsReady());
            lines.add("trailers-after=" + trailers(request));
            return lines;
        })).addMapping("/t/echo");
        context.addServlet("trailers-form", new PrintingServlet((request, response) -> List.of(
            "ready-before=" + request.isTrailerFieldsReady(),
            "a=" + request.getParameter("a"),
            "ready-after=" + request.isTrailerFieldsReady(),
            "trailers-after=" + trailers(request)))).addMapping("/t/form");
        context.addServlet("trailers-answer", new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                Case answer = ANSWERS.get(request.getPathInfo().substring(1));
                if (answer == null) {
                    response.sendError(400, "no case " + request.getPathInfo());
                    return;
                }
                response.setContentType("text/plain;charset=UTF-8");
                answer.run(request, response);
            }
        }).addMapping("/t/answer/*");
    }

    /** @return the request's trailer fields sorted by name, or the exception {@code getTrailerFields} threw */
    private static String trailers(HttpServletRequest request) {
        try {
            Map<String, String> fields = request.getTrailerFields();
            return fields == null ? "null" : new TreeMap<>(fields).toString();
        } catch (IllegalStateException notReady) {
            return "IllegalStateException";
        }
    }

    /** Sets the supplier of {@link #TRAILERS}; @return a line that says whether that threw */
    private static String setTrailers(HttpServletResponse response) {
        try {
            response.setTrailerFields(() -> TRAILERS);
            return "set=no exception";
        } catch (IllegalStateException refused) {
            return "set=IllegalStateException";
        }
    }

    /**
     * Writes {@link #BODY}; says what {@code set} says and what the request's TE field was in the
     * header fields {@code X-Set} and {@code X-TE}, or in the body when the response is committed.
     */
    private static void write(HttpServletResponse response, HttpServletRequest request, String set) throws IOException {
        String te = "TE=" + request.getHeader("TE");
        if (response.isCommitted()) {
            response.getOutputStream().write((set + "\n" + te + "\n").getBytes(StandardCharsets.US_ASCII));
        } else {
            response.setHeader("X-Set", set);
            response.setHeader("X-TE", te);
        }
        response.getOutputStream().write(BODY.getBytes(StandardCharsets.US_ASCII));
    }
}
