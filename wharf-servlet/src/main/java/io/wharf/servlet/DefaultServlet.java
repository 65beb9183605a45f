package io.wharf.servlet;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.MappingMatch;

import io.wharf.server.handler.resource.ResourceHandler;
import io.wharf.servlet.internal.ProtectedPaths;
import io.wharf.servlet.internal.ServletApiContext;
import io.wharf.servlet.internal.ServletMatch;
import io.wharf.servlet.internal.ServletEntry;

/**
 * The servlet of the default mapping {@code /} (Servlet 6.1 section 12.2): serves the context's
 * static resources with the core {@link ResourceHandler} — content types, {@code ETag} and
 * {@code Last-Modified} with conditional requests, byte ranges, precompressed {@code .br} and
 * {@code .gz} variants, no access outside the base or through aliases — and the welcome files
 * of section 10.10. {@code WEB-INF} and {@code META-INF} are never served (section 10.5).
 * A {@link ServletContextHandler} adds one under the name {@code default}, mapped to {@code /}
 * unless the application maps {@code /} itself, and then reachable by name only.
 *
 * <p>A request to a directory path ending in {@code /} tries the context's welcome files in
 * order: a servlet mapped to that path by an exact or extension pattern (a JSP page, say) gets
 * it by a forward, whether a file is there or not, as Jetty and Tomcat do, so a page's source
 * never goes out as a file; else a resource there is served. A directory path without the
 * {@code /} is redirected to it.
 *
 * <p>Init parameters: {@code dirAllowed} (list directories, default false), {@code cacheControl}
 * (a {@code Cache-Control} value), {@code etags} (default true), {@code precompressed} (the
 * codings to look for, like {@code br,gzip}, or {@code false}).
 *
 * <p><b>Threads.</b> The file is written by the core handler while the servlet's (virtual)
 * thread waits; when a filter wrapped the response or the resource is included, the servlet
 * copies the file through the servlet response instead, so wrappers see every byte.
 */
public class DefaultServlet extends HttpServlet {

    private ResourceHandler resources;
    private ServletApiContext context;

    @Override
    public void init() throws ServletException {
        if (!(getServletContext() instanceof ServletApiContext apiContext)) {
            throw new ServletException("DefaultServlet runs in a Wharf ServletContextHandler only");
        }
        context = apiContext;
        Path base = context.getBaseResource();
        if (base == null || !Files.isDirectory(base)) {
            return;
        }
        ResourceHandler handler = new ResourceHandler(base);
        handler.setMimeTypes(context.mimeTypes());
        handler.setWelcomeFiles(List.of());
        handler.setDirectoriesListed(Boolean.parseBoolean(getInitParameter("dirAllowed")));
        handler.setCacheControl(getInitParameter("cacheControl"));
        handler.setEtags(!"false".equalsIgnoreCase(getInitParameter("etags")));
        String precompressed = getInitParameter("precompressed");
        if (precompressed != null) {
            handler.setPrecompressedFormats("false".equalsIgnoreCase(precompressed) ? List.of() : codings(precompressed));
        }
        try {
            handler.start();
        } catch (Exception x) {
            throw new ServletException("DefaultServlet cannot serve " + base + ": " + x.getMessage(), x);
        }
        resources = handler;
    }

    private static List<String> codings(String list) {
        List<String> codings = new ArrayList<>();
        for (String coding : list.split(",")) {
            if (!coding.isBlank()) {
                codings.add(coding.trim());
            }
        }
        return codings;
    }

    @Override
    public void destroy() {
        ResourceHandler handler = resources;
        resources = null;
        if (handler != null) {
            try {
                handler.stop();
            } catch (Exception x) {
                log("DefaultServlet failed to stop its resource handler", x);
            }
        }
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        serve(request, response);
    }

    @Override
    protected void doHead(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        serve(request, response);
    }

    private void serve(HttpServletRequest request, HttpServletResponse response) throws ServletException, IOException {
        boolean included = request.getDispatcherType() == DispatcherType.INCLUDE;
        String path = pathOf(request, included);
        if (ProtectedPaths.isProtected(path) || isPageSource(path)) {
            notFound(response);
            return;
        }
        if (path.endsWith("/") && welcome(request, response, path, included)) {
            return;
        }
        if (!included && resources != null && CoreHandoff.canHandOff(request, response)) {
            serveByCore(request, response, path);
        } else {
            copy(request, response, path, included);
        }
    }

