package io.wharf.servlet.internal;

import java.io.IOException;
import java.io.InputStream;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import io.wharf.http.UriPath;

/**
 * The resources of a context (Servlet 6.1 section 4.6): files under a base directory, found by
 * a path in the context. A path is canonicalized first and must stay under the base: {@code ..}
 * above the root, or a path that resolves outside it, finds nothing. Immutable.
 *
 * @param base the base directory, absolute and normalized; null when the context has no resources
 */
record ContextResources(Path base) {

    ContextResources {
        base = base == null ? null : base.toAbsolutePath().normalize();
    }

    /** @return the file at {@code path} (which starts with {@code '/'}) when it exists under the base; else null */
    Path resolve(String path) {
        Path file = file(path);
        return file == null || !Files.exists(file) ? null : file;
    }

    /** @return where {@code path} is under the base, whether it exists or not; null when it leaves the base */
    private Path file(String path) {
        if (base == null || path == null || !path.startsWith("/")) {
            return null;
        }
        String canonical = UriPath.canonicalPath(path);
        if (canonical == null) {
            return null;
        }
        Path file = base.resolve(canonical.substring(1)).normalize();
        return file.startsWith(base) ? file : null;
    }

    /** @return the paths of a directory's entries, directories ending with {@code '/'}; null when it is no directory */
    Set<String> paths(String path) {
        Path directory = resolve(path);
        if (directory == null || !Files.isDirectory(directory)) {
            return null;
        }
        String prefix = path.endsWith("/") ? path : path + "/";
        Set<String> paths = new TreeSet<>();
        try (Stream<Path> children = Files.list(directory)) {
            children.forEach(child -> paths.add(prefix + child.getFileName() + (Files.isDirectory(child) ? "/" : "")));
        } catch (IOException x) {
            return null;
        }
        return paths;
    }

    URL url(String path) throws MalformedURLException {
        if (path == null || !path.startsWith("/")) {
            throw new MalformedURLException("a resource path must start with '/': " + path);
        }
        Path file = resolve(path);
        return file == null ? null : file.toUri().toURL();
    }

    InputStream stream(String path) {
        Path file = resolve(path);
        if (file == null || Files.isDirectory(file)) {
            return null;
        }
        try {
            return Files.newInputStream(file);
        } catch (IOException x) {
            return null;
        }
    }

    /** @return the file system path {@code path} would have (a relative one is taken from the root); null when it leaves the base */
    String realPath(String path) {
        if (path == null) {
            return null;
        }
        Path file = file(path.startsWith("/") ? path : "/" + path);
        return file == null ? null : file.toString();
    }
}
