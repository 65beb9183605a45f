package io.wharf.tests.servlet;

import java.io.IOException;
import java.nio.channels.IllegalBlockingModeException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;

/**
 * The test application of error handling (Servlet 6.1 section 10.9): {@code failing} at
 * {@code /e/*} sends an error or throws as its path info says, {@code unavailable} throws
 * UnavailableException; the error pages
 * ({@link #PAGES}: 404 and 410 by status, IllegalStateException by type, a default for the
 * rest) are served by {@code errorPage} at {@code /error/*}, which prints the dispatch it got
 * and the {@code jakarta.servlet.error.*} attributes (section 10.9.1).
 */
final class ErrorApplication implements ServletContainerInitializer {

    static final ErrorPage[] PAGES = {
        ErrorPage.forStatus(404, "/error/not-found"),
        ErrorPage.forStatus(410, "/error/gone"),
        ErrorPage.forException(IllegalStateException.class, "/error/state"),
        ErrorPage.byDefault("/error/default"),
    };

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addServlet("failing", new PrintingServlet((request, response) -> {
            switch (request.getPathInfo()) {
                case "/send-404" -> response.sendError(404);
                case "/send-410-message" -> response.sendError(410, "gone away");
                case "/send-500" -> response.sendError(500);
                case "/send-503" -> response.sendError(503, "later");
                case "/set-404" -> response.setStatus(404);
                case "/throw-state" -> throw new IllegalStateException("bad state");
                case "/throw-state-subclass" -> throw new IllegalBlockingModeException();
                case "/throw-wrapped-state" -> throw new ServletException("wrapper", new IllegalStateException("wrapped"));
                case "/throw-io" -> throw new IOException("broken");
                case "/throw-runtime" -> throw new IllegalArgumentException("unmapped");
                case "/send-after-write" -> {
                    response.getWriter().print("dropped by sendError\n");
                    response.sendError(404);
                }
                default -> { }
            }
            return List.of("no error from " + request.getPathInfo());
        })).addMapping("/e/*");
        // Unavailable for a minute after it throws (section 2.3.3.2), so a servlet of its own: the others stay available.
        context.addServlet("unavailable", new PrintingServlet((request, response) -> {
            throw new UnavailableException("for a while", 60);
        })).addMapping("/unavailable");
        context.addServlet("errorPage", new PrintingServlet((request, response) -> {
            List<String> lines = new ArrayList<>(PrintingServlet.paths(request));
            lines.add("method=" + request.getMethod());
            lines.add("status=" + response.getStatus());
            for (String name : List.of(RequestDispatcher.ERROR_STATUS_CODE, RequestDispatcher.ERROR_MESSAGE,
                    RequestDispatcher.ERROR_EXCEPTION_TYPE, RequestDispatcher.ERROR_REQUEST_URI, RequestDispatcher.ERROR_SERVLET_NAME,
                    RequestDispatcher.ERROR_QUERY_STRING, RequestDispatcher.ERROR_METHOD)) {
                lines.add(name + "=" + request.getAttribute(name));
            }
            Object exception = request.getAttribute(RequestDispatcher.ERROR_EXCEPTION);
            lines.add(RequestDispatcher.ERROR_EXCEPTION + "=" + (exception instanceof Throwable thrown
                ? thrown.getClass().getName() + ": " + thrown.getMessage() : exception));
            lines.add("forward.request_uri=" + request.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI));
            return lines;
        })).addMapping("/error/*");
    }
}
