package io.wharf.servlet.internal;

import java.util.Objects;

import io.wharf.http.pathmap.MatchedPath;
import io.wharf.http.pathmap.MatchedResource;
import io.wharf.http.pathmap.PathMappings;
import io.wharf.http.pathmap.PathSpec;
import io.wharf.http.pathmap.SuffixPathSpec;

import jakarta.servlet.http.MappingMatch;

/**
 * The servlet mappings of one context: which target (servlet) each {@code url-pattern} maps to,
 * and, per request, which of them a path in the context is mapped by (Servlet 6.1 chapter 12).
 * The matching is Wharf's one path-matching engine, a {@link PathMappings} of the patterns'
 * {@link PathSpec}s ({@link UrlPatterns#parse}); this class adds the servlet rules around it:
 * which patterns are valid, that a pattern maps to one servlet only, the empty path, and the
 * values a match reports ({@link ServletMatch}).
 *
 * <p><b>The order of the rules (section 12.1)</b>, which {@link PathMappings} keeps: an exact
 * pattern equal to the path, then the context root {@code ""} for the path {@code "/"}; then the
 * longest path prefix, by whole segments ({@code "/a/*"} maps {@code "/a"}, {@code "/a/"} and
 * {@code "/a/b"} but not {@code "/ab"}; {@code "/*"} maps every path); then the extension of the
 * last segment ({@code "*.jsp"} maps {@code "/a/b.jsp"} but not {@code "/a.jsp/b"}); then the
 * default servlet {@code "/"}. Comparisons are case-sensitive. An exact pattern cannot be
 * {@code "/"}, so the context root and the exact patterns never compete.
 *
 * <p><b>Threads.</b> Filled by {@link #add} on the deploying thread; {@link #match} may then
 * run on any number of request threads, without locks, once the table has been published to
 * them safely (the context's start does that). Adding while requests are matched is not
 * supported.
 *
 * @param <T> the type of the targets: the servlets, or whatever the caller maps paths to
 */
public final class ServletMappings<T> {

    private final PathMappings<Mapping<T>> mappings = new PathMappings<>();

    /** One pattern exactly as declared, which a match reports, and its target. */
    private record Mapping<T>(String pattern, T target) {
    }

    /**
     * Maps one {@code url-pattern} to a target. Mapping a pattern again to an equal target
     * changes nothing.
     *
     * @param pattern the pattern exactly as declared (section 12.2; see {@link UrlPatterns#parse})
     * @param target  what paths the pattern matches map to
     * @throws IllegalArgumentException when the pattern is not valid, or is already mapped to a
     *     different target: section 12.2 fails the deployment of a pattern mapped to two servlets
     * @throws NullPointerException when {@code target} is null
     */
    public void add(String pattern, T target) {
        PathSpec spec = UrlPatterns.parse(pattern);
        Objects.requireNonNull(target, "target");
        Mapping<T> existing = mappings.get(spec);
        if (existing != null) {
            if (existing.target().equals(target)) {
                return;
            }
            throw new IllegalArgumentException("url-pattern " + UrlPatterns.quote(pattern) + " is already mapped to "
                + existing.target() + " and cannot also be mapped to " + target
                + " (Servlet 6.1 section 12.2: a url-pattern mapped to more than one servlet fails the deployment)");
        }
        mappings.put(spec, new Mapping<>(pattern, target));
    }

    /**
     * Tells what a pattern is mapped to, for {@code ServletRegistration.addMapping}, which reports
     * the patterns already mapped to another servlet instead of failing.
     *
     * @param pattern a {@code url-pattern}
     * @return the target the pattern is mapped to, or null when it is not mapped
     * @throws IllegalArgumentException when the pattern is not valid
     */
    public T targetOf(String pattern) {
        Mapping<T> mapping = mappings.get(UrlPatterns.parse(pattern));
        return mapping == null ? null : mapping.target();
    }

    /**
     * Maps a path in the context to its target by the rules of section 12.1, in their order (see
     * the class comment).
     *
     * @param pathInContext the request path without the context path and path parameters,
     *     decoded; it starts with {@code '/'}, or is {@code ""} for a request to the context path
     *     without its trailing slash, which the context root {@code ""}, {@code "/*"} and the
     *     default {@code "/"} map, in that order, with the servlet path {@code ""}
     * @return the match, or null when no pattern matches (no pattern maps the path and there is
     *     no default servlet)
     * @throws IllegalArgumentException when the path is neither empty nor starts with {@code '/'}
     */
    public ServletMatch<T> match(String pathInContext) {
        if (pathInContext.isEmpty()) {
            return matchContextPath();
        }
        MatchedResource<Mapping<T>> matched = mappings.getMatched(pathInContext);
        return matched == null ? null : toServletMatch(pathInContext, matched);
    }

    /** The empty path: the best of the specs that match the context root, as if the path were {@code "/"}. */
    private ServletMatch<T> matchContextPath() {
        for (MatchedResource<Mapping<T>> matched : mappings.getMatches("/")) {
            if (UrlPatterns.matchesContextPath(matched.pathSpec())) {
                Mapping<T> mapping = matched.resource();
                MappingMatch kind = UrlPatterns.mappingMatchOf(matched.pathSpec());
                String pathInfo = kind == MappingMatch.CONTEXT_ROOT ? "/" : null;
                return new ServletMatch<>(mapping.target(), kind, mapping.pattern(), "", pathInfo, "");
            }
        }
        return null;
    }

    /** The values of section 12.2 and {@code HttpServletMapping}, as listed at {@link ServletMatch}. */
    private static <T> ServletMatch<T> toServletMatch(String path, MatchedResource<Mapping<T>> matched) {
        Mapping<T> mapping = matched.resource();
        MatchedPath matchedPath = matched.matchedPath();
        MappingMatch kind = UrlPatterns.mappingMatchOf(matched.pathSpec());
        String pathInfo = matchedPath.getPathInfo();
        String matchValue = switch (kind) {
            case CONTEXT_ROOT, DEFAULT -> "";
            case EXACT -> path.substring(1);
            case PATH -> pathInfo == null ? "" : pathInfo.substring(1);
            case EXTENSION -> path.substring(1, path.length() - ((SuffixPathSpec) matched.pathSpec()).suffix().length() - 1);
        };
        return new ServletMatch<>(mapping.target(), kind, mapping.pattern(), matchedPath.getPathMatch(), pathInfo, matchValue);
    }

    /** @return the declared patterns and their targets in precedence order, for messages and tests */
    @Override
    public String toString() {
        return "ServletMappings" + mappings;
    }
}
