package io.wharf.tests.servlet;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * A servlet of the test applications that answers every method with what a function saw of
 * the request and response, as {@code text/plain;charset=UTF-8} lines: the text the
 * differential suite compares. The function may also act on the response (set a status, a
 * header) before the lines are written.
 */
final class PrintingServlet extends HttpServlet {

    private static final long serialVersionUID = 1L;

    /** What a servlet sees, as lines of text. */
    @FunctionalInterface
    interface Sight {
        List<String> lines(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException;
    }

    private final transient Sight sight;

    PrintingServlet(Sight sight) {
        this.sight = sight;
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
        List<String> lines = sight.lines(request, response);
        response.setContentType("text/plain;charset=UTF-8");
        response.getWriter().print(String.join("\n", lines) + "\n");
    }

    /** @return the lines that describe how {@code request} was mapped: its paths and its {@code HttpServletMapping} */
    static List<String> paths(HttpServletRequest request) {
        var mapping = request.getHttpServletMapping();
        return List.of(
            "dispatcherType=" + request.getDispatcherType(),
            "requestURI=" + request.getRequestURI(),
            "contextPath=" + request.getContextPath(),
            "servletPath=" + request.getServletPath(),
            "pathInfo=" + request.getPathInfo(),
            "queryString=" + request.getQueryString(),
            "mapping.match=" + (mapping == null ? null : mapping.getMappingMatch()),
            "mapping.pattern=" + (mapping == null ? null : mapping.getPattern()),
            "mapping.matchValue=" + (mapping == null ? null : mapping.getMatchValue()),
            "mapping.servletName=" + (mapping == null ? null : mapping.getServletName()));
    }
}
