package io.wharf.http.pathmap;

/**
 * The answer of {@link PathMappings} for one path: the resource mapped, the spec that
 * matched and how it matched.
 *
 * <p>Immutable; made on the thread that looks the path up. Whether the resource itself may
 * be shared is up to the application.
 *
 * @param resource the resource mapped to the spec
 * @param pathSpec the spec that matched
 * @param matchedPath how it matched: path match, path info, parameters
 * @param <E> the type of the resources
 */
public record MatchedResource<E>(E resource, PathSpec pathSpec, MatchedPath matchedPath) {
}