    /**
     * @return whether {@code path} is a JSP page: one reaches the default servlet only when no
     *     JSP servlet maps it (wharf-jsp is missing), and sending it as a file would show its code
     */
    private static boolean isPageSource(String path) {
        return path.regionMatches(true, path.length() - 4, ".jsp", 0, 4) || path.regionMatches(true, path.length() - 5, ".jspx", 0, 5);
    }

    /** @return the path in the context this dispatch is for: the include's target, or the request's servlet path and path info */
    private static String pathOf(HttpServletRequest request, boolean included) {
        String servletPath;
        String pathInfo;
        if (included) {
            servletPath = (String) request.getAttribute(RequestDispatcher.INCLUDE_SERVLET_PATH);
            pathInfo = (String) request.getAttribute(RequestDispatcher.INCLUDE_PATH_INFO);
        } else {
            servletPath = request.getServletPath();
            pathInfo = request.getPathInfo();
        }
        String path = (servletPath == null ? "" : servletPath) + (pathInfo == null ? "" : pathInfo);
        return path.isEmpty() ? "/" : path;
    }

    /** @return whether a welcome file answered (section 10.10) */
    private boolean welcome(HttpServletRequest request, HttpServletResponse response, String directory, boolean included)
            throws ServletException, IOException {
        for (String file : context.getWelcomeFiles()) {
            String candidate = directory + file;
            ServletMatch<ServletEntry> match = context.match(candidate);
            // A page a servlet compiles (index.jsp) goes to that servlet, never out as a file.
            boolean mapped = match != null && (match.mappingMatch() == MappingMatch.EXACT || match.mappingMatch() == MappingMatch.EXTENSION);
            Path found = mapped || isPageSource(candidate) ? null : context.resolve(candidate);
            if (found != null && Files.isRegularFile(found)) {
                if (!included && resources != null && CoreHandoff.canHandOff(request, response)) {
                    serveByCore(request, response, candidate);
                } else {
                    copy(request, response, candidate, included);
                }
                return true;
            }
            if (mapped) {
                RequestDispatcher dispatcher = context.getRequestDispatcher(candidate);
                if (included) {
                    dispatcher.include(request, response);
                } else {
                    dispatcher.forward(request, response);
                }
                return true;
            }
        }
        return false;
    }

    /** The core handler writes the file straight to the core response; this thread waits for it. */
    private void serveByCore(HttpServletRequest request, HttpServletResponse response, String path) throws IOException {
        if (!CoreHandoff.handle(request, response, resources, path)) {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }

    /** Through the servlet response, for wrapped responses and includes: the file's bytes, with its type unless included. */
    private void copy(HttpServletRequest request, HttpServletResponse response, String path, boolean included) throws IOException {
        Path file = context.resolve(path);
        if (file == null) {
            notFound(response);
            return;
        }
        if (Files.isDirectory(file)) {
            if (included) {
                throw new FileNotFoundException("include of the directory " + path);
            }
            if (!path.endsWith("/")) {
                String query = request.getQueryString();
                response.sendRedirect(request.getContextPath() + path + "/" + (query == null ? "" : "?" + query));
            } else {
                response.sendError(HttpServletResponse.SC_FORBIDDEN);
            }
            return;
        }
        if (!included) {
            String type = context.getMimeType(path);
            if (type != null) {
                response.setContentType(type);
            }
            response.setContentLengthLong(Files.size(file));
            response.setDateHeader("Last-Modified", Files.getLastModifiedTime(file).toMillis());
        }
        if ("HEAD".equals(request.getMethod())) {
            return;
        }
        OutputStream output;
        try {
            output = response.getOutputStream();
        } catch (IllegalStateException writerInUse) {
            Charset charset = Charset.forName(response.getCharacterEncoding());
            response.getWriter().write(Files.readString(file, charset));
            return;
        }
        Files.copy(file, output);
    }

    /** 404; in an include, the including response ignores it (section 9.3) and nothing is added. */
    private static void notFound(HttpServletResponse response) throws IOException {
        response.sendError(HttpServletResponse.SC_NOT_FOUND);
    }
}
