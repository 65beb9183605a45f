package io.wharf.servlet.internal;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.ServletContext;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/**
 * The request a servlet sees in a dispatch that is not the client's own (Servlet 6.1 chapter 9
 * and section 2.3.3.3): a FORWARD, ERROR or ASYNC dispatch shows the target's paths and
 * mapping; an INCLUDE keeps the paths of the request it wraps. Every kind adds its attributes
 * ({@code jakarta.servlet.forward.*}, {@code include.*}, {@code async.*}, {@code error.*}),
 * and the parameters of the dispatch's query come before those of the request it wraps
 * (section 9.1.1). Other attributes pass through to the wrapped request, so what the target
 * sets outlives the dispatch.
 *
 * <p><b>Threads.</b> One thread at a time, like every request.
 */
final class DispatchedRequest extends HttpServletRequestWrapper {

    private final DispatcherType type;
    private final ServletApiContext context;
    private final ServletMatch<ServletEntry> match;
    private final String requestUri;
    private final String query;
    private final Map<String, Object> dispatchAttributes;
    private RequestParameters parameters;

    /**
     * @param wrapped    the request dispatched
     * @param type       the kind of dispatch
     * @param context    the target's context
     * @param match      the target's mapping; null for a dispatch by name, which keeps the paths
     * @param requestUri the target's request URI (context path and encoded path); null with no match
     * @param query      the dispatch's query, or null
     * @param attributes the dispatch's attributes, by name
     */
    DispatchedRequest(HttpServletRequest wrapped, DispatcherType type, ServletApiContext context,
                      ServletMatch<ServletEntry> match, String requestUri, String query, Map<String, Object> attributes) {
        super(wrapped);
        this.type = type;
        this.context = context;
        this.match = match;
        this.requestUri = requestUri;
        this.query = query;
        this.dispatchAttributes = attributes;
    }

    /** @return whether this dispatch shows the target's paths: not an include, not a dispatch by name */
    private boolean showsTarget() {
        return match != null && type != DispatcherType.INCLUDE;
    }

    @Override
    public DispatcherType getDispatcherType() {
        return type;
    }

    /** An error page is dispatched as a GET whatever the request's method (Servlet 6.1 section 10.9.1, {@code error.method} has it). */
    @Override
    public String getMethod() {
        return type == DispatcherType.ERROR ? "GET" : super.getMethod();
    }

    @Override
    public ServletContext getServletContext() {
        return context;
    }

    /** In a dispatch to another context, that context's session under the same id (section 7.3). */
    @Override
    public jakarta.servlet.http.HttpSession getSession(boolean create) {
        ServletApiRequest base = ServletApiRequest.unwrap(this);
        if (base == null || base.exchange().context() == context) {
            return super.getSession(create);
        }
        return base.sessionIn(context, create);
    }

    @Override
    public jakarta.servlet.http.HttpSession getSession() {
        return getSession(true);
    }

    @Override
    public String getContextPath() {
        return showsTarget() ? context.getContextPath() : super.getContextPath();
    }

    @Override
    public String getServletPath() {
        return showsTarget() ? match.servletPath() : super.getServletPath();
    }

    @Override
    public String getPathInfo() {
        return showsTarget() ? match.pathInfo() : super.getPathInfo();
    }

    @Override
    public String getPathTranslated() {
        String pathInfo = getPathInfo();
        return pathInfo == null ? null : context.getRealPath(pathInfo);
    }

    @Override
    public String getRequestURI() {
        return showsTarget() ? requestUri : super.getRequestURI();
    }

    @Override
    public StringBuffer getRequestURL() {
        return showsTarget() ? ServletApiRequest.requestUrl(this, requestUri) : super.getRequestURL();
    }

    @Override
    public String getQueryString() {
        if (!showsTarget() || query == null || query.isEmpty()) {
            return super.getQueryString();
        }
        return query;
    }

    @Override
    public HttpServletMapping getHttpServletMapping() {
        return showsTarget() ? Mapping.of(match) : super.getHttpServletMapping();
    }

    // ---- attributes ---------------------------------------------------------------------------

    @Override
    public Object getAttribute(String name) {
        if (dispatchAttributes.containsKey(name)) {
            return dispatchAttributes.get(name);
        }
        return super.getAttribute(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        Set<String> names = new LinkedHashSet<>(Collections.list(super.getAttributeNames()));
        for (Map.Entry<String, Object> entry : dispatchAttributes.entrySet()) {
            if (entry.getValue() != null) {
                names.add(entry.getKey());
            }
        }
        return Collections.enumeration(names);
    }

    @Override
    public void setAttribute(String name, Object value) {
        if (dispatchAttributes.containsKey(name)) {
            dispatchAttributes.put(name, value);
            return;
        }
        super.setAttribute(name, value);
    }

    @Override
    public void removeAttribute(String name) {
        if (dispatchAttributes.containsKey(name)) {
            dispatchAttributes.put(name, null);
            return;
        }
        super.removeAttribute(name);
    }

    // ---- parameters -----------------------------------------------------------------------------

    private RequestParameters parameters() {
        if (parameters == null) {
            RequestParameters underneath = RequestParameters.of(super.getParameterMap());
            parameters = underneath.withFirst(query, java.nio.charset.StandardCharsets.UTF_8, ServletExchange.FORM_LIMITS);
        }
        return parameters;
    }

    @Override
    public String getParameter(String name) {
        return query == null ? super.getParameter(name) : parameters().get(name);
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return query == null ? super.getParameterNames() : parameters().names();
    }

    @Override
    public String[] getParameterValues(String name) {
        return query == null ? super.getParameterValues(name) : parameters().getValues(name);
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        return query == null ? super.getParameterMap() : parameters().asMap();
    }

    @Override
    public String toString() {
        return "DispatchedRequest[" + type + " " + (match == null ? "by name" : requestUri) + "]";
    }
}
