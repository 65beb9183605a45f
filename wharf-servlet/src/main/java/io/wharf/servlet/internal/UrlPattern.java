package io.wharf.servlet.internal;

import jakarta.servlet.http.MappingMatch;

/**
 * One {@code url-pattern} of a servlet or filter mapping, parsed once when the mapping is
 * declared: its kind (a {@link MappingMatch}) and the key the mapping tables look it up by.
 * Immutable; made by {@link #parse} on the deploying thread and then shared by every request
 * thread.
 *
 * <p><b>The kinds (Servlet 6.1 section 12.2).</b>
 * <ul>
 * <li>{@code ""}: {@link MappingMatch#CONTEXT_ROOT}, the context root itself;</li>
 * <li>{@code "/"}: {@link MappingMatch#DEFAULT}, the default servlet;</li>
 * <li>a string beginning with {@code '/'} and ending with {@code "/*"}: {@link MappingMatch#PATH},
 *     a path prefix whose key is the pattern without its {@code "/*"} ({@code ""} for {@code "/*"});</li>
 * <li>a string beginning with {@code "*."}: {@link MappingMatch#EXTENSION}, whose key is the
 *     extension after the {@code "*."};</li>
 * <li>any other string beginning with {@code '/'}: {@link MappingMatch#EXACT}, whose key is the
 *     pattern itself.</li>
 * </ul>
 *
 * <p><b>What is refused.</b> Section 12.2 ends with "all other strings are used for exact matches
 * only", which, read to the letter, accepts any string. Wharf accepts every pattern that rule
 * lets match some path and refuses, with an {@link IllegalArgumentException} that quotes the
 * pattern and names the rule, the ones that can only be mistakes:
 * <ul>
 * <li>null (as {@code ServletRegistration.addMapping} does);</li>
 * <li>a CR or LF anywhere: the deployment descriptor schema's {@code url-patternType} forbids
 *     them and asks for a descriptive error;</li>
 * <li>a non-empty pattern starting with neither {@code '/'} nor {@code "*."} (say {@code "foo"}
 *     or {@code "*"}): as an exact pattern it could never match, since a path in a context
 *     starts with {@code '/'}. Some containers prepend the {@code '/'} for old (Servlet 2.2)
 *     descriptors; Wharf does not guess;</li>
 * <li>an extension pattern whose extension is empty ({@code "*."}) or holds {@code '/'} or
 *     {@code '.'} ({@code "*.a/b"}, {@code "*.tar.gz"}): section 12.1 (rule 3) defines an
 *     extension as what follows the last {@code '.'} of the last segment, so no such path has
 *     that extension;</li>
 * <li>a {@code '*'} anywhere but in the {@code "/*"} that ends a path pattern or the
 *     {@code "*."} that starts an extension pattern ({@code "/a/*.jsp"}, {@code "/a/*}{@code /b"},
 *     {@code "/a*"}): section 12.2 gives {@code '*'} no other meaning, and such a pattern is a
 *     glob the author expected to work, not an exact path. This is stricter than the letter of
 *     the "all other strings" rule, on purpose.</li>
 * </ul>
 * Matching is case-sensitive (section 12.1) and everything else in a pattern, spaces included,
 * is kept as given.
 */
public final class UrlPattern {

    private static final String RULES = "(Servlet 6.1 section 12.2)";

    private final String pattern;
    private final MappingMatch kind;
    private final String key;

    private UrlPattern(String pattern, MappingMatch kind, String key) {
        this.pattern = pattern;
        this.kind = kind;
        this.key = key;
    }

    /**
     * Parses one {@code url-pattern} as section 12.2 defines it (see the class comment for what
     * is refused and why).
     *
     * @param pattern the pattern exactly as declared
     * @return the parsed pattern
     * @throws IllegalArgumentException quoting the pattern and naming the broken rule
     */
    public static UrlPattern parse(String pattern) {
        if (pattern == null) {
            throw new IllegalArgumentException("a url-pattern must not be null " + RULES);
        }
        if (pattern.indexOf('\r') >= 0 || pattern.indexOf('\n') >= 0) {
            throw invalid(pattern, "it holds a CR or LF, which the deployment descriptor's url-patternType forbids");
        }
        if (pattern.isEmpty()) {
            return new UrlPattern(pattern, MappingMatch.CONTEXT_ROOT, "");
        }
        if (pattern.equals("/")) {
            return new UrlPattern(pattern, MappingMatch.DEFAULT, "");
        }
        if (pattern.startsWith("*.")) {
            return extension(pattern);
        }
        if (pattern.charAt(0) != '/') {
            throw invalid(pattern, "it must be \"\", \"/\", start with '/' or start with \"*.\" " + RULES
                + "; a path in a context starts with '/', so as an exact pattern it could never match");
        }
        if (pattern.endsWith("/*")) {
            String base = pattern.substring(0, pattern.length() - 2);
            requireNoStar(pattern, base);
            return new UrlPattern(pattern, MappingMatch.PATH, base);
        }
        requireNoStar(pattern, pattern);
        return new UrlPattern(pattern, MappingMatch.EXACT, pattern);
    }

