package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

import jakarta.servlet.DispatcherType;

/**
 * The filter mappings of one context, in chain order, and the chain of filters they give one
 * dispatch (Servlet 6.1 sections 6.2.4 and 6.2.5).
 *
 * <p><b>The chain (section 6.2.4).</b> For a dispatch of some type to a path and a servlet,
 * {@link #chain} lists, among the mappings that apply to that dispatcher type:
 * <ol>
 * <li>first, the filters of the mappings one of whose URL patterns matches the path, in the
 *     mappings' order;</li>
 * <li>then the filters of the mappings one of whose servlet names is the servlet's (or
 *     {@code "*"}), in the mappings' order.</li>
 * </ol>
 * Section 6.2.4 reads a mapping with several patterns and names as one mapping per pattern and
 * per name, in their order. Wharf lets a mapping add its filter at most once to each of the two
 * parts, however many of its patterns (or names) match: a mapping of {@code "/a/*"} and
 * {@code "/*"} runs its filter once for {@code "/a/b"}, not twice in a row. A filter mapped
 * twice — by two mappings, or by a pattern and by the servlet's name — runs twice, as the
 * expanded mappings say; Wharf does not merge them (some containers do).
 *
 * <p>A URL pattern is tested alone, by its {@link io.wharf.http.pathmap.PathSpec}
 * ({@link UrlPatterns#matches}): {@code "/*"} and the default {@code "/"} match every path,
 * {@code ""} the context root ({@code "/"}, and {@code ""}), an exact pattern the equal path, a
 * prefix by whole segments, an extension on the last segment only.
 *
 * <p><b>Threads.</b> Filled by {@link #add} and {@link #addBeforeDeclared} on the deploying
 * thread; {@link #chain} may then run on any number of request threads once the table has been
 * published to them safely (the context's start does that). Section 6.2.4 expects a container
 * to cache chains; that cache, keyed by what {@link #chain} takes, belongs to the caller.
 *
 * @param <F> the type of the filters
 */
public final class FilterMappings<F> {

    private final List<FilterMapping<F>> mappings = new ArrayList<>();
    /** How many mappings at the front {@link #addBeforeDeclared} put there. */
    private int beforeDeclared;

    /**
     * Adds a mapping after every mapping added so far: a {@code <filter-mapping>} of the
     * deployment descriptor, or a programmatic one with {@code isMatchAfter} true.
     *
     * @param mapping the mapping
     */
    public void add(FilterMapping<F> mapping) {
        mappings.add(Objects.requireNonNull(mapping, "mapping"));
    }

    /**
     * Adds a mapping before every mapping {@link #add} added, and after those this method added
     * before: a programmatic mapping with {@code isMatchAfter} false, which
     * {@code FilterRegistration} matches before the declared mappings.
     *
     * @param mapping the mapping
     */
    public void addBeforeDeclared(FilterMapping<F> mapping) {
        mappings.add(beforeDeclared++, Objects.requireNonNull(mapping, "mapping"));
    }

    /** @return the mappings in chain order; an unmodifiable view */
    public List<FilterMapping<F>> mappings() {
        return Collections.unmodifiableList(mappings);
    }

    /**
     * Lists the filters that run, in order, before the target of one dispatch (see the class
     * comment).
     *
     * @param pathInContext  the path dispatched to, as mapped to the servlet: {@code ""} or
     *     starting with {@code '/'}; null for a dispatch by name ({@code getNamedDispatcher}),
     *     which no URL pattern matches
     * @param servletName    the name of the servlet dispatched to; null when no servlet is, which
     *     no servlet name (not even {@code "*"}) matches
     * @param dispatcherType the type of the dispatch
     * @return the filters in chain order; empty when none applies. The caller must not modify it
     */
    public List<F> chain(String pathInContext, String servletName, DispatcherType dispatcherType) {
        Objects.requireNonNull(dispatcherType, "dispatcherType");
        List<F> chain = null;
        if (pathInContext != null) {
            for (FilterMapping<F> mapping : mappings) {
                if (mapping.appliesTo(dispatcherType) && mapping.matchesPath(pathInContext)) {
                    chain = append(chain, mapping.filter());
                }
            }
        }
        if (servletName != null) {
            for (FilterMapping<F> mapping : mappings) {
                if (mapping.appliesTo(dispatcherType) && mapping.matchesServlet(servletName)) {
                    chain = append(chain, mapping.filter());
                }
            }
        }
        return chain == null ? List.of() : chain;
    }

    private static <F> List<F> append(List<F> chain, F filter) {
        List<F> list = chain == null ? new ArrayList<>() : chain;
        list.add(filter);
        return list;
    }

    /** @return how many mappings there are */
    public int size() {
        return mappings.size();
    }
}
