package io.wharf.servlet.internal;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.http.UriPath;

/**
 * A {@link RequestDispatcher} (Servlet 6.1 chapter 9): to a path in a context, whose servlet is
 * found when it is used, or to a servlet by name. {@link #forward} shows the target the
 * target's paths and commits and closes the response when it returns (section 9.4);
 * {@link #include} keeps the paths and the status and headers (section 9.3). Both run the
 * filters mapped to the target for their dispatcher type.
 *
 * <p><b>Threads.</b> Immutable; any thread may dispatch with it.
 */
final class ServletDispatcher implements RequestDispatcher {

    private final ServletApiContext context;
    /** The encoded path in the context, without query; null for a dispatch by name. */
    private final String rawPath;
    /** The decoded, canonical path in the context; null for a dispatch by name. */
    private final String pathInContext;
    private final String query;
    private final ServletEntry named;

    private ServletDispatcher(ServletApiContext context, String rawPath, String pathInContext, String query, ServletEntry named) {
        this.context = context;
        this.rawPath = rawPath;
        this.pathInContext = pathInContext;
        this.query = query;
        this.named = named;
    }

    /** @return a dispatcher to {@code pathAndQuery}, a path in the context with an optional query; null when it leaves the context */
    static ServletDispatcher byPath(ServletApiContext context, String pathAndQuery) {
        int question = pathAndQuery.indexOf('?');
        String raw = question < 0 ? pathAndQuery : pathAndQuery.substring(0, question);
        String query = question < 0 ? null : pathAndQuery.substring(question + 1);
        String canonical = UriPath.canonicalPath(raw);
        if (canonical == null) {
            return null;
        }
        String decoded;
        try {
            decoded = UriPath.decodePath(canonical);
        } catch (IllegalArgumentException x) {
            return null;
        }
        // The target's request URI shows the path as the dispatcher got it (section 9.4); mapping uses the canonical one.
        return new ServletDispatcher(context, raw, decoded, query, null);
    }

    /** @return the encoded path in the context as given, for the target's request URI; null by name */
    String rawPath() {
        return rawPath;
    }

    /** @return the decoded, canonical path in the context, which maps to the servlet; null by name */
    String pathInContext() {
        return pathInContext;
    }

    /** @return the query given with the path, or null */
    String query() {
        return query;
    }

    static ServletDispatcher byName(ServletApiContext context, ServletEntry servlet) {
        return new ServletDispatcher(context, null, null, null, servlet);
    }

    @Override
    public void forward(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        ServletApiResponse base = ServletApiResponse.unwrap(response);
        if (response.isCommitted()) {
            throw new IllegalStateException("forward: the response is already committed (Servlet 6.1 section 9.4)");
        }
        response.resetBuffer();
        HttpServletRequest http = (HttpServletRequest) request;
        if (named != null) {
            DispatchedRequest dispatched = new DispatchedRequest(http, DispatcherType.FORWARD, context, null, null, null, new HashMap<>());
            invoke(context, dispatched, response, named, null, DispatcherType.FORWARD);
        } else {
            ServletMatch<ServletEntry> match = context.match(pathInContext);
            if (match == null) {
                ((HttpServletResponse) response).sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            Map<String, Object> attributes = originalPaths(http, FORWARD_REQUEST_URI, FORWARD_CONTEXT_PATH, FORWARD_SERVLET_PATH,
                FORWARD_PATH_INFO, FORWARD_QUERY_STRING, FORWARD_MAPPING);
            DispatchedRequest dispatched = new DispatchedRequest(http, DispatcherType.FORWARD, context, match,
                context.getContextPath() + rawPath, query, attributes);
            invoke(context, dispatched, response, match.target(), pathInContext, DispatcherType.FORWARD);
        }
        if (base != null && !request.isAsyncStarted() && !base.isErrorPending()) {
            base.closeOutput();
        }
    }

    /**
     * @return the attributes a FORWARD or ASYNC dispatch adds: the paths of the request the
     *     client sent, or those already recorded when the request was dispatched before
     */
    static Map<String, Object> originalPaths(HttpServletRequest request, String uri, String contextPath, String servletPath,
                                             String pathInfo, String queryString, String mapping) {
        Map<String, Object> attributes = new HashMap<>();
        if (request.getAttribute(uri) != null) {
            for (String name : new String[] {uri, contextPath, servletPath, pathInfo, queryString, mapping}) {
                attributes.put(name, request.getAttribute(name));
            }
            return attributes;
        }
        attributes.put(uri, request.getRequestURI());
        attributes.put(contextPath, request.getContextPath());
        attributes.put(servletPath, request.getServletPath());
        attributes.put(pathInfo, request.getPathInfo());
        attributes.put(queryString, request.getQueryString());
        attributes.put(mapping, request.getHttpServletMapping());
        return attributes;
    }

    @Override
    public void include(ServletRequest request, ServletResponse response) throws ServletException, IOException {
        HttpServletRequest http = (HttpServletRequest) request;
        IncludedResponse included = new IncludedResponse((HttpServletResponse) response);
        if (named != null) {
            DispatchedRequest dispatched = new DispatchedRequest(http, DispatcherType.INCLUDE, context, null, null, null, new HashMap<>());
            invoke(context, dispatched, included, named, null, DispatcherType.INCLUDE);
            return;
        }
        ServletMatch<ServletEntry> match = context.match(pathInContext);
        if (match == null) {
            throw new ServletException("include: no servlet is mapped to " + pathInContext + " in " + context);
        }
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(INCLUDE_REQUEST_URI, context.getContextPath() + rawPath);
        attributes.put(INCLUDE_CONTEXT_PATH, context.getContextPath());
        attributes.put(INCLUDE_SERVLET_PATH, match.servletPath());
        attributes.put(INCLUDE_PATH_INFO, match.pathInfo());
        attributes.put(INCLUDE_QUERY_STRING, query);
        attributes.put(INCLUDE_MAPPING, Mapping.of(match));
        DispatchedRequest dispatched = new DispatchedRequest(http, DispatcherType.INCLUDE, context, match, null, query, attributes);
        invoke(context, dispatched, included, match.target(), pathInContext, DispatcherType.INCLUDE);
    }

    /** Runs the filters mapped to {@code servlet} for the dispatch, then the servlet, with the context's class loader. */
    static void invoke(ServletApiContext context, ServletRequest request, ServletResponse response, ServletEntry servlet,
                       String pathInContext, DispatcherType type) throws ServletException, IOException {
        FilterChainRun chain = new FilterChainRun(context.filterChain(pathInContext, servlet.getName(), type), servlet);
        try {
            context.runInContext(() -> chain.doFilter(request, response));
        } catch (ServletException | IOException | RuntimeException | Error x) {
            throw x;
        } catch (Exception x) {
            throw new ServletException(x);
        }
    }

    @Override
    public String toString() {
        return "RequestDispatcher[" + (named != null ? named.getName() : rawPath + (query == null ? "" : "?" + query)) + "]";
    }
}
