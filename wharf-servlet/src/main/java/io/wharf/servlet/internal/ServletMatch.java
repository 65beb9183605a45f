package io.wharf.servlet.internal;

import java.util.Objects;

import jakarta.servlet.http.MappingMatch;

/**
 * How {@link ServletMappings#match} mapped one path: the target and the values the servlet
 * request reports for the mapping. Immutable; made on the request's thread and owned by the
 * request that asked.
 *
 * <p>The values, by kind, for a path {@code p} in the context (Servlet 6.1 sections 12.1 and
 * 12.2, the javadoc of {@code HttpServletMapping} and of {@code HttpServletRequest}'s
 * {@code getServletPath} and {@code getPathInfo}):
 * <table>
 * <caption>servletPath, pathInfo and matchValue by kind</caption>
 * <tr><th>kind</th><th>servletPath</th><th>pathInfo</th><th>matchValue</th></tr>
 * <tr><td>CONTEXT_ROOT ({@code ""})</td><td>{@code ""}</td><td>{@code "/"}</td><td>{@code ""}</td></tr>
 * <tr><td>EXACT ({@code /a/b})</td><td>{@code p}</td><td>null</td><td>{@code p} without its leading {@code '/'}</td></tr>
 * <tr><td>PATH ({@code /a/*})</td><td>the prefix, {@code /a} ({@code ""} for {@code /*})</td>
 *     <td>the rest of {@code p}, or null when {@code p} is the prefix</td>
 *     <td>the pathInfo without its leading {@code '/'}; {@code ""} when the pathInfo is null</td></tr>
 * <tr><td>EXTENSION ({@code *.jsp})</td><td>{@code p}</td><td>null</td>
 *     <td>{@code p} without its leading {@code '/'} and its {@code ".jsp"}</td></tr>
 * <tr><td>DEFAULT ({@code /})</td><td>{@code p}</td><td>null</td><td>{@code ""}</td></tr>
 * </table>
 *
 * @param target       what the path maps to (the servlet, or whatever the caller put in the table)
 * @param mappingMatch the kind of the pattern that matched, for {@code HttpServletMapping.getMappingMatch()}
 * @param pattern      the pattern that matched, exactly as declared, for {@code HttpServletMapping.getPattern()}
 * @param servletPath  for {@code HttpServletRequest.getServletPath()}
 * @param pathInfo     for {@code HttpServletRequest.getPathInfo()}; null when there is none
 * @param matchValue   for {@code HttpServletMapping.getMatchValue()}
 * @param <T>          the type of the targets
 */
public record ServletMatch<T>(T target, MappingMatch mappingMatch, String pattern, String servletPath, String pathInfo,
                              String matchValue) {

    /** Checks that everything but the path info is present. */
    public ServletMatch {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(mappingMatch, "mappingMatch");
        Objects.requireNonNull(pattern, "pattern");
        Objects.requireNonNull(servletPath, "servletPath");
        Objects.requireNonNull(matchValue, "matchValue");
    }
}
