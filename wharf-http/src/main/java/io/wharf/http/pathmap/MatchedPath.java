package io.wharf.http.pathmap;

import java.util.Map;
import java.util.Objects;

/**
 * How a {@link PathSpec} matched one path: the part it matched (what the servlet API calls
 * the servlet path), the rest (the path info) and, for templates and regular expressions, the
 * values of their variables or groups.
 *
 * <p>Immutable; made by {@link PathSpec#matched(String)} on the thread that looks the path up
 * and safe to hand to any other thread.
 */
public final class MatchedPath {

    private final String pathMatch;
    private final String pathInfo;
    private final Map<String, String> parameters;

    /**
     * @param pathMatch the matched part, possibly empty, never null
     * @param pathInfo the rest of the path, or null when nothing is left
     * @param parameters variables or groups by name; copied
     */
    public MatchedPath(String pathMatch, String pathInfo, Map<String, String> parameters) {
        this.pathMatch = Objects.requireNonNull(pathMatch, "pathMatch");
        this.pathInfo = pathInfo;
        this.parameters = parameters.isEmpty() ? Map.of() : Map.copyOf(parameters);
    }

    /** A match without parameters. */
    public MatchedPath(String pathMatch, String pathInfo) {
        this(pathMatch, pathInfo, Map.of());
    }

    /** @return the part of the path the spec matched, possibly empty (for {@code /*} and {@code ""}) */
    public String getPathMatch() {
        return pathMatch;
    }

    /** @return the rest of the path after {@link #getPathMatch()}, starting with {@code /}, or null when nothing is left */
    public String getPathInfo() {
        return pathInfo;
    }

    /**
     * @return the template's variables, or the regex's groups that took part in the match (by
     *     number, and by name for named groups); empty for servlet-style specs; unmodifiable
     */
    public Map<String, String> getParameters() {
        return parameters;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof MatchedPath that
                && pathMatch.equals(that.pathMatch)
                && Objects.equals(pathInfo, that.pathInfo)
                && parameters.equals(that.parameters);
    }

    @Override
    public int hashCode() {
        return Objects.hash(pathMatch, pathInfo, parameters);
    }

    @Override
    public String toString() {
        return "MatchedPath[pathMatch=" + pathMatch + ", pathInfo=" + pathInfo + ", parameters=" + parameters + "]";
    }
}
