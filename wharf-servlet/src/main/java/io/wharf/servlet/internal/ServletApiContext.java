package io.wharf.servlet.internal;

import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.EventListener;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletContextAttributeEvent;
import jakarta.servlet.ServletContextAttributeListener;
import jakarta.servlet.ServletContextEvent;
import jakarta.servlet.ServletContextListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.SessionCookieConfig;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.descriptor.JspConfigDescriptor;

import io.wharf.http.MimeTypes;
import io.wharf.server.handler.context.ContextHandler;

/**
 * The {@link ServletContext} of one servlet context handler (Servlet 6.1 chapter 4): its
 * registrations, listeners, init parameters and attributes, resources, MIME types and
 * dispatchers; and, once started, the tables that map a request to its servlet and filters.
 *
 * <p><b>Life.</b> Configured (by the embedding code, then by the initializers and listeners
 * while it starts: {@link #checkConfigurable}) until {@link #start()} ends; then the
 * registrations are closed and the mapping tables are published. {@link #stop()} destroys the
 * servlets and filters and forgets what the start added, so the context can start again.
 *
 * <p><b>Threads.</b> Configuration and start/stop on the deploying thread; the rest (attributes,
 * dispatchers, resources, the mapping tables) from any thread.
 */
public final class ServletApiContext implements ServletContext {

    /** Where the context is in its life; registrations are open until {@link #STARTED}. */
    private enum Phase { CONFIGURING, INITIALIZING, STARTED }

    private static final int MAX_CACHED_CHAINS = 1024;

    private final ContextHandler contextHandler;
    private final ContextHandler.Context attributes;
    private final ContextListeners listeners = new ContextListeners();
    private final Map<String, String> initParameters = new ConcurrentHashMap<>();
    private final Registrations registrations = new Registrations();
    private final List<Initializer> initializers = new ArrayList<>();
    private final Map<Key, List<FilterEntry>> chains = new ConcurrentHashMap<>();
    private final MimeTypes.Mutable mimeTypes = new MimeTypes.Mutable(MimeTypes.DEFAULT);
    private final SessionCookieSettings sessionCookieConfig = new SessionCookieSettings(this);
    private final ClassLoader defaultClassLoader;
    private final ErrorPages errorPages = new ErrorPages();
    private final Sessions sessions = new Sessions(this);
    private final SecuritySettings securitySettings = new SecuritySettings();
    private final SessionSettings sessionSettings = new SessionSettings();
    private volatile ContextSecurity security;
    private volatile boolean crossContextDispatch;
    private volatile java.nio.file.Path tempDirectory;
    private volatile JspConfigDescriptor jspConfig;
    /** {@code security-role-ref}s: by servlet name, the role names it uses and the application roles they stand for. */
    private volatile Phase phase = Phase.CONFIGURING;
    private volatile ServletMappings<ServletEntry> servletMappings = new ServletMappings<>();
    private volatile FilterMappings<FilterEntry> filterMappings = new FilterMappings<>();
    private volatile ContextResources resources = new ContextResources(null);
    private volatile String requestCharacterEncoding;
    private volatile String responseCharacterEncoding;
    private volatile List<String> welcomeFiles = List.of("index.html", "index.htm", "index.jsp");
    private int listenersBeforeStart;
    private Set<String> initParametersBeforeStart = Set.of();

    /** An initializer and the classes it handles. */
    private record Initializer(ServletContainerInitializer initializer, Set<Class<?>> classes) {
    }

    /** The key of the filter chain cache (section 6.2.4 expects chains cached). */
    private record Key(String path, String servletName, DispatcherType type) {
    }

    /**
     * @param contextHandler the core context this servlet context sits in: its path, attributes
     *     and class loader
     */
    public ServletApiContext(ContextHandler contextHandler) {
        this.contextHandler = contextHandler;
        this.attributes = contextHandler.getContext();
        this.defaultClassLoader = Thread.currentThread().getContextClassLoader();
    }

    // ---- life -------------------------------------------------------------------------------

