package io.wharf.servlet.internal;

import java.util.Objects;

import jakarta.servlet.http.MappingMatch;

/**
 * The servlet mappings of one context: which target (servlet) each {@code url-pattern} maps to,
 * and, per request, which of them a path in the context is mapped by (Servlet 6.1 chapter 12).
 *
 * <p><b>The order of the rules (section 12.1).</b> {@link #match} tries, and the first that
 * matches wins:
 * <ol>
 * <li>the context root {@code ""} for the path {@code "/"} (or {@code ""}), and an exact pattern
 *     equal to the path: the exact matches;</li>
 * <li>the path prefixes, longest first, by whole segments: {@code "/a/*"} maps {@code "/a"},
 *     {@code "/a/"} and {@code "/a/b"} but not {@code "/ab"}; {@code "/*"} maps every path;</li>
 * <li>the extension of the last segment, after its last {@code '.'}: {@code "*.jsp"} maps
 *     {@code "/a/b.jsp"} but not {@code "/a.jsp/b"};</li>
 * <li>the default servlet {@code "/"}.</li>
 * </ol>
 * Comparisons are case-sensitive. The values a match reports are listed at {@link ServletMatch}.
 *
 * <p><b>Cost.</b> A lookup allocates nothing but its answer: exact patterns, prefixes and
 * extensions each sit in a {@link SubstringMap}; the prefixes are found in one left-to-right
 * walk over the path that carries the hash of the part walked so far and looks it up at each
 * {@code '/'} (up to the longest prefix declared), keeping the last — the longest — hit.
 *
 * <p><b>Threads.</b> Filled by {@link #add} on the deploying thread; {@link #match} may then
 * run on any number of request threads once the table has been published to them safely (the
 * context's start does that). Adding while requests are matched is not supported.
 *
 * @param <T> the type of the targets: the servlets, or whatever the caller maps paths to
 */
public final class ServletMappings<T> {

    private final SubstringMap<Mapping<T>> exact = new SubstringMap<>();
    private final SubstringMap<Mapping<T>> prefixes = new SubstringMap<>();
    private final SubstringMap<Mapping<T>> extensions = new SubstringMap<>();
    private Mapping<T> contextRoot;
    private Mapping<T> fallback;
    /** The length of the longest prefix declared, or -1 when there is none: the walk stops past it. */
    private int longestPrefix = -1;

    /** One pattern and its target. */
    private record Mapping<T>(UrlPattern pattern, T target) {
    }

    /**
     * Maps one {@code url-pattern} to a target. Mapping a pattern again to an equal target
     * changes nothing.
     *
     * @param pattern the pattern exactly as declared (section 12.2; see {@link UrlPattern#parse})
     * @param target  what paths the pattern matches map to
     * @throws IllegalArgumentException when the pattern is not valid, or is already mapped to a
     *     different target: section 12.2 fails the deployment of a pattern mapped to two servlets
     * @throws NullPointerException when {@code target} is null
     */
    public void add(String pattern, T target) {
        UrlPattern parsed = UrlPattern.parse(pattern);
        Objects.requireNonNull(target, "target");
        Mapping<T> existing = find(parsed);
        if (existing != null) {
            if (existing.target().equals(target)) {
                return;
            }
            throw new IllegalArgumentException("url-pattern " + UrlPattern.quote(pattern) + " is already mapped to "
                + existing.target() + " and cannot also be mapped to " + target
                + " (Servlet 6.1 section 12.2: a url-pattern mapped to more than one servlet fails the deployment)");
        }
        Mapping<T> mapping = new Mapping<>(parsed, target);
        switch (parsed.kind()) {
            case CONTEXT_ROOT -> contextRoot = mapping;
            case DEFAULT -> fallback = mapping;
            case EXACT -> exact.put(parsed.key(), mapping);
            case PATH -> {
                prefixes.put(parsed.key(), mapping);
                longestPrefix = Math.max(longestPrefix, parsed.key().length());
            }
            case EXTENSION -> extensions.put(parsed.key(), mapping);
        }
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
        Mapping<T> mapping = find(UrlPattern.parse(pattern));
        return mapping == null ? null : mapping.target();
    }

