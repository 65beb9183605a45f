package io.wharf.servlet;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.EventListener;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletRegistration;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.handler.context.ContextHandler;
import io.wharf.servlet.internal.ServletApiContext;
import io.wharf.servlet.internal.ServletHandler;
import io.wharf.util.Callback;

/**
 * A Jakarta Servlet 6.1 context as one core {@link Handler}: servlets, filters and listeners at a
 * context path, with the servlet request and response over the core ones, request dispatching,
 * error pages and asynchronous processing.
 *
 * <pre>{@code
 * ServletContextHandler context = new ServletContextHandler("/app");
 * context.addServlet(new HelloServlet(), "/hello/*");
 * context.addFilter(new TimingFilter(), "/*", EnumSet.of(DispatcherType.REQUEST));
 * server.setHandler(context);
 * server.start();
 * }</pre>
 *
 * <p>It holds a {@link ContextHandler} (context path, virtual hosts, class loader, temporary
 * directory, attributes), which it shares with the {@link #getServletContext() ServletContext}:
 * the servlet context's attributes are the core context's. That core context is complete on its
 * own — starting it starts the servlet context — so it can also be put where core contexts go,
 * such as a {@link io.wharf.server.handler.context.ContextHandlerCollection}, next to others.
 *
 * <p><b>Life.</b> Configure it before starting (or from a {@link ServletContainerInitializer} or
 * a {@code ServletContextListener} while it starts). Starting runs the initializers, the context
 * listeners, initializes the filters and the servlets that load on start-up; until that is done
 * the context answers 503. Stopping destroys them and forgets what the start added, so it can
 * start again.
 *
 * <p><b>Threads.</b> BLOCKING: servlets never run on a selector thread but on the server's pool
 * (a pool thread that is idle, else a new virtual thread, by default), one thread per request at
 * a time, as the Servlet API expects. Configuration is not thread-safe; requests are.
 */
public class ServletContextHandler extends Handler.Abstract {

    private final ContextHandler contextHandler;
    private final ServletApiContext servletContext;
    private final AtomicInteger names = new AtomicInteger();

    /** A context at the root, {@code /}. */
    public ServletContextHandler() {
        this("/");
    }

    /** A context at {@code contextPath}, like {@code /app}; {@code /} or {@code ""} for the root. */
    public ServletContextHandler(String contextPath) {
        contextHandler = new ContextHandler(contextPath);
        servletContext = new ServletApiContext(contextHandler);
        contextHandler.setHandler(new ServletHandler(servletContext));
        addBean(contextHandler, true);
    }

    /** @return the core context this servlet context sits in, for its path, hosts, class loader and temporary directory */
    public ContextHandler getContextHandler() {
        return contextHandler;
    }

    /** @return the {@link ServletContext}, to register servlets, filters and listeners the standard way */
    public ServletContext getServletContext() {
        return servletContext;
    }

    /** @return the context path: {@code /} for the root, else like {@code /app} */
    public String getContextPath() {
        return contextHandler.getContextPath();
    }

    /** Sets the context path; before starting. */
    public void setContextPath(String contextPath) {
        contextHandler.setContextPath(contextPath);
    }

    /** Sets the display name, {@code ServletContext.getServletContextName()}. */
    public void setDisplayName(String name) {
        contextHandler.setDisplayName(name);
    }

    /** Serves only requests for these virtual hosts (see {@link ContextHandler#setVirtualHosts}). */
    public void setVirtualHosts(List<String> hosts) {
        contextHandler.setVirtualHosts(hosts);
    }

    /** Sets the class loader servlets, filters and listeners are loaded and run with. */
    public void setClassLoader(ClassLoader loader) {
        contextHandler.setClassLoader(loader);
    }

    /**
     * Sets the temporary directory, made if missing as the context starts: the context
     * attribute {@code ServletContext.TEMPDIR} (section 4.8.1), where JSP pages are compiled
     * and multipart uploads spooled.
     */
    public void setTempDirectory(Path directory) {
        contextHandler.setTempDirectory(directory);
    }

    /** Sets the directory of the context's resources ({@code getResource}, {@code getRealPath}). */
    public void setBaseResource(Path directory) {
        servletContext.setBaseResource(directory);
    }

    /** Sets a context init parameter. */
    public void setInitParameter(String name, String value) {
        servletContext.setInitParameter(name, value);
    }

    /**
     * Adds a servlet instance under a name of its own, mapped to {@code urlPatterns}.
     *
     * @return its registration, for init parameters, load-on-startup, async support and more
     * @throws IllegalArgumentException when a pattern is invalid or mapped to another servlet
     */
    public ServletRegistration.Dynamic addServlet(Servlet servlet, String... urlPatterns) {
        ServletRegistration.Dynamic registration = servletContext.addServlet(nameFor(servlet.getClass()), servlet);
        return mapped(registration, urlPatterns);
    }

    /** As {@link #addServlet(Servlet, String...)}, for a class made when the servlet is first needed. */
    public ServletRegistration.Dynamic addServlet(Class<? extends Servlet> servletClass, String... urlPatterns) {
        ServletRegistration.Dynamic registration = servletContext.addServlet(nameFor(servletClass), servletClass);
        return mapped(registration, urlPatterns);
    }

    private static ServletRegistration.Dynamic mapped(ServletRegistration.Dynamic registration, String... urlPatterns) {
        if (urlPatterns.length > 0) {
            Set<String> conflicts = registration.addMapping(urlPatterns);
            if (!conflicts.isEmpty()) {
                throw new IllegalArgumentException("url-patterns " + conflicts + " are already mapped to other servlets");
            }
        }
        return registration;
    }

