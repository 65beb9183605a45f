package io.wharf.server.handler.resource;

import java.nio.file.Path;

/**
 * Decides whether a {@link ResourceHandler} may serve an alias: a request path whose file's
 * real path is not the path the request named, because a symbolic link lies on the way
 * (and {@link ResourceHandler#setFollowSymlinks following links} did not already allow it),
 * or because the file system matched it without regard to case, by a short 8.3 name, or
 * otherwise. By default no alias is served and the answer is 404.
 *
 * <p>Called on the thread handling the request, which may block on the file system; an
 * implementation must be thread-safe. It sees only paths that passed the handler's syntax
 * checks (no {@code .} or {@code ..} segments, no NUL, no backslash).
 */
@FunctionalInterface
public interface AliasChecker {

    /**
     * @param pathInContext the request's path in its context, e.g. {@code /docs/a.txt}
     * @param requested the path under the base that the request names
     * @param real the real path of the file, links resolved; it may lie outside the base
     * @return whether to serve the file at {@code real}
     */
    boolean allows(String pathInContext, Path requested, Path real);
}
