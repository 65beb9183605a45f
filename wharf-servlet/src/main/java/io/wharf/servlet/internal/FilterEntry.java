package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterConfig;
import jakarta.servlet.FilterRegistration;
import jakarta.servlet.ServletException;

/**
 * One filter of a context: its registration and mappings (Servlet 6.1 sections 4.4.3 and
 * 6.2.4), its config, and its one instance, made and initialized when the context starts
 * (section 6.2.1) and destroyed when it stops.
 *
 * <p><b>Threads.</b> Configured on the deploying thread; {@link #filter()} is read by request
 * threads after the start published it.
 */
public final class FilterEntry extends Registration implements FilterRegistration.Dynamic, FilterConfig {

    private final Class<? extends Filter> filterClass;
    private final Filter given;
    private final List<String> urlPatternMappings = new ArrayList<>();
    private final List<String> servletNameMappings = new ArrayList<>();
    private volatile Filter instance;

    FilterEntry(ServletApiContext context, String name, String className, Class<? extends Filter> filterClass, Filter instance) {
        super(context, name, className != null ? className : filterClass != null ? filterClass.getName()
            : instance.getClass().getName());
        this.filterClass = filterClass;
        this.given = instance;
    }

    @Override
    public void addMappingForServletNames(EnumSet<DispatcherType> dispatcherTypes, boolean isMatchAfter, String... servletNames) {
        context.checkConfigurable();
        if (servletNames == null || servletNames.length == 0) {
            throw new IllegalArgumentException("no servlet name given for filter " + getName());
        }
        context.mapFilter(FilterMapping.of(this, List.of(), List.of(servletNames), dispatcherTypes), isMatchAfter);
        servletNameMappings.addAll(List.of(servletNames));
    }

    @Override
    public Collection<String> getServletNameMappings() {
        return Collections.unmodifiableList(new ArrayList<>(servletNameMappings));
    }

    @Override
    public void addMappingForUrlPatterns(EnumSet<DispatcherType> dispatcherTypes, boolean isMatchAfter, String... urlPatterns) {
        context.checkConfigurable();
        if (urlPatterns == null || urlPatterns.length == 0) {
            throw new IllegalArgumentException("no url-pattern given for filter " + getName());
        }
        context.mapFilter(FilterMapping.of(this, List.of(urlPatterns), List.of(), dispatcherTypes), isMatchAfter);
        urlPatternMappings.addAll(List.of(urlPatterns));
    }

    @Override
    public Collection<String> getUrlPatternMappings() {
        return Collections.unmodifiableList(new ArrayList<>(urlPatternMappings));
    }

    @Override
    public String getFilterName() {
        return getName();
    }


    /** @return the initialized filter; only valid while the context runs */
    public Filter filter() {
        return instance;
    }

    /** Makes the filter unless the application gave one, and calls its {@code init}. */
    void initialize() throws ServletException {
        try {
            Filter filter = given != null ? given
                : context.instantiate(filterClass != null ? filterClass : loadClass().asSubclass(Filter.class));
            context.runInContext(() -> filter.init(this));
            instance = filter;
        } catch (ServletException x) {
            throw x;
        } catch (Exception | LinkageError x) {
            throw new ServletException("filter " + getName() + " (" + getClassName() + ") failed to initialize: " + x, x);
        }
    }

    /** Calls {@code destroy} on an initialized filter. */
    void destroy() {
        Filter filter = instance;
        if (filter != null) {
            instance = null;
            try {
                context.runInContext(filter::destroy);
            } catch (Exception x) {
                context.log("filter " + getName() + " failed to destroy", x);
            }
        }
    }
}