    /**
     * Adds a filter instance under a name of its own, mapped to {@code urlPattern} for
     * {@code dispatcherTypes} (REQUEST when empty), after the filters mapped before.
     */
    public FilterRegistration.Dynamic addFilter(Filter filter, String urlPattern, EnumSet<DispatcherType> dispatcherTypes) {
        FilterRegistration.Dynamic registration = servletContext.addFilter(nameFor(filter.getClass()), filter);
        registration.addMappingForUrlPatterns(dispatcherTypes, true, urlPattern);
        return registration;
    }

    /** As {@link #addFilter(Filter, String, EnumSet)}, for a class made when the context starts. */
    public FilterRegistration.Dynamic addFilter(Class<? extends Filter> filterClass, String urlPattern,
                                                EnumSet<DispatcherType> dispatcherTypes) {
        FilterRegistration.Dynamic registration = servletContext.addFilter(nameFor(filterClass), filterClass);
        registration.addMappingForUrlPatterns(dispatcherTypes, true, urlPattern);
        return registration;
    }

    private String nameFor(Class<?> type) {
        return type.getName() + "-" + names.incrementAndGet();
    }

    /** Adds a listener of any servlet listener kind (context, request, session, their attributes). */
    public void addEventListener(EventListener listener) {
        servletContext.addListener(listener);
    }

    /**
     * Adds an initializer that runs first when the context starts, given {@code classes} as the
     * classes it handles ({@code @HandlesTypes}; none for null).
     */
    public void addServletContainerInitializer(ServletContainerInitializer initializer, Class<?>... classes) {
        servletContext.addInitializer(initializer, classes == null ? Set.of() : Set.of(classes));
    }

    /** Sends errors with {@code status} (400 to 599) to {@code location}, a path in the context. */
    public void addErrorPage(int status, String location) {
        servletContext.errorPages().add(status, location);
    }

    /** Sends exceptions of {@code type} and its subclasses to {@code location}. */
    public void addErrorPage(Class<? extends Throwable> type, String location) {
        servletContext.errorPages().add(type.getName(), location);
    }

    /** Sends every error no other page takes to {@code location}. */
    public void setDefaultErrorPage(String location) {
        servletContext.errorPages().setDefault(location);
    }

    /**
     * Sets the welcome files ({@code welcome-file-list}, section 10.10): tried in order for a
     * request to a directory, first as resources, then as paths a servlet maps by an exact or
     * extension pattern. The default is {@code index.html}, {@code index.htm}, {@code index.jsp}.
     */
    public void setWelcomeFiles(List<String> welcomeFiles) {
        servletContext.setWelcomeFiles(welcomeFiles);
    }

    /** @return the welcome files */
    public List<String> getWelcomeFiles() {
        return servletContext.getWelcomeFiles();
    }

    /**
     * Lets this context's servlets reach the other servlet contexts of the server through
     * {@code ServletContext.getContext(path)}, to forward, include or dispatch asynchronously
     * there (section 4.7). Off by default.
     */
    public void setCrossContextDispatch(boolean allowed) {
        servletContext.setCrossContextDispatch(allowed);
    }

    /** Sets who the users are, for the login method and {@code HttpServletRequest.login}. */
    public void setLoginService(io.wharf.servlet.security.LoginService service) {
        servletContext.setLoginService(service);
    }

    /** Sets how users log in (BASIC when a login service is set and this is not). */
    public void setLoginConfig(io.wharf.servlet.security.LoginConfig config) {
        servletContext.setLoginConfig(config);
    }

    /** Adds a security constraint (section 13.8); servlets' {@code @ServletSecurity} adds theirs at start. */
    public void addSecurityConstraint(io.wharf.servlet.security.SecurityConstraint constraint) {
        servletContext.addSecurityConstraint(constraint);
    }

    /**
     * Links a role name that the servlet {@code servletName} uses in {@code isUserInRole} to a
     * role of the application ({@code <security-role-ref>}, section 13.3).
     */
    public void addRoleLink(String servletName, String roleName, String roleLink) {
        servletContext.addRoleLink(servletName, roleName, roleLink);
    }

    /**
     * Sets how long a DIGEST nonce is accepted, 60 s by default: a right answer to an older nonce
     * of this context gets a new challenge with {@code stale=true} (RFC 7616 section 3.3), on which
     * clients retry with the new nonce without asking their user again.
     *
     * @throws IllegalArgumentException unless positive
     */
    public void setDigestNonceLifetime(java.time.Duration lifetime) {
        servletContext.setDigestNonceLifetime(lifetime);
    }

    /** Denies the HTTP methods a constraint's pattern does not cover ({@code deny-uncovered-http-methods}, section 13.8.4). */
    public void setDenyUncoveredHttpMethods(boolean deny) {
        servletContext.setDenyUncoveredHttpMethods(deny);
    }

    /**
     * Sets the application's {@code jsp-config} (taglib locations, JSP property groups), which
     * {@code ServletContext.getJspConfigDescriptor()} returns to JSP support; a deployer sets it
     * from web.xml.
     */
    public void setJspConfig(jakarta.servlet.descriptor.JspConfigDescriptor config) {
        servletContext.setJspConfigDescriptor(config);
    }

    /** Maps a file extension to a MIME type for {@code getMimeType}. */
    public void addMimeMapping(String extension, String mimeType) {
        servletContext.mimeTypes().addMapping(extension, mimeType);
    }

    /** Maps a locale (like {@code ja} or {@code ja_JP}) to the charset {@code setLocale} picks. */
    public void addLocaleEncoding(String locale, String charset) {
        servletContext.addLocaleEncoding(locale, charset);
    }

    @Override
    protected List<Handler> children() {
        return List.of(contextHandler);
    }


    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        return contextHandler.handle(request, response, callback);
    }

    @Override
    public String toString() {
        return "ServletContextHandler{" + getContextPath() + "}";
    }
}