    private static UrlPattern extension(String pattern) {
        String extension = pattern.substring(2);
        if (extension.isEmpty()) {
            throw invalid(pattern, "an extension pattern needs an extension after \"*.\" " + RULES);
        }
        if (extension.indexOf('/') >= 0) {
            throw invalid(pattern, "an extension belongs to the last path segment, so it cannot hold '/'"
                + " (Servlet 6.1 section 12.1, rule 3)");
        }
        if (extension.indexOf('.') >= 0) {
            throw invalid(pattern, "an extension is what follows the last '.' of the last path segment, so it cannot hold '.'"
                + " (Servlet 6.1 section 12.1, rule 3)");
        }
        requireNoStar(pattern, extension);
        return new UrlPattern(pattern, MappingMatch.EXTENSION, extension);
    }

    private static void requireNoStar(String pattern, String rest) {
        if (rest.indexOf('*') >= 0) {
            throw invalid(pattern, "a '*' may only end a path pattern (\"/dir/*\") or start an extension pattern (\"*.ext\") "
                + RULES);
        }
    }

    private static IllegalArgumentException invalid(String pattern, String why) {
        return new IllegalArgumentException("url-pattern " + quote(pattern) + " is not valid: " + why);
    }

    /** @return {@code text} in double quotes, with CR and LF written as {@code \r} and {@code \n} */
    static String quote(String text) {
        return '"' + text.replace("\r", "\\r").replace("\n", "\\n") + '"';
    }

    /** @return the pattern exactly as declared, as {@code HttpServletMapping.getPattern()} reports it */
    public String pattern() {
        return pattern;
    }

    /** @return what kind of pattern this is, as {@code HttpServletMapping.getMappingMatch()} reports a match by it */
    public MappingMatch kind() {
        return kind;
    }

    /**
     * @return what the mapping tables look this pattern up by: the pattern for {@code EXACT}, the
     *     prefix without its {@code "/*"} for {@code PATH}, the extension without its {@code "*."}
     *     for {@code EXTENSION}, and {@code ""} for {@code CONTEXT_ROOT} and {@code DEFAULT}
     */
    String key() {
        return key;
    }

    /**
     * Whether this pattern, tested alone, matches a path by the rules of section 12.1; this is
     * how a filter's {@code url-pattern} is tested (section 6.2.4). A servlet's path is mapped
     * by {@link ServletMappings}, which also ranks the patterns that match.
     * <ul>
     * <li>{@code CONTEXT_ROOT} matches {@code "/"} and {@code ""} (section 12.2: the context root,
     *     with or without its trailing slash);</li>
     * <li>{@code DEFAULT} matches every path: alone, the default servlet's pattern is what every
     *     path falls back to (section 12.1, rule 4);</li>
     * <li>{@code EXACT} matches the equal path;</li>
     * <li>{@code PATH} matches its prefix by whole segments: {@code "/a/*"} matches {@code "/a"},
     *     {@code "/a/"} and {@code "/a/b"}, not {@code "/ab"}; {@code "/*"} matches every path;</li>
     * <li>{@code EXTENSION} matches a path whose last segment's extension (after its last
     *     {@code '.'}) is equal: {@code "*.jsp"} matches {@code "/a/b.jsp"}, not
     *     {@code "/a.jsp/b"}.</li>
     * </ul>
     *
     * @param path the path in the context, without path parameters
     * @return whether the path matches
     */
    public boolean matches(String path) {
        return switch (kind) {
            case CONTEXT_ROOT -> path.isEmpty() || path.equals("/");
            case DEFAULT -> true;
            case EXACT -> path.equals(key);
            case PATH -> path.startsWith(key) && (path.length() == key.length() || path.charAt(key.length()) == '/');
            case EXTENSION -> {
                int start = extensionStart(path);
                yield start >= 0 && path.length() - start == key.length() && path.startsWith(key, start);
            }
        };
    }

    /**
     * Finds the extension of a path's last segment: the part after the last {@code '.'} of the
     * part after the last {@code '/'} (Servlet 6.1 section 12.1, rule 3). Allocates nothing.
     *
     * @param path the path in the context
     * @return the index of the extension's first character ({@code path.length()} when the last
     *     segment ends with a {@code '.'}), or -1 when the last segment has no {@code '.'}
     */
    static int extensionStart(String path) {
        for (int i = path.length() - 1; i >= 0; i--) {
            char c = path.charAt(i);
            if (c == '/') {
                return -1;
            }
            if (c == '.') {
                return i + 1;
            }
        }
        return -1;
    }

    /** Two patterns are equal when they were declared as the same string. */
    @Override
    public boolean equals(Object other) {
        return other instanceof UrlPattern that && pattern.equals(that.pattern);
    }

    @Override
    public int hashCode() {
        return pattern.hashCode();
    }

    /** @return the pattern exactly as declared */
    @Override
    public String toString() {
        return pattern;
    }
}
