package io.wharf.servlet.internal;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletConnection;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestAttributeEvent;
import jakarta.servlet.ServletRequestAttributeListener;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.Part;

import io.wharf.http.HttpCookie;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpURI;
import io.wharf.http.MimeTypes;
import io.wharf.http.QualityList;
import io.wharf.http.form.FormFields;
import io.wharf.http.form.FormLimits;
import io.wharf.server.Request;

/**
 * The {@link HttpServletRequest} of one exchange (Servlet 6.1 chapter 3), over the core
 * {@link Request}: what the client sent, the paths of its REQUEST dispatch (dispatches to other
 * paths wrap it, see {@link DispatchedRequest}), its parameters, attributes and body.
 *
 * <p><b>Threads.</b> Used by one thread at a time, as the Servlet API requires: the one running
 * the servlet, then whichever thread an asynchronous application hands it to.
 */
public final class ServletApiRequest implements HttpServletRequest {

    private final ServletExchange exchange;
    private final Request core;
    private final ServletMatch<ServletEntry> match;
    private Map<String, Object> attributes;
    private RequestParameters parameters;
    private Charset characterEncoding;
    private boolean characterEncodingRead;
    private Cookie[] cookies;
    private RequestInput input;
    /** Whether the container read the body to its end for the form parameters (so the trailer fields are ready). */
    private boolean formRead;
    private BufferedReader reader;
    private boolean asyncSupported = true;
    /** Made when first asked: most requests touch neither sessions nor users. */
    private RequestSession sessionState;
    private RequestAuthentication authentication;

    ServletApiRequest(ServletExchange exchange, Request core, ServletMatch<ServletEntry> match) {
        this.exchange = exchange;
        this.core = core;
        this.match = match;
    }

    /** @return the request's user, found lazily */
    RequestAuthentication authentication() {
        if (authentication == null) {
            authentication = new RequestAuthentication(exchange);
        }
        return authentication;
    }

    /** @return the request's session side, made on first use */
    private RequestSession sessionState() {
        if (sessionState == null) {
            sessionState = new RequestSession(exchange, core);
        }
        return sessionState;
    }

    /** @return the request under every application and container wrapper of {@code request}; null when it is not one */
    public static ServletApiRequest unwrap(ServletRequest request) {
        ServletRequest current = request;
        while (current instanceof ServletRequestWrapper wrapper) {
            current = wrapper.getRequest();
        }
        return current instanceof ServletApiRequest base ? base : null;
    }

    /** @return the core request */
    public Request core() {
        return core;
    }

    /** @return the exchange this request is part of */
    public ServletExchange exchange() {
        return exchange;
    }

    /** @return how the request's path mapped to its servlet */
    public ServletMatch<ServletEntry> match() {
        return match;
    }

    /** Tells whether every filter and the servlet the request passed so far support async; set by the chain. */
    boolean setAsyncSupported(boolean supported) {
        boolean previous = asyncSupported;
        asyncSupported = supported;
        return previous;
    }

    // ---- attributes ---------------------------------------------------------------------------

