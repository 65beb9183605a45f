package io.wharf.tests.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;

/**
 * The test application of the request dispatcher (Servlet 6.1 chapter 9): {@code dispatcher}
 * at {@code /d/*} forwards or includes as its path info says, to {@code target}
 * ({@code /target/*}) by path, relative path, context path or name; {@code target} prints
 * the paths, parameters and the {@code jakarta.servlet.forward.*} and
 * {@code jakarta.servlet.include.*} attributes it sees (sections 9.3 and 9.4).
 */
final class DispatchApplication implements ServletContainerInitializer {

    private static final List<String> FORWARD = List.of(RequestDispatcher.FORWARD_REQUEST_URI, RequestDispatcher.FORWARD_CONTEXT_PATH,
        RequestDispatcher.FORWARD_SERVLET_PATH, RequestDispatcher.FORWARD_PATH_INFO, RequestDispatcher.FORWARD_QUERY_STRING,
        RequestDispatcher.FORWARD_MAPPING);

    private static final List<String> INCLUDE = List.of(RequestDispatcher.INCLUDE_REQUEST_URI, RequestDispatcher.INCLUDE_CONTEXT_PATH,
        RequestDispatcher.INCLUDE_SERVLET_PATH, RequestDispatcher.INCLUDE_PATH_INFO, RequestDispatcher.INCLUDE_QUERY_STRING,
        RequestDispatcher.INCLUDE_MAPPING);

    @Override
    public void onStartup(Set<Class<?>> classes, ServletContext context) {
        context.addServlet("target", new PrintingServlet((request, response) -> {
            // An included servlet's status and headers are ignored (section 9.3).
            response.setStatus(202);
            response.setHeader("X-Target", "set by target");
            return seen(request);
        })).addMapping("/target/*", "*.target");
        context.addServlet("dispatcher", new PrintingServlet((request, response) -> {
            List<String> lines = new ArrayList<>();
            String how = request.getPathInfo();
            switch (how) {
                case "/forward" -> request.getRequestDispatcher("/target/x?q=forwarded&p=2").forward(request, response);
                case "/forward-relative" -> request.getRequestDispatcher("../target/relative").forward(request, response);
                case "/forward-extension" -> request.getRequestDispatcher("/page.target").forward(request, response);
                case "/forward-context" -> context.getRequestDispatcher("/target/by-context").forward(request, response);
                case "/forward-name" -> context.getNamedDispatcher("target").forward(request, response);
                case "/forward-nowhere" -> {
                    RequestDispatcher nowhere = request.getRequestDispatcher("/nowhere");
                    if (nowhere == null) {
                        lines.add("getRequestDispatcher(/nowhere)=null");
                    } else {
                        nowhere.forward(request, response);
                    }
                }
                case "/forward-after-write" -> {
                    response.getWriter().print("dropped by forward\n");
                    request.getRequestDispatcher("/target/after-write").forward(request, response);
                }
                case "/forward-after-commit" -> {
                    response.getWriter().print("committed\n");
                    response.flushBuffer();
                    try {
                        request.getRequestDispatcher("/target/after-commit").forward(request, response);
                    } catch (IllegalStateException e) {
                        response.getWriter().print("forward after commit: IllegalStateException\n");
                    }
                }
                case "/forward-twice" -> request.getRequestDispatcher("/d/forward").forward(request, response);
                case "/include" -> request.getRequestDispatcher("/target/y?q=included").include(request, response);
                case "/include-name" -> context.getNamedDispatcher("target").include(request, response);
                case "/include-relative" -> request.getRequestDispatcher("../target/relative-include").include(request, response);
                case "/include-nowhere" -> {
                    RequestDispatcher nowhere = request.getRequestDispatcher("/nowhere");
                    lines.add("getRequestDispatcher(/nowhere)=" + (nowhere == null ? "null" : "a dispatcher"));
                    if (nowhere != null) {
                        nowhere.include(request, response);
                    }
                }
                default -> lines.add("no case " + how);
            }
            if (how.startsWith("/include")) {
                lines.add("back in dispatcher: status=" + response.getStatus() + " X-Target=" + response.getHeader("X-Target"));
                lines.addAll(PrintingServlet.paths(request));
            }
            return lines;
        })).addMapping("/d/*");
        context.addServlet("missing-name", new PrintingServlet((request, response) -> List.of(
            "getNamedDispatcher(none)=" + context.getNamedDispatcher("none"),
            "getRequestDispatcher(no-slash) from context=" + RequestApplication.call(() -> context.getRequestDispatcher("no-slash"))))
        ).addMapping("/missing");
    }

    private static List<String> seen(HttpServletRequest request) {
        List<String> lines = new ArrayList<>(PrintingServlet.paths(request));
        lines.add("getParameterMap=" + RequestApplication.parameterMap(request));
        for (String name : FORWARD) {
            lines.add(name + "=" + describe(request.getAttribute(name)));
        }
        for (String name : INCLUDE) {
            lines.add(name + "=" + describe(request.getAttribute(name)));
        }
        return lines;
    }

    private static String describe(Object value) {
        return value instanceof HttpServletMapping mapping
            ? mapping.getMappingMatch() + " " + mapping.getPattern() + " " + mapping.getMatchValue() + " " + mapping.getServletName()
            : String.valueOf(value);
    }
}
