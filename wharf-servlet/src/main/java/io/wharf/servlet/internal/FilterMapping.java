package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

import io.wharf.http.pathmap.PathSpec;

import jakarta.servlet.DispatcherType;

/**
 * One {@code <filter-mapping>} (or one {@code FilterRegistration.addMappingFor...} call): a
 * filter, the URL patterns and servlet names it is mapped to, and the dispatches it applies to
 * (Servlet 6.1 sections 6.2.4 and 6.2.5). Immutable; made on the deploying thread and then read
 * by every request thread.
 *
 * <p>A mapping needs at least one URL pattern or servlet name (the deployment descriptor schema
 * requires one). The servlet name {@value #ALL_SERVLETS} stands for every servlet, whether it was
 * reached by a path or by name (section 6.2.5). No dispatcher type means {@code REQUEST} only.
 *
 * @param filter          the filter (or whatever the caller chains)
 * @param urlPatterns     the URL patterns as path specs ({@link UrlPatterns#parse}), in declaration order
 * @param servletNames    the servlet names, in declaration order
 * @param dispatcherTypes the dispatches the mapping applies to; never empty
 * @param <F>             the type of the filters
 */
public record FilterMapping<F>(F filter, List<PathSpec> urlPatterns, List<String> servletNames,
                               Set<DispatcherType> dispatcherTypes) {

    /** The servlet name that matches every servlet (section 6.2.5). */
    public static final String ALL_SERVLETS = "*";

    /**
     * Copies the lists and sets, defaults an empty dispatcher set to {@code REQUEST} only, and
     * checks the mapping.
     *
     * @throws IllegalArgumentException when there is neither a URL pattern nor a servlet name,
     *     a URL pattern is a regex or template spec (no url-pattern declares one), or a servlet
     *     name is empty
     * @throws NullPointerException when an argument or an element is null
     */
    public FilterMapping {
        Objects.requireNonNull(filter, "filter");
        urlPatterns = List.copyOf(urlPatterns);
        for (PathSpec pattern : urlPatterns) {
            UrlPatterns.mappingMatchOf(pattern); // refuses a regex or template spec
        }
        servletNames = List.copyOf(servletNames);
        if (urlPatterns.isEmpty() && servletNames.isEmpty()) {
            throw new IllegalArgumentException("the filter mapping of " + filter
                + " names neither a url-pattern nor a servlet-name (Servlet 6.1 section 6.2.4)");
        }
        if (servletNames.contains("")) {
            throw new IllegalArgumentException("the filter mapping of " + filter + " has an empty servlet-name");
        }
        EnumSet<DispatcherType> types = EnumSet.noneOf(DispatcherType.class);
        types.addAll(dispatcherTypes);
        if (types.isEmpty()) {
            types.add(DispatcherType.REQUEST);
        }
        dispatcherTypes = Collections.unmodifiableSet(types);
    }

    /**
     * Makes a mapping from patterns as declared.
     *
     * @param filter          the filter
     * @param urlPatterns     the URL patterns as declared, each read by {@link UrlPatterns#parse}
     * @param servletNames    the servlet names
     * @param dispatcherTypes the dispatches; empty (or null, as {@code FilterRegistration} allows)
     *     for {@code REQUEST} only
     * @return the mapping
     * @throws IllegalArgumentException when a pattern is not valid, or as the constructor does
     */
    public static <F> FilterMapping<F> of(F filter, Collection<String> urlPatterns, Collection<String> servletNames,
                                          Collection<DispatcherType> dispatcherTypes) {
        List<PathSpec> parsed = new ArrayList<>(urlPatterns.size());
        for (String pattern : urlPatterns) {
            parsed.add(UrlPatterns.parse(pattern));
        }
        return new FilterMapping<>(filter, parsed, List.copyOf(servletNames),
            dispatcherTypes == null ? Set.of() : Set.copyOf(dispatcherTypes));
    }

    /** @return whether the mapping applies to a dispatch of this type */
    public boolean appliesTo(DispatcherType type) {
        return dispatcherTypes.contains(type);
    }

    /**
     * @param pathInContext the path being dispatched to: {@code ""} or starting with {@code '/'}
     * @return whether one of the URL patterns matches it ({@link UrlPatterns#matches})
     */
    public boolean matchesPath(String pathInContext) {
        for (PathSpec pattern : urlPatterns) {
            if (UrlPatterns.matches(pattern, pathInContext)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @param servletName the name of the servlet being dispatched to; null when there is none
     * @return whether one of the servlet names is that name or {@value #ALL_SERVLETS}; false
     *     for null, which no name matches
     */
    public boolean matchesServlet(String servletName) {
        if (servletName == null) {
            return false;
        }
        for (String name : servletNames) {
            if (name.equals(servletName) || name.equals(ALL_SERVLETS)) {
                return true;
            }
        }
        return false;
    }
}