    @Override
    public Object getAttribute(String name) {
        if (name == null) {
            throw new NullPointerException("attribute name");
        }
        Object value = attributes == null ? null : attributes.get(name);
        return value != null ? value : TlsAttributes.get(core, name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        Set<String> names = new LinkedHashSet<>();
        if (attributes != null) {
            names.addAll(attributes.keySet());
        }
        names.addAll(TlsAttributes.names(core));
        return Collections.enumeration(names);
    }

    @Override
    public void setAttribute(String name, Object value) {
        if (name == null) {
            throw new NullPointerException("attribute name");
        }
        if (value == null) {
            removeAttribute(name);
            return;
        }
        if (attributes == null) {
            attributes = new HashMap<>();
        }
        Object previous = attributes.put(name, value);
        ContextListeners listeners = exchange.context().listeners();
        if (listeners.has(ServletRequestAttributeListener.class)) {
            ServletRequestAttributeEvent event = new ServletRequestAttributeEvent(exchange.context(), this, name,
                previous == null ? value : previous);
            listeners.fire(ServletRequestAttributeListener.class,
                previous == null ? listener -> listener.attributeAdded(event) : listener -> listener.attributeReplaced(event));
        }
    }

    @Override
    public void removeAttribute(String name) {
        Object previous = attributes == null ? null : attributes.remove(name);
        ContextListeners listeners = exchange.context().listeners();
        if (previous != null && listeners.has(ServletRequestAttributeListener.class)) {
            ServletRequestAttributeEvent event = new ServletRequestAttributeEvent(exchange.context(), this, name, previous);
            listeners.fire(ServletRequestAttributeListener.class, listener -> listener.attributeRemoved(event));
        }
    }

    // ---- character encoding and body ---------------------------------------------------------------

    @Override
    public String getCharacterEncoding() {
        Charset charset = characterEncoding();
        return charset == null ? null : charset.name();
    }

    /** @return the charset set, or named by the {@code Content-Type}, or the context's default; null when none */
    Charset characterEncoding() {
        if (!characterEncodingRead) {
            characterEncodingRead = true;
            String name = MimeTypes.getCharsetFromContentType(getContentType());
            if (name == null) {
                name = exchange.context().getRequestCharacterEncoding();
            }
            if (name != null) {
                try {
                    characterEncoding = Charset.forName(name);
                } catch (IllegalCharsetNameException | UnsupportedCharsetException x) {
                    characterEncoding = null;
                }
            }
        }
        return characterEncoding;
    }

    @Override
    public void setCharacterEncoding(String encoding) throws UnsupportedEncodingException {
        if (parameters != null || reader != null) {
            return;
        }
        if (encoding == null) {
            characterEncodingRead = false;
            characterEncoding = null;
            return;
        }
        try {
            characterEncoding = Charset.forName(encoding);
            characterEncodingRead = true;
        } catch (IllegalCharsetNameException | UnsupportedCharsetException x) {
            throw new UnsupportedEncodingException("unknown character encoding: " + encoding);
        }
    }

    @Override
    public void setCharacterEncoding(Charset encoding) {
        if (parameters != null || reader != null) {
            return;
        }
        characterEncoding = encoding;
        characterEncodingRead = encoding != null;
    }

    @Override
    public int getContentLength() {
        long length = getContentLengthLong();
        return length > Integer.MAX_VALUE ? -1 : (int) length;
    }

    @Override
    public long getContentLengthLong() {
        // -1 when the length is not known in advance (section 3.1): no Content-Length field, even for a GET without content.
        return core.getHeaders().contains(HttpHeader.CONTENT_LENGTH) ? core.getLength() : -1;
    }

    @Override
    public String getContentType() {
        return core.getHeaders().get(HttpHeader.CONTENT_TYPE);
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (reader != null) {
            throw new IllegalStateException("getReader() was already called on this request");
        }
        return input();
    }

    /** Releases what the input holds, at the end of the exchange. */
    void closeInput() {
        if (input != null) {
            input.close();
        }
    }

    RequestInput input() {
        if (input == null) {
            input = new RequestInput(core, exchange);
        }
        return input;
    }

    @Override
    public BufferedReader getReader() throws IOException {
        if (reader == null) {
            if (input != null) {
                throw new IllegalStateException("getInputStream() was already called on this request");
            }
            Charset charset = characterEncoding();
            reader = new BufferedReader(new InputStreamReader(input(), charset == null ? StandardCharsets.ISO_8859_1 : charset));
        }
        return reader;
    }

    // ---- parameters -----------------------------------------------------------------------------

    /** @return the parameters, parsed on first use: the query's, then a urlencoded body's (section 3.1.1) */
    RequestParameters parameters() {
        if (parameters == null) {
            FormLimits limits = exchange.formLimits();
            parameters = RequestParameters.NONE;
            parameters = RequestParameters.of(core.getHttpURI().getQuery(), readForm(limits), limits);
        }
        return parameters;
    }

    private FormFields readForm(FormLimits limits) {
        if (!HttpMethod.POST.is(getMethod())) {
            return null;
        }
        String type = MimeTypes.getBaseType(getContentType());
        if (type == null) {
            return null;
        }
        try {
            if (type.equalsIgnoreCase("multipart/form-data") && exchange.multipartConfig() != null) {
                // The parts are read once; getParts before or after shares them.
                FormFields fields = exchange.parts().fields(characterEncoding());
                formRead = true;
                return fields;
            }
            if (type.equalsIgnoreCase("application/x-www-form-urlencoded") && input == null && reader == null) {
                Charset charset = characterEncoding();
                FormFields fields = Request.readFormFields(core, charset == null ? StandardCharsets.UTF_8 : charset, limits);
                formRead = true;
                return fields;
            }
        } catch (IOException | ServletException x) {
            throw new IllegalStateException("cannot read the request's form: " + x.getMessage(), x);
        }
        return null;
    }

    @Override
    public String getParameter(String name) {
        return parameters().get(name);
    }

    @Override
    public Enumeration<String> getParameterNames() {
        return parameters().names();
    }

    @Override
    public String[] getParameterValues(String name) {
        return parameters().getValues(name);
    }

    @Override
    public Map<String, String[]> getParameterMap() {
        return parameters().asMap();
    }

    @Override
    public Collection<Part> getParts() throws IOException, ServletException {
        return exchange.parts().all();
    }

    @Override
    public Part getPart(String name) throws IOException, ServletException {
        return exchange.parts().get(name);
    }

    // ---- request line and connection ---------------------------------------------------------------

    @Override
    public String getProtocol() {
        return core.getConnectionMetaData().getHttpVersion().asString();
    }

    @Override
    public String getScheme() {
        String scheme = core.getHttpURI().getScheme();
        return scheme != null ? scheme : core.isSecure() ? "https" : "http";
    }

    @Override
    public String getServerName() {
        String host = core.getHttpURI().getHost();
        if (host != null) {
            return host;
        }
        SocketAddress local = core.getConnectionMetaData().getLocalSocketAddress();
        return local instanceof InetSocketAddress inet ? inet.getHostString() : "localhost";
    }

    @Override
    public int getServerPort() {
        int port = core.getHttpURI().getPort();
        if (port > 0) {
            return port;
        }
        if (core.getHttpURI().getHost() != null) {
            return "https".equalsIgnoreCase(getScheme()) ? 443 : 80;
        }
        return getLocalPort();
    }

    @Override
    public String getRemoteAddr() {
        String address = Request.getRemoteAddress(core);
        return address == null ? "" : address;
    }

    @Override
    public String getRemoteHost() {
        return getRemoteAddr();
    }

    @Override
    public int getRemotePort() {
        return Request.getRemotePort(core);
    }

    @Override
    public String getLocalName() {
        SocketAddress local = core.getConnectionMetaData().getLocalSocketAddress();
        return local instanceof InetSocketAddress inet ? inet.getHostString() : null;
    }

    @Override
    public String getLocalAddr() {
        SocketAddress local = core.getConnectionMetaData().getLocalSocketAddress();
        return local instanceof InetSocketAddress inet && inet.getAddress() != null ? inet.getAddress().getHostAddress() : null;
    }

    @Override
    public int getLocalPort() {
        SocketAddress local = core.getConnectionMetaData().getLocalSocketAddress();
        return local instanceof InetSocketAddress inet ? inet.getPort() : 0;
    }

    @Override
    public boolean isSecure() {
        return core.isSecure();
    }

    @Override
    public Locale getLocale() {
        List<Locale> locales = locales();
        return locales.isEmpty() ? Locale.getDefault() : locales.get(0);
    }

    @Override
    public Enumeration<Locale> getLocales() {
        List<Locale> locales = locales();
        return Collections.enumeration(locales.isEmpty() ? List.of(Locale.getDefault()) : locales);
    }

    private List<Locale> locales() {
        List<String> values = core.getHeaders().getValuesList(HttpHeader.ACCEPT_LANGUAGE);
        if (values.isEmpty()) {
            return List.of();
        }
        List<Locale> locales = new ArrayList<>();
        for (String tag : QualityList.parse(values).getValues()) {
            if (!tag.equals("*")) {
                Locale locale = Locale.forLanguageTag(tag);
                if (!locale.getLanguage().isEmpty()) {
                    locales.add(locale);
                }
            }
        }
        return locales;
    }

    @Override
    public RequestDispatcher getRequestDispatcher(String path) {
        if (path == null) {
            return null;
        }
        if (path.startsWith("/")) {
            return exchange.context().getRequestDispatcher(path);
        }
        String servletPath = getServletPath();
        String pathInfo = getPathInfo();
        String current = pathInfo == null ? servletPath : servletPath + pathInfo;
        int slash = current.lastIndexOf('/');
        String base = slash < 0 ? "/" : current.substring(0, slash + 1);
        return exchange.context().getRequestDispatcher(base + path);
    }

    @Override
    public ServletContext getServletContext() {
        return exchange.context();
    }

    // ---- async ------------------------------------------------------------------------------------

    @Override
    public AsyncContext startAsync() {
        return startAsync(this, exchange.response());
    }

    @Override
    public AsyncContext startAsync(ServletRequest request, ServletResponse response) {
        if (!asyncSupported) {
            throw new IllegalStateException("startAsync: a filter or servlet of this request does not support asynchronous "
                + "processing (asyncSupported is false)");
        }
        return exchange.startAsync(request, response);
    }

    @Override
    public boolean isAsyncStarted() {
        return exchange.isAsyncStarted();
    }

    @Override
    public boolean isAsyncSupported() {
        return asyncSupported;
    }

    @Override
    public AsyncContext getAsyncContext() {
        return exchange.asyncContext();
    }

    @Override
    public DispatcherType getDispatcherType() {
        return DispatcherType.REQUEST;
    }

    @Override
    public String getRequestId() {
        return core.getConnectionMetaData().getId() + "/" + core.getId();
    }

    @Override
    public String getProtocolRequestId() {
        return core.getConnectionMetaData().getHttpVersion().getVersion() >= 20 ? core.getId() : "";
    }

    @Override
    public ServletConnection getServletConnection() {
        return new CoreServletConnection(core);
    }

    // ---- HTTP --------------------------------------------------------------------------------------

    @Override
    public String getAuthType() {
        return authentication().authType();
    }

    @Override
    public Cookie[] getCookies() {
        if (cookies == null) {
            List<HttpCookie> parsed = Request.getCookies(core);
            List<Cookie> converted = new ArrayList<>(parsed.size());
            for (HttpCookie cookie : parsed) {
                try {
                    converted.add(new Cookie(cookie.getName(), cookie.getValue()));
                } catch (IllegalArgumentException x) {
                    // A name the Servlet API refuses (section 3.11 leaves the syntax to RFC 6265); left out.
                }
            }
            cookies = converted.toArray(Cookie[]::new);
        }
        return cookies.length == 0 ? null : cookies.clone();
    }

    @Override
    public long getDateHeader(String name) {
        String value = getHeader(name);
        if (value == null) {
            return -1;
        }
        long date = core.getHeaders().getDateField(name);
        if (date < 0) {
            throw new IllegalArgumentException("header " + name + " is not an HTTP date: " + value);
        }
        return date;
    }

    @Override
    public String getHeader(String name) {
        return name == null ? null : core.getHeaders().get(name);
    }

    @Override
    public Enumeration<String> getHeaders(String name) {
        return Collections.enumeration(name == null ? List.of() : core.getHeaders().getValuesList(name));
    }

    @Override
    public Enumeration<String> getHeaderNames() {
        Set<String> names = new LinkedHashSet<>();
        for (HttpField field : core.getHeaders()) {
            names.add(field.getName());
        }
        return Collections.enumeration(names);
    }

    @Override
    public int getIntHeader(String name) {
        String value = getHeader(name);
        return value == null ? -1 : Integer.parseInt(value.trim());
    }

    @Override
    public HttpServletMapping getHttpServletMapping() {
        return Mapping.of(match);
    }

    @Override
    public String getMethod() {
        return core.getMethod();
    }

    @Override
    public String getPathInfo() {
        return match.pathInfo();
    }

    @Override
    public String getPathTranslated() {
        String pathInfo = getPathInfo();
        return pathInfo == null ? null : exchange.context().getRealPath(pathInfo);
    }

    @Override
    public String getContextPath() {
        return exchange.context().getContextPath();
    }

    @Override
    public String getQueryString() {
        return core.getHttpURI().getQuery();
    }

    @Override
    public String getRemoteUser() {
        Principal principal = getUserPrincipal();
        return principal == null ? null : principal.getName();
    }

    /** Section 13.3: a {@code security-role-ref} of the servlet links the name it uses to the application's role. */
    @Override
    public boolean isUserInRole(String role) {
        ContextSecurity security = exchange.context().security();
        if (security == null || role == null) {
            return false;
        }
        String linked = exchange.context().roleLink(match.target().getName(), role);
        return security.isUserInRole(authentication().user(), linked != null ? linked : role);
    }

    @Override
    public Principal getUserPrincipal() {
        return authentication().user();
    }

    @Override
    public String getRequestURI() {
        String path = core.getHttpURI().getPath();
        return path == null ? "" : path;
    }

    @Override
    public StringBuffer getRequestURL() {
        return requestUrl(this, getRequestURI());
    }

    /** @return scheme, host, the port unless it is the scheme's default, and {@code path} */
    static StringBuffer requestUrl(HttpServletRequest request, String path) {
        StringBuffer url = new StringBuffer(64);
        String scheme = request.getScheme();
        int port = request.getServerPort();
        String host = request.getServerName();
        url.append(scheme).append("://").append(host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host);
        boolean defaultPort = ("http".equalsIgnoreCase(scheme) && port == 80) || ("https".equalsIgnoreCase(scheme) && port == 443);
        if (port > 0 && !defaultPort) {
            url.append(':').append(port);
        }
        return url.append(path);
    }

    @Override
    public String getServletPath() {
        return match.servletPath();
    }

    // ---- sessions (chapter 7) ------------------------------------------------------------------------

    @Override
    public HttpSession getSession(boolean create) {
        return sessionState().getSession(create);
    }

    @Override
    public HttpSession getSession() {
        return sessionState().getSession(true);
    }

    @Override
    public String changeSessionId() {
        return sessionState().changeSessionId();
    }

    @Override
    public String getRequestedSessionId() {
        return sessionState().requestedId();
    }

    @Override
    public boolean isRequestedSessionIdValid() {
        return sessionState().isRequestedIdValid();
    }

    @Override
    public boolean isRequestedSessionIdFromCookie() {
        return sessionState().isRequestedIdFromCookie();
    }

    @Override
    public boolean isRequestedSessionIdFromURL() {
        return sessionState().isRequestedIdFromUrl();
    }

    /** @return the session of {@code target}, another context this request was dispatched to, under this request's session id */
    HttpSession sessionIn(ServletApiContext target, boolean create) {
        return sessionState().sessionIn(target, create);
    }

    /** @return the session this request has made or found so far, without looking; or null */
    ServletSession currentSession() {
        return sessionState().current();
    }

    @Override
    public boolean authenticate(HttpServletResponse response) throws IOException, ServletException {
        if (authentication().user() != null) {
            return true;
        }
        ContextSecurity security = exchange.context().security();
        if (security == null) {
            throw new ServletException("authenticate: this servlet context has no login configured (a LoginService and a LoginConfig)");
        }
        security.authenticator().challenge(exchange);
        return false;
    }

    /** Logs in with a user name and password (section 13.3); a session the request has gets a new id. */
    @Override
    public void login(String username, String password) throws ServletException {
        ContextSecurity security = exchange.context().security();
        if (security == null) {
            throw new ServletException("login: this servlet context has no login configured (a LoginService and a LoginConfig)");
        }
        if (authentication().user() != null) {
            throw new ServletException("login: the request is already authenticated as " + authentication().user().getName());
        }
        io.wharf.servlet.security.AuthenticatedUser user = security.users().login(username, password);
        if (user == null) {
            throw new ServletException("login failed for user " + username);
        }
        authentication().set(user, security.config().method().authType());
        HttpSession session = getSession(false);
        if (session != null) {
            changeSessionId();
            if (security.config().method() == io.wharf.servlet.security.LoginConfig.Method.FORM) {
                session.setAttribute(FormLogin.USER, user);
            }
        }
    }

    @Override
    public void logout() {
        authentication().clear();
        HttpSession session = getSession(false);
        if (session != null) {
            session.removeAttribute(FormLogin.USER);
        }
    }

    /**
     * Section 2.3.3.5: makes the handler and sets the status 101; when the dispatch ends, the
     * container writes the 101 with the response's headers and gives the connection to the
     * handler ({@link UpgradedConnection}).
     *
     * @throws ServletException when the request did not ask to switch protocols
     */
    @Override
    public <T extends HttpUpgradeHandler> T upgrade(Class<T> handlerClass) throws IOException, ServletException {
        if (core.getProtocolUpgrade() == null) {
            throw new ServletException("upgrade: the request did not ask to switch protocols (an HTTP/1.1 Upgrade field with "
                + "Connection: upgrade)");
        }
        T handler;
        try {
            handler = exchange.context().instantiate(handlerClass);
        } catch (ReflectiveOperationException x) {
            throw new ServletException("upgrade: cannot make " + handlerClass.getName() + ": " + x, x);
        }
        exchange.upgradeTo(handler);
        exchange.response().setStatus(HttpServletResponse.SC_SWITCHING_PROTOCOLS);
        return handler;
    }

    /**
     * The trailer fields, names in lower case, the values of a repeated name joined by commas.
     *
     * @throws IllegalStateException while {@link #isTrailerFieldsReady()} is false (its javadoc):
     *     the body is not read to its end yet, and trailer fields may still come after it
     */
    @Override
    public Map<String, String> getTrailerFields() {
        if (!isTrailerFieldsReady()) {
            throw new IllegalStateException("getTrailerFields: the trailer fields are not ready: read the body to its end first");
        }
        HttpFields trailers = core.getTrailers();
        if (trailers == null) {
            return Map.of();
        }
        Map<String, String> map = new HashMap<>();
        for (HttpField field : trailers) {
            map.merge(field.getName().toLowerCase(Locale.ROOT), field.getValue(), (a, b) -> a + "," + b);
        }
        return map;
    }

    /**
     * @return true once the body was read to its end — by the application, to the end of the
     *     input stream, or by the container, for the form parameters — after which no trailer
     *     field can come; and at once when the request cannot have any: a request without a
     *     body, or an HTTP/1.x request whose body is not chunked (HTTP/1.0 has no chunked coding,
     *     and a body of a known length has no trailer section: RFC 9112 §7.1.2). Over HTTP/2 a
     *     body of a known length may still be followed by trailers (RFC 9113 §8.1), and trailers
     *     that came with the body are not ready before the application has read it (the javadoc:
     *     not "before the application has read all the request data").
     */
    @Override
    public boolean isTrailerFieldsReady() {
        long length = core.getLength();
        boolean noneCanCome = length == 0 || length > 0 && core.getConnectionMetaData().getHttpVersion().getVersion() < 20;
        return noneCanCome || (input != null && input.isFinished()) || formRead;
    }

    @Override
    public String toString() {
        HttpURI uri = core.getHttpURI();
        return "ServletApiRequest[" + getMethod() + " " + uri.getPathQuery() + "]";
    }
}
