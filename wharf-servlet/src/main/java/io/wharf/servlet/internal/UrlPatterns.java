package io.wharf.servlet.internal;

import io.wharf.http.pathmap.DefaultPathSpec;
import io.wharf.http.pathmap.ExactPathSpec;
import io.wharf.http.pathmap.PathSpec;
import io.wharf.http.pathmap.PrefixPathSpec;
import io.wharf.http.pathmap.RegexPathSpec;
import io.wharf.http.pathmap.RootPathSpec;
import io.wharf.http.pathmap.SuffixPathSpec;
import io.wharf.http.pathmap.UriTemplatePathSpec;

import jakarta.servlet.http.MappingMatch;

/**
 * The servlet reading of a {@code url-pattern} (Servlet 6.1 section 12.2) on top of Wharf's
 * path specs: which {@link PathSpec} a pattern declares, which {@link MappingMatch} a spec
 * reports, and whether a spec matches a path in the context, the empty one included. Stateless;
 * called on the deploying thread ({@link #parse}) and on request threads (the rest).
 *
 * <p><b>What is refused.</b> {@link PathSpec#from} does most of the checking: a pattern must be
 * {@code ""}, {@code "/"}, start with {@code '/'} or start with {@code "*."}, and a {@code '*'} may
 * only end a path pattern or start an extension pattern. Its message is kept, framed as a
 * {@code url-pattern} error. Before it, {@link #parse} refuses what is valid for the path specs
 * but not for a servlet:
 * <ul>
 * <li>null (as {@code ServletRegistration.addMapping} does);</li>
 * <li>a CR or LF anywhere: the deployment descriptor schema's {@code url-patternType} forbids
 *     them and asks for a descriptive error;</li>
 * <li>a pattern starting with {@code '^'} or holding <code>'&#123;'</code>, which the path specs
 *     read as a regular expression or a URI template: section 12.2 has neither;</li>
 * <li>an extension holding {@code '.'} ({@code "*.tar.gz"}): section 12.1 (rule 3) defines an
 *     extension as what follows the last {@code '.'} of the last segment, so no path has it.</li>
 * </ul>
 */
final class UrlPatterns {

    private static final String RULES = "(Servlet 6.1 section 12.2)";

    private UrlPatterns() {
    }

    /**
     * Reads one {@code url-pattern} as section 12.2 defines it.
     *
     * @param pattern the pattern exactly as declared
     * @return the spec it declares: exact, root, prefix, suffix or default
     * @throws IllegalArgumentException quoting the pattern and naming the broken rule
     */
    static PathSpec parse(String pattern) {
        if (pattern == null) {
            throw new IllegalArgumentException("a url-pattern must not be null " + RULES);
        }
        if (pattern.indexOf('\r') >= 0 || pattern.indexOf('\n') >= 0) {
            throw invalid(pattern, "it holds a CR or LF, which the deployment descriptor's url-patternType forbids");
        }
        if (pattern.startsWith("^") || pattern.indexOf('{') >= 0) {
            throw invalid(pattern, "a url-pattern is \"\", \"/\", \"/dir/*\", \"*.ext\" or an exact path;"
                + " regular expressions and URI templates are not url-patterns " + RULES);
        }
        if (pattern.startsWith("*.") && pattern.indexOf('.', 2) >= 0) {
            throw invalid(pattern, "an extension is what follows the last '.' of the last path segment, so it cannot hold '.'"
                + " (Servlet 6.1 section 12.1, rule 3)");
        }
        try {
            return PathSpec.from(pattern);
        } catch (IllegalArgumentException notASpec) {
            throw new IllegalArgumentException("url-pattern " + quote(pattern) + " is not valid: " + notASpec.getMessage()
                + " " + RULES, notASpec);
        }
    }

    /**
     * @param spec a spec {@link #parse} made
     * @return what {@code HttpServletMapping.getMappingMatch()} reports for a match by it
     * @throws IllegalArgumentException for a regex or template spec, which no url-pattern declares
     */
    static MappingMatch mappingMatchOf(PathSpec spec) {
        return switch (spec) {
            case ExactPathSpec exact -> MappingMatch.EXACT;
            case RootPathSpec root -> MappingMatch.CONTEXT_ROOT;
            case PrefixPathSpec prefix -> MappingMatch.PATH;
            case SuffixPathSpec suffix -> MappingMatch.EXTENSION;
            case DefaultPathSpec fallback -> MappingMatch.DEFAULT;
            case RegexPathSpec regex -> throw notAUrlPattern(spec);
            case UriTemplatePathSpec template -> throw notAUrlPattern(spec);
        };
    }

    /**
     * Whether a spec, tested alone, matches a path in the context; this is how a filter's
     * {@code url-pattern} is tested (section 6.2.4). A path starting with {@code '/'} is matched
     * by {@link PathSpec#matched}; the default {@code "/"} matches every path there. The empty
     * path, a request for the context path without its trailing slash, is matched by the specs
     * that match the context root: {@code ""}, {@code "/*"} and {@code "/"}
     * ({@link #matchesContextPath}).
     *
     * @param spec          a spec {@link #parse} made
     * @param pathInContext the path in the context, decoded, without path parameters; {@code ""}
     *     or starting with {@code '/'}
     * @return whether the path matches
     * @throws IllegalArgumentException when the path is neither empty nor starts with {@code '/'}
     */
    static boolean matches(PathSpec spec, String pathInContext) {
        return pathInContext.isEmpty() ? matchesContextPath(spec) : spec.matched(pathInContext) != null;
    }

    /**
     * @return whether the spec matches the empty path in the context: it is the context root
     *     {@code ""}, the prefix {@code "/*"} or the default {@code "/"}
     */
    static boolean matchesContextPath(PathSpec spec) {
        return spec instanceof RootPathSpec || spec instanceof DefaultPathSpec
            || spec instanceof PrefixPathSpec prefix && prefix.prefix().isEmpty();
    }

    private static IllegalArgumentException invalid(String pattern, String why) {
        return new IllegalArgumentException("url-pattern " + quote(pattern) + " is not valid: " + why);
    }

    private static IllegalArgumentException notAUrlPattern(PathSpec spec) {
        return new IllegalArgumentException("path spec " + quote(spec.getDeclaration()) + " is not a url-pattern " + RULES);
    }

    /** @return {@code text} in double quotes, with CR and LF written as {@code \r} and {@code \n} */
    static String quote(String text) {
        return '"' + text.replace("\r", "\\r").replace("\n", "\\n") + '"';
    }
}
