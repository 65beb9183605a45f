package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.Servlet;
import jakarta.servlet.ServletConfig;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.ServletSecurityElement;
import jakarta.servlet.UnavailableException;

/**
 * One servlet of a context: its registration (Servlet 6.1 section 4.4.3), its config, and its
 * one instance, made and initialized on first use or at start when it loads on start-up
 * (section 2.3.2), destroyed when the context stops.
 *
 * <p><b>Threads.</b> Configured on the deploying thread. {@link #servlet()} may be called by any
 * number of request threads: the first initializes the servlet under a lock, the others wait
 * for it; after that it is a volatile read.
 */
public final class ServletEntry extends Registration implements ServletRegistration.Dynamic, ServletConfig {

    private final Class<? extends Servlet> servletClass;
    /** The instance the application handed over, kept across a stop and start; null when the entry makes its own. */
    private final Servlet given;
    private final List<String> mappings = new ArrayList<>();
    private final Object lock = new Object();
    private volatile Servlet instance;
    private volatile boolean initialized;
    private volatile UnavailableException unavailable;
    private int loadOnStartup = -1;
    private MultipartConfigElement multipartConfig;
    private ServletSecurityElement securityElement;
    private String runAsRole;
    private final java.util.Map<String, String> roleLinks = new java.util.concurrent.ConcurrentHashMap<>();

    ServletEntry(ServletApiContext context, String name, String className, Class<? extends Servlet> servletClass, Servlet instance) {
        super(context, name, className != null ? className : servletClass != null ? servletClass.getName()
            : instance.getClass().getName());
        this.servletClass = servletClass;
        this.given = instance;
        this.instance = instance;
    }

    @Override
    public Set<String> addMapping(String... urlPatterns) {
        context.checkConfigurable();
        if (urlPatterns == null || urlPatterns.length == 0) {
            throw new IllegalArgumentException("no url-pattern given for servlet " + getName());
        }
        Set<String> conflicts = new LinkedHashSet<>();
        for (String pattern : urlPatterns) {
            ServletEntry mapped = context.servletMappedTo(pattern);
            if (mapped != null && mapped != this) {
                conflicts.add(pattern);
            }
        }
        if (conflicts.isEmpty()) {
            for (String pattern : urlPatterns) {
                context.mapServlet(pattern, this);
                if (!mappings.contains(pattern)) {
                    mappings.add(pattern);
                }
            }
        }
        return conflicts;
    }

    @Override
    public Collection<String> getMappings() {
        return Collections.unmodifiableList(new ArrayList<>(mappings));
    }

    /** Links a role name the servlet uses to a role of the application ({@code security-role-ref}, section 13.3). */
    public void addRoleLink(String roleName, String roleLink) {
        context.checkConfigurable();
        roleLinks.put(roleName, roleLink);
    }

    /** @return the application role {@code roleName} is linked to, or null */
    public String roleLink(String roleName) {
        return roleLinks.get(roleName);
    }

    @Override
    public String getRunAsRole() {
        return runAsRole;
    }

    @Override
    public void setRunAsRole(String roleName) {
        context.checkConfigurable();
        this.runAsRole = roleName;
    }

    @Override
    public void setLoadOnStartup(int loadOnStartup) {
        context.checkConfigurable();
        this.loadOnStartup = loadOnStartup;
    }

    /** @return the load-on-startup order; negative when the servlet loads on first use */
    public int getLoadOnStartup() {
        return loadOnStartup;
    }

    @Override
    public Set<String> setServletSecurity(ServletSecurityElement constraint) {
        if (constraint == null) {
            throw new IllegalArgumentException("servlet security element must not be null");
        }
        context.checkConfigurable();
        this.securityElement = constraint;
        return Set.of();
    }

    /** @return the {@code @ServletSecurity} or programmatic constraint, or null */
    public ServletSecurityElement getServletSecurity() {
        return securityElement;
    }

    @Override
    public void setMultipartConfig(MultipartConfigElement multipartConfig) {
        if (multipartConfig == null) {
            throw new IllegalArgumentException("multipart config must not be null");
        }
        context.checkConfigurable();
        this.multipartConfig = multipartConfig;
    }

    /** @return the multipart config, or null when the servlet takes no multipart requests */
    public MultipartConfigElement getMultipartConfig() {
        return multipartConfig;
    }

    @Override
    public String getServletName() {
        return getName();
    }


    /** @return whether the servlet was initialized and is in service */
    public boolean isInitialized() {
        return initialized;
    }

    /**
     * @return the servlet, made and initialized first if it was not yet
     * @throws UnavailableException when the servlet could not be made (permanently) or its
     *     {@code init} threw {@link UnavailableException}; the caller answers 404 when it is
     *     permanent and 503 when it is not (section 2.3.3.2)
     */
    public Servlet servlet() throws ServletException {
        if (initialized) {
            return instance;
        }
        synchronized (lock) {
            UnavailableException failure = unavailable;
            if (failure != null) {
                throw failure;
            }
            if (!initialized) {
                initialize();
            }
            return instance;
        }
    }

    private void initialize() throws ServletException {
        Servlet servlet = instance;
        try {
            if (servlet == null) {
                servlet = context.instantiate(servletClass != null ? servletClass : loadClass().asSubclass(Servlet.class));
                instance = servlet;
            }
            Servlet made = servlet;
            context.runInContext(() -> made.init(this));
            initialized = true;
        } catch (UnavailableException x) {
            if (x.isPermanent()) {
                unavailable = x;
            }
            throw x;
        } catch (ServletException x) {
            throw x;
        } catch (ReflectiveOperationException | ClassCastException | LinkageError x) {
            UnavailableException failure = new UnavailableException("servlet " + getName() + " (" + getClassName()
                + ") cannot be made: " + x);
            failure.initCause(x);
            unavailable = failure;
            throw failure;
        } catch (Exception x) {
            throw new ServletException("servlet " + getName() + " failed to initialize: " + x, x);
        }
    }

    /** Calls {@code destroy} on an initialized servlet; the next use initializes it again. */
    void destroy() {
        synchronized (lock) {
            if (initialized) {
                initialized = false;
                Servlet servlet = instance;
                try {
                    context.runInContext(servlet::destroy);
                } catch (Exception x) {
                    context.log("servlet " + getName() + " failed to destroy", x);
                }
                instance = given;
            }
            unavailable = null;
        }
    }
}