    /** Adds an initializer that {@link #start()} runs first, with the classes it handles. */
    public void addInitializer(ServletContainerInitializer initializer, Set<Class<?>> classes) {
        checkConfigurable();
        initializers.add(new Initializer(initializer, classes == null || classes.isEmpty() ? null : Set.copyOf(classes)));
    }

    /**
     * Starts the context (section 4.4 and 11.3.1): the initializers, then the context listeners'
     * {@code contextInitialized}, then the filters, then the servlets that load on start-up in
     * their order; closes the registrations and publishes the mapping tables.
     */
    public void start() throws Exception {
        registrations.mark();
        listenersBeforeStart = listeners.size();
        initParametersBeforeStart = Set.copyOf(initParameters.keySet());
        phase = Phase.INITIALIZING;
        try {
            for (Initializer entry : initializers) {
                runInContext(() -> entry.initializer().onStartup(entry.classes(), this));
            }
            ServletContextEvent event = new ServletContextEvent(this);
            for (ServletContextListener listener : listeners.of(ServletContextListener.class)) {
                runInContext(() -> listener.contextInitialized(event));
            }
            mapDefaultServlet();
            publishMappings();
            security = securitySettings.build(getContextPath(), registrations.servlets());
            phase = Phase.STARTED;
            sessions.start(contextHandler.getServer().getScheduler());
            for (FilterEntry filter : registrations.filters()) {
                filter.initialize();
            }
            List<ServletEntry> onStartup = new ArrayList<>();
            for (ServletEntry servlet : registrations.servlets()) {
                if (servlet.getLoadOnStartup() >= 0) {
                    onStartup.add(servlet);
                }
            }
            onStartup.sort((a, b) -> Integer.compare(a.getLoadOnStartup(), b.getLoadOnStartup()));
            for (ServletEntry servlet : onStartup) {
                servlet.servlet();
            }
        } catch (Exception | Error x) {
            phase = Phase.STARTED;
            stop();
            throw x;
        }
    }

    /**
     * Adds a {@link io.wharf.servlet.DefaultServlet} named {@code default}, mapped to {@code /}
     * unless the application maps that pattern. When it does, the servlet is still there by name,
     * as in Tomcat and Jetty, for an application on {@code /} that hands static files to it
     * ({@code getNamedDispatcher("default")}, as Spring MVC's default servlet handling does);
     * an application that names a servlet {@code default} itself gets none.
     */
    private void mapDefaultServlet() {
        boolean slashMapped = registrations.servletMappedTo("/") != null;
        boolean nameTaken = registrations.servlet("default") != null;
        if (slashMapped && nameTaken) {
            return;
        }
        String name = nameTaken ? "wharf.default" : "default";
        ServletEntry entry = registrations.addServlet(new ServletEntry(this, name, null, null, new io.wharf.servlet.DefaultServlet()));
        if (!slashMapped) {
            entry.addMapping("/");
        }
    }

    private void publishMappings() {
        ServletMappings<ServletEntry> table = registrations.servletMappings();
        FilterMappings<FilterEntry> filterTable = registrations.filterMappings();
        chains.clear();
        servletMappings = table;
        filterMappings = filterTable;
    }

    /**
     * Stops the context (section 11.3.2): servlets then filters are destroyed, the context
     * listeners hear {@code contextDestroyed} in reverse order, and what the start added
     * (initializers' registrations and listeners) is forgotten.
     */
    public void stop() {
        if (phase == Phase.CONFIGURING) {
            return;
        }
        sessions.stop();
        List<ServletEntry> all = new ArrayList<>(registrations.servlets());
        Collections.reverse(all);
        for (ServletEntry servlet : all) {
            servlet.destroy();
        }
        for (FilterEntry filter : registrations.filters()) {
            filter.destroy();
        }
        ServletContextEvent event = new ServletContextEvent(this);
        listeners.fireReversed(ServletContextListener.class, listener -> {
            try {
                runInContext(() -> listener.contextDestroyed(event));
            } catch (Exception x) {
                log("context listener " + listener + " failed on contextDestroyed", x);
            }
        });
        registrations.reset();
        listeners.truncate(listenersBeforeStart);
        initParameters.keySet().retainAll(initParametersBeforeStart);
        chains.clear();
        phase = Phase.CONFIGURING;
    }