    private Mapping<T> find(UrlPattern pattern) {
        return switch (pattern.kind()) {
            case CONTEXT_ROOT -> contextRoot;
            case DEFAULT -> fallback;
            case EXACT -> exact.get(pattern.key());
            case PATH -> prefixes.get(pattern.key());
            case EXTENSION -> extensions.get(pattern.key());
        };
    }

    /**
     * Maps a path in the context to its target by the rules of section 12.1, in their order (see
     * the class comment).
     *
     * @param pathInContext the request path without the context path and path parameters,
     *     decoded; it starts with {@code '/'}, or is {@code ""} for a request to the context path
     *     without its trailing slash
     * @return the match, or null when no pattern matches (no pattern maps the path and there is
     *     no default servlet)
     */
    public ServletMatch<T> match(String pathInContext) {
        String path = pathInContext;
        if (contextRoot != null && (path.isEmpty() || path.equals("/"))) {
            return new ServletMatch<>(contextRoot.target(), MappingMatch.CONTEXT_ROOT, "", "", "/", "");
        }
        Mapping<T> mapping = exact.get(path);
        if (mapping != null) {
            return new ServletMatch<>(mapping.target(), MappingMatch.EXACT, mapping.pattern().pattern(), path, null,
                withoutLeadingSlash(path, path.length()));
        }
        ServletMatch<T> byPrefix = matchPrefix(path);
        if (byPrefix != null) {
            return byPrefix;
        }
        int extension = extensions.isEmpty() ? -1 : UrlPattern.extensionStart(path);
        if (extension >= 0) {
            mapping = extensions.get(path, extension, path.length());
            if (mapping != null) {
                return new ServletMatch<>(mapping.target(), MappingMatch.EXTENSION, mapping.pattern().pattern(), path, null,
                    withoutLeadingSlash(path, extension - 1));
            }
        }
        if (fallback != null) {
            return new ServletMatch<>(fallback.target(), MappingMatch.DEFAULT, fallback.pattern().pattern(), path, null, "");
        }
        return null;
    }

    /**
     * Finds the longest declared prefix of the path that ends at a segment boundary: at the start
     * (the {@code "/*"} prefix, {@code ""}), before each {@code '/'} and at the end of the path.
     */
    private ServletMatch<T> matchPrefix(String path) {
        if (longestPrefix < 0) {
            return null;
        }
        int last = Math.min(path.length(), longestPrefix);
        Mapping<T> found = null;
        int foundEnd = 0;
        int hash = 0;
        for (int end = 0; end <= last; end++) {
            if (end == 0 || end == path.length() || path.charAt(end) == '/') {
                Mapping<T> mapping = prefixes.get(path, 0, end, hash);
                if (mapping != null) {
                    found = mapping;
                    foundEnd = end;
                }
            }
            if (end < last) {
                hash = 31 * hash + path.charAt(end);
            }
        }
        if (found == null) {
            return null;
        }
        String pathInfo = foundEnd == path.length() ? null : path.substring(foundEnd);
        String matchValue = pathInfo == null ? "" : withoutLeadingSlash(pathInfo, pathInfo.length());
        return new ServletMatch<>(found.target(), MappingMatch.PATH, found.pattern().pattern(), path.substring(0, foundEnd),
            pathInfo, matchValue);
    }

    /** @return {@code text[0, end)} without the {@code '/'} it starts with, if it does */
    private static String withoutLeadingSlash(String text, int end) {
        int start = !text.isEmpty() && text.charAt(0) == '/' ? 1 : 0;
        return text.substring(start, Math.max(start, end));
    }

    /** @return the declared patterns by kind, for messages and tests */
    @Override
    public String toString() {
        return "ServletMappings{contextRoot=" + (contextRoot != null) + ", default=" + (fallback != null) + ", exact=" + exact
            + ", prefixes=" + prefixes + ", extensions=" + extensions + "}";
    }
}