    /**
     * @throws IllegalStateException once the context has started: registrations may change
     *     only while it is set up (section 4.4)
     */
    public void checkConfigurable() {
        if (phase == Phase.STARTED) {
            throw new IllegalStateException("the servlet context " + getContextPath()
                + " is already initialized: servlets, filters, listeners and their settings can only be added "
                + "or changed before it starts or from its initializers and context listeners");
        }
    }

    /** @return whether the context is started and serving */
    public boolean isStarted() {
        return phase == Phase.STARTED;
    }

    /** Something run with the context's class loader; may throw. */
    @FunctionalInterface
    public interface ContextAction {
        void run() throws Exception;
    }

    /** Runs {@code action} with the thread's context class loader set to the context's, then restores it. */
    public void runInContext(ContextAction action) throws Exception {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        ClassLoader loader = getClassLoader();
        if (previous == loader) {
            action.run();
            return;
        }
        thread.setContextClassLoader(loader);
        try {
            action.run();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    /** Makes an instance of a servlet, filter or listener class with its public no-argument constructor. */
    <T> T instantiate(Class<? extends T> type) throws ReflectiveOperationException {
        return type.getDeclaredConstructor().newInstance();
    }

    // ---- what requests use -------------------------------------------------------------------

    /** @return the core context */
    public ContextHandler getContextHandler() {
        return contextHandler;
    }

    /** @return the listeners */
    public ContextListeners listeners() {
        return listeners;
    }

    // ---- security (chapter 13) -----------------------------------------------------------------

    /** Sets who the users are. */
    public void setLoginService(io.wharf.servlet.security.LoginService service) {
        checkConfigurable();
        securitySettings.setLoginService(service);
    }

    /** Sets how users log in. */
    public void setLoginConfig(io.wharf.servlet.security.LoginConfig config) {
        checkConfigurable();
        securitySettings.setLoginConfig(config);
    }

    /** Adds a security constraint. */
    public void addSecurityConstraint(io.wharf.servlet.security.SecurityConstraint constraint) {
        checkConfigurable();
        securitySettings.addConstraint(constraint);
    }

    /**
     * Links a role name {@code servletName} uses in {@code isUserInRole} to a role of the
     * application ({@code security-role-ref}, section 13.3); the servlet may be registered later.
     */
    public void addRoleLink(String servletName, String roleName, String roleLink) {
        checkConfigurable();
        securitySettings.addRoleLink(servletName, roleName, roleLink);
    }

    /** @return the application role that {@code roleName}, as {@code servletName} uses it, stands for; or null */
    String roleLink(String servletName, String roleName) {
        return securitySettings.roleLink(servletName, roleName);
    }

    /** Denies the methods a constraint's pattern does not cover ({@code deny-uncovered-http-methods}). */
    public void setDenyUncoveredHttpMethods(boolean deny) {
        checkConfigurable();
        securitySettings.setDenyUncoveredMethods(deny);
    }

    /** Sets how long a DIGEST nonce is accepted (60 s by default); after it, a right answer is challenged with {@code stale=true}. */
    public void setDigestNonceLifetime(java.time.Duration lifetime) {
        checkConfigurable();
        securitySettings.setDigestNonceLifetime(lifetime);
    }

    /** @return the security of the started context, or null when it has none */
    ContextSecurity security() {
        return security;
    }

    /** Sets the temporary directory of this start: the core context's, or one made for it. */
    void setTempDirectory(java.nio.file.Path directory) {
        this.tempDirectory = directory;
    }

    /** @return the temporary directory of the running context (section 4.8.1) */
    public java.nio.file.Path tempDirectory() {
        return tempDirectory;
    }

    /** @return the sessions */
    Sessions sessions() {
        return sessions;
    }

    /** @return the error pages */
    public ErrorPages errorPages() {
        return errorPages;
    }

    /** @return the servlet that {@code pathInContext} maps to, with its paths; null when none does */
    public ServletMatch<ServletEntry> match(String pathInContext) {
        return servletMappings.match(pathInContext);
    }

    /**
     * @return the filters that run before {@code servletName} for a dispatch to
     *     {@code pathInContext} (null for a dispatch by name), cached
     */
    public List<FilterEntry> filterChain(String pathInContext, String servletName, DispatcherType type) {
        FilterMappings<FilterEntry> table = filterMappings;
        if (table.size() == 0) {
            return List.of();
        }
        Key key = new Key(pathInContext, servletName, type);
        List<FilterEntry> chain = chains.get(key);
        if (chain == null) {
            chain = List.copyOf(table.chain(pathInContext, servletName, type));
            if (chains.size() >= MAX_CACHED_CHAINS) {
                chains.clear();
            }
            chains.put(key, chain);
        }
        return chain;
    }

    /** @return the servlet registered under {@code name}, or null */
    public ServletEntry servletNamed(String name) {
        return registrations.servlet(name);
    }

    ServletEntry servletMappedTo(String pattern) {
        return registrations.servletMappedTo(pattern);
    }

    void mapServlet(String pattern, ServletEntry servlet) {
        registrations.mapServlet(pattern, servlet);
    }

    void mapFilter(FilterMapping<FilterEntry> mapping, boolean matchAfter) {
        registrations.mapFilter(mapping, matchAfter);
    }

    // ---- ServletContext: paths, versions, resources ------------------------------------------

    @Override
    public String getContextPath() {
        String path = contextHandler.getContextPath();
        return "/".equals(path) ? "" : path;
    }

    /**
     * Section 4.7: this context for a path inside it; another servlet context of the same server
     * only when this one allows cross-context dispatch ({@link #setCrossContextDispatch}, off by
     * default); else null.
     */
    @Override
    public ServletContext getContext(String uripath) {
        if (uripath == null || !uripath.startsWith("/")) {
            return null;
        }
        String own = getContextPath();
        boolean mine = uripath.equals(own) || uripath.startsWith(own + "/");
        if (!crossContextDispatch) {
            return own.isEmpty() || mine ? this : null;
        }
        ServletApiContext found = ServerContexts.contextFor(contextHandler.getServer(), uripath);
        return found != null ? found : mine ? this : null;
    }

    /** Lets {@link #getContext} give this context's servlets the other servlet contexts of the server. */
    public void setCrossContextDispatch(boolean allowed) {
        this.crossContextDispatch = allowed;
    }

    @Override
    public int getMajorVersion() {
        return 6;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    @Override
    public int getEffectiveMajorVersion() {
        return 6;
    }

    @Override
    public int getEffectiveMinorVersion() {
        return 1;
    }

    /** @return the MIME types this context knows, to add mappings to */
    public MimeTypes.Mutable mimeTypes() {
        return mimeTypes;
    }

    @Override
    public String getMimeType(String file) {
        return file == null ? null : mimeTypes.getMimeByExtension(file);
    }

    /** Sets the directory the context's resources come from; null for none. */
    public void setBaseResource(Path directory) {
        resources = new ContextResources(directory);
    }

    /** @return the base resource directory, or null */
    public Path getBaseResource() {
        return resources.base();
    }

    /** @return the file of the resource at {@code path}, or null (see {@link ContextResources#resolve}) */
    public Path resolve(String path) {
        return resources.resolve(path);
    }

    @Override
    public Set<String> getResourcePaths(String path) {
        return resources.paths(path);
    }

    @Override
    public URL getResource(String path) throws MalformedURLException {
        return resources.url(path);
    }

    @Override
    public InputStream getResourceAsStream(String path) {
        return resources.stream(path);
    }

    @Override
    public String getRealPath(String path) {
        return resources.realPath(path);
    }

    @Override
    public RequestDispatcher getRequestDispatcher(String path) {
        if (path == null || !path.startsWith("/")) {
            return null;
        }
        return ServletDispatcher.byPath(this, path);
    }

    @Override
    public RequestDispatcher getNamedDispatcher(String name) {
        ServletEntry servlet = servletNamed(name);
        return servlet == null ? null : ServletDispatcher.byName(this, servlet);
    }

    @Override
    public void log(String message) {
        System.getLogger(ServletApiContext.class.getName()).log(System.Logger.Level.INFO, "{0}: {1}", contextName(), message);
    }

    @Override
    public void log(String message, Throwable throwable) {
        System.getLogger(ServletApiContext.class.getName()).log(System.Logger.Level.WARNING, contextName() + ": " + message, throwable);
    }

    private String contextName() {
        String name = getServletContextName();
        return name != null ? name : getContextPath().isEmpty() ? "/" : getContextPath();
    }

    @Override
    public String getServerInfo() {
        return "Wharf/" + version();
    }

    private static String version() {
        String version = ServletApiContext.class.getPackage().getImplementationVersion();
        return version == null ? "0.1" : version;
    }

    // ---- init parameters and attributes -------------------------------------------------------

    @Override
    public String getInitParameter(String name) {
        if (name == null) {
            throw new NullPointerException("init parameter name");
        }
        return initParameters.get(name);
    }

    @Override
    public Enumeration<String> getInitParameterNames() {
        return Collections.enumeration(new ArrayList<>(initParameters.keySet()));
    }

    @Override
    public boolean setInitParameter(String name, String value) {
        if (name == null) {
            throw new NullPointerException("init parameter name");
        }
        checkConfigurable();
        return initParameters.putIfAbsent(name, value) == null;
    }

    @Override
    public Object getAttribute(String name) {
        if (name == null) {
            throw new NullPointerException("attribute name");
        }
        return attributes.getAttribute(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
        return Collections.enumeration(attributes.getAttributeNames());
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
        Object previous = attributes.setAttribute(name, value);
        if (listeners.has(ServletContextAttributeListener.class)) {
            ServletContextAttributeEvent event = new ServletContextAttributeEvent(this, name, previous == null ? value : previous);
            listeners.fire(ServletContextAttributeListener.class,
                previous == null ? listener -> listener.attributeAdded(event) : listener -> listener.attributeReplaced(event));
        }
    }

    @Override
    public void removeAttribute(String name) {
        Object previous = attributes.removeAttribute(name);
        if (previous != null && listeners.has(ServletContextAttributeListener.class)) {
            ServletContextAttributeEvent event = new ServletContextAttributeEvent(this, name, previous);
            listeners.fire(ServletContextAttributeListener.class, listener -> listener.attributeRemoved(event));
        }
    }

    @Override
    public String getServletContextName() {
        return contextHandler.getDisplayName();
    }

    // ---- registrations --------------------------------------------------------------------------

    @Override
    public ServletRegistration.Dynamic addServlet(String servletName, String className) {
        return addServlet(servletName, className, null, null);
    }

    @Override
    public ServletRegistration.Dynamic addServlet(String servletName, Servlet servlet) {
        if (servlet == null) {
            throw new IllegalArgumentException("servlet must not be null");
        }
        return addServlet(servletName, null, null, servlet);
    }

    @Override
    public ServletRegistration.Dynamic addServlet(String servletName, Class<? extends Servlet> servletClass) {
        if (servletClass == null) {
            throw new IllegalArgumentException("servlet class must not be null");
        }
        return addServlet(servletName, null, servletClass, null);
    }

    private ServletRegistration.Dynamic addServlet(String name, String className, Class<? extends Servlet> type, Servlet servlet) {
        checkConfigurable();
        checkName(name, "servlet");
        return registrations.addServlet(new ServletEntry(this, name, className, type, servlet));
    }

    /**
     * Registers a JSP page as a servlet (section 4.4.1.3): a servlet of the class of the
     * context's {@code jsp} servlet, with its init parameters and {@code jspFile} set to the page.
     *
     * @throws UnsupportedOperationException when the context has no {@code jsp} servlet (JSP
     *     needs the wharf-jsp module)
     */
    @Override
    public ServletRegistration.Dynamic addJspFile(String servletName, String jspFile) {
        checkConfigurable();
        checkName(servletName, "servlet");
        if (jspFile == null || jspFile.isEmpty()) {
            throw new IllegalArgumentException("addJspFile(" + servletName + "): no JSP file given");
        }
        ServletEntry jsp = registrations.servlet("jsp");
        if (jsp == null) {
            throw new UnsupportedOperationException("addJspFile(" + servletName + ", " + jspFile
                + "): this context has no 'jsp' servlet; JSP needs the wharf-jsp module");
        }
        ServletEntry entry = registrations.addServlet(new ServletEntry(this, servletName, jsp.getClassName(), null, null));
        if (entry == null) {
            return null;
        }
        entry.setInitParameters(jsp.getInitParameters());
        entry.setInitParameter("jspFile", jspFile.startsWith("/") ? jspFile : "/" + jspFile);
        return entry;
    }

    @Override
    public <T extends Servlet> T createServlet(Class<T> servletClass) throws ServletException {
        return create(servletClass, "servlet");
    }

    @Override
    public ServletRegistration getServletRegistration(String servletName) {
        return servletNamed(servletName);
    }

    @Override
    public Map<String, ? extends ServletRegistration> getServletRegistrations() {
        return registrations.servletsByName();
    }

    /** @return the servlets, in the order they were added */
    public List<ServletEntry> servlets() {
        return registrations.servlets();
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String filterName, String className) {
        return addFilter(filterName, className, null, null);
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String filterName, Filter filter) {
        if (filter == null) {
            throw new IllegalArgumentException("filter must not be null");
        }
        return addFilter(filterName, null, null, filter);
    }

    @Override
    public FilterRegistration.Dynamic addFilter(String filterName, Class<? extends Filter> filterClass) {
        if (filterClass == null) {
            throw new IllegalArgumentException("filter class must not be null");
        }
        return addFilter(filterName, null, filterClass, null);
    }

    private FilterRegistration.Dynamic addFilter(String name, String className, Class<? extends Filter> type, Filter filter) {
        checkConfigurable();
        checkName(name, "filter");
        return registrations.addFilter(new FilterEntry(this, name, className, type, filter));
    }

    private static void checkName(String name, String kind) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a " + kind + " name must not be null or empty");
        }
    }

    @Override
    public <T extends Filter> T createFilter(Class<T> filterClass) throws ServletException {
        return create(filterClass, "filter");
    }

    @Override
    public FilterRegistration getFilterRegistration(String filterName) {
        return registrations.filter(filterName);
    }

    @Override
    public Map<String, ? extends FilterRegistration> getFilterRegistrations() {
        return registrations.filtersByName();
    }

    private <T> T create(Class<T> type, String kind) throws ServletException {
        try {
            return instantiate(type);
        } catch (ReflectiveOperationException | RuntimeException x) {
            throw new ServletException("cannot make " + kind + " " + type.getName()
                + " (it needs a public constructor without arguments): " + x, x);
        }
    }

    @Override
    public void addListener(String className) {
        checkConfigurable();
        try {
            Class<?> type = Class.forName(className, false, getClassLoader());
            if (!EventListener.class.isAssignableFrom(type)) {
                throw new IllegalArgumentException(className + " is not an EventListener");
            }
            addListener(type.asSubclass(EventListener.class));
        } catch (ClassNotFoundException x) {
            throw new IllegalArgumentException("listener class " + className + " not found by the context's class loader", x);
        }
    }

    @Override
    public <T extends EventListener> void addListener(T listener) {
        checkConfigurable();
        listeners.add(listener);
    }

    @Override
    public void addListener(Class<? extends EventListener> listenerClass) {
        checkConfigurable();
        try {
            listeners.add(createListener(listenerClass));
        } catch (ServletException x) {
            throw new IllegalArgumentException(x.getMessage(), x);
        }
    }

    @Override
    public <T extends EventListener> T createListener(Class<T> listenerClass) throws ServletException {
        if (!ContextListeners.isListenerKind(listenerClass)) {
            throw new IllegalArgumentException(listenerClass.getName() + " implements none of the listener interfaces "
                + "a servlet context accepts (Servlet 6.1 section 11.2)");
        }
        return create(listenerClass, "listener");
    }

    // ---- sessions, roles, encodings ---------------------------------------------------------------

    @Override
    public SessionCookieConfig getSessionCookieConfig() {
        return sessionCookieConfig;
    }

    @Override
    public void setSessionTrackingModes(Set<SessionTrackingMode> modes) {
        checkConfigurable();
        sessionSettings.setTrackingModes(modes);
    }

    /** @return {@code COOKIE} (see {@link SessionSettings#defaultTrackingModes()}) */
    @Override
    public Set<SessionTrackingMode> getDefaultSessionTrackingModes() {
        return sessionSettings.defaultTrackingModes();
    }

    @Override
    public Set<SessionTrackingMode> getEffectiveSessionTrackingModes() {
        return sessionSettings.effectiveTrackingModes();
    }

    /** @return the {@code jsp-config} of the application (a deployer sets it from web.xml), or null when it has none */
    @Override
    public JspConfigDescriptor getJspConfigDescriptor() {
        return jspConfig;
    }

    /** Sets the {@code jsp-config} that JSP support reads (taglibs, property groups); null for none. */
    public void setJspConfigDescriptor(JspConfigDescriptor config) {
        checkConfigurable();
        this.jspConfig = config;
    }

    @Override
    public ClassLoader getClassLoader() {
        ClassLoader loader = contextHandler.getClassLoader();
        return loader != null ? loader : defaultClassLoader != null ? defaultClassLoader : ServletApiContext.class.getClassLoader();
    }

    @Override
    public void declareRoles(String... roleNames) {
        checkConfigurable();
        securitySettings.declareRoles(roleNames);
    }

    @Override
    public String getVirtualServerName() {
        List<String> hosts = contextHandler.getVirtualHosts();
        return hosts.isEmpty() ? "wharf" : hosts.get(0);
    }

    @Override
    public int getSessionTimeout() {
        return sessionSettings.timeoutMinutes();
    }

    @Override
    public void setSessionTimeout(int sessionTimeout) {
        checkConfigurable();
        sessionSettings.setTimeoutMinutes(sessionTimeout);
    }

    @Override
    public String getRequestCharacterEncoding() {
        return requestCharacterEncoding;
    }

    @Override
    public void setRequestCharacterEncoding(String encoding) {
        checkConfigurable();
        this.requestCharacterEncoding = encoding;
    }

    @Override
    public String getResponseCharacterEncoding() {
        return responseCharacterEncoding;
    }

    @Override
    public void setResponseCharacterEncoding(String encoding) {
        checkConfigurable();
        this.responseCharacterEncoding = encoding;
    }

    /** Sets the welcome files, in the order they are tried (section 10.10). */
    public void setWelcomeFiles(List<String> files) {
        for (String file : files) {
            if (file == null || file.isEmpty() || file.startsWith("/")) {
                throw new IllegalArgumentException("a welcome file is a relative path, not " + file);
            }
        }
        welcomeFiles = List.copyOf(files);
    }

    /** @return the welcome files, in order */
    public List<String> getWelcomeFiles() {
        return welcomeFiles;
    }

    /** Locale to charset mappings of {@code locale-encoding-mapping-list} (section 5.6). */
    private final Map<String, String> localeEncodings = new HashMap<>();

    /** Maps a locale (language, or language and country like {@code ja_JP}) to a charset for {@code setLocale}. */
    public void addLocaleEncoding(String locale, String charset) {
        synchronized (localeEncodings) {
            localeEncodings.put(locale, charset);
        }
    }

    /** @return the charset mapped to {@code locale} (language and country first, then language), or null */
    public String localeEncoding(java.util.Locale locale) {
        synchronized (localeEncodings) {
            if (localeEncodings.isEmpty()) {
                return null;
            }
            String charset = localeEncodings.get(locale.toString());
            return charset != null ? charset : localeEncodings.get(locale.getLanguage());
        }
    }

    @Override
    public String toString() {
        return "ServletContext[" + (getContextPath().isEmpty() ? "/" : getContextPath()) + "]";
    }
}
