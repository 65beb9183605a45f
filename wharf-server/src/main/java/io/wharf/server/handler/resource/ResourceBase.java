package io.wharf.server.handler.resource;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystem;
import java.nio.file.FileSystemAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The root a {@link ResourceHandler} serves from, and the one place that turns a request
 * path into a file under it without letting the request escape: a directory on the default
 * file system, or a class path location (a directory, or a directory inside a jar, read
 * through the JDK's zip file system).
 *
 * <p><b>How a path is checked</b> ({@link #lookup}):
 * <ol>
 * <li>Syntax: the path must start with {@code /}; no segment may be {@code .} or {@code ..},
 *     empty (except a final {@code /}), end with a dot or a space, or hold a control
 *     character, NUL, {@code \} or {@code :}. The server already decoded and normalised the
 *     path; these rules also refuse what a Windows-like file system would read as an alias
 *     ({@code foo.txt.}, {@code foo.txt::$DATA}, {@code C:}).</li>
 * <li>The segments are resolved one by one under the root's real path, and the file's real
 *     path ({@link Path#toRealPath}) must be that same path, character for character. When it
 *     is not, the path is an alias: a symbolic link on the way, a case-insensitive match, an
 *     8.3 short name. A symbolic link is followed only when asked to and only while it leads
 *     to a place under the root; anything else is refused unless an {@link AliasChecker}
 *     allows it.</li>
 * <li>A path ending with {@code /} must name a directory ({@code /foo.txt/} is missing).</li>
 * <li>Only directories and regular files are served: a named pipe, a device or a socket is
 *     refused (opening a pipe would block a thread until someone writes to it).</li>
 * </ol>
 *
 * <p><b>Threads.</b> {@link #lookup} runs on the thread handling a request and blocks on the
 * file system; a base is immutable once opened and safe to share. A class path base in a jar
 * owns the zip file system it opened and closes it in {@link #close()}; one that another
 * component had opened first is shared and left open.
 */
final class ResourceBase implements AutoCloseable {

    /** What a lookup found. */
    sealed interface Lookup {
        /** A file or directory that may be served. */
        record Found(Resource resource) implements Lookup {
        }

        /** Nothing there: the next handler may answer. */
        record Missing() implements Lookup {
        }

        /** Something that must not be served (a bad path or an alias); answer 404. */
        record Refused(String reason) implements Lookup {
        }
    }

    private static final Lookup MISSING = new Lookup.Missing();

    private final Path root;
    private final FileSystem ownedFileSystem;
    private final String description;

    private ResourceBase(Path root, FileSystem ownedFileSystem, String description) {
        this.root = root;
        this.ownedFileSystem = ownedFileSystem;
        this.description = description;
    }

    /**
     * @throws IllegalArgumentException when {@code directory} is not a directory
     * @throws IOException when its real path cannot be read
     */
    static ResourceBase ofDirectory(Path directory) throws IOException {
        Path real = directory.toRealPath();
        if (!Files.isDirectory(real)) {
            throw new IllegalArgumentException("resource base is not a directory: " + directory);
        }
        return new ResourceBase(real, null, real.toString());
    }

    /**
     * @param loader the class loader to ask for {@code prefix}
     * @param prefix a directory name as {@link ClassLoader#getResource} takes it, such as
     *     {@code static} or {@code META-INF/resources}; a jar must hold an entry for the
     *     directory itself, as jars built by Maven and the JDK's jar tool do
     * @throws IllegalArgumentException when the loader finds no such directory, or finds it in
     *     a place other than a directory or a jar file
     */
    static ResourceBase ofClassPath(ClassLoader loader, String prefix) throws IOException {
        String name = prefix.startsWith("/") ? prefix.substring(1) : prefix;
        String directoryName = name.isEmpty() || name.endsWith("/") ? name : name + "/";
        URL url = loader.getResource(directoryName);
        if (url == null) {
            url = loader.getResource(name);
        }
        if (url == null) {
            throw new IllegalArgumentException("no class path directory named '" + prefix + "'");
        }
        URI uri;
        try {
            uri = url.toURI();
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("class path directory '" + prefix + "' has no usable URI", e);
        }
        switch (uri.getScheme()) {
            case "file" -> {
                return ofDirectory(Path.of(uri));
            }
            case "jar" -> {
                return ofJar(uri, prefix);
            }
            default -> throw new IllegalArgumentException("class path directory '" + prefix
                    + "' lies in a '" + uri.getScheme() + "' location; only directories and jar files are served");
        }
    }

    private static ResourceBase ofJar(URI uri, String prefix) throws IOException {
        String spec = uri.getRawSchemeSpecificPart();
        int separator = spec.indexOf("!/");
        if (separator < 0 || spec.indexOf("!/", separator + 2) >= 0) {
            throw new IllegalArgumentException("class path directory '" + prefix + "' is not in a plain jar file");
        }
        String entry = uri.getSchemeSpecificPart();
        entry = entry.substring(entry.indexOf("!/") + 1);
        FileSystem fileSystem;
        FileSystem owned = null;
        try {
            fileSystem = FileSystems.newFileSystem(uri, Map.of());
            owned = fileSystem;
        } catch (FileSystemAlreadyExistsException alreadyOpen) {
            fileSystem = FileSystems.getFileSystem(uri);
        }
        try {
            Path root = fileSystem.getPath(entry).toRealPath();
            if (!Files.isDirectory(root)) {
                throw new IllegalArgumentException("class path entry '" + prefix + "' is not a directory");
            }
            return new ResourceBase(root, owned, uri.toString());
        } catch (IOException | RuntimeException e) {
            if (owned != null) {
                owned.close();
            }
            throw e;
        }
    }

    /** @return the real path of the root */
    Path root() {
        return root;
    }

    /**
     * Finds what {@code pathInContext} names under the root; see the class comment for the
     * rules.
     *
     * @param pathInContext the decoded request path, such as {@code /docs/a.txt}; may be null
     * @param followSymlinks whether a symbolic link that stays under the root may be served
     * @param aliasChecker asked about any other alias; null refuses them all
     * @throws IOException when the file system fails other than by a missing file
     */
    Lookup lookup(String pathInContext, boolean followSymlinks, AliasChecker aliasChecker) throws IOException {
        List<String> segments = segments(pathInContext);
        if (segments == null) {
            return new Lookup.Refused("path is not a plain absolute path");
        }
        Path requested;
        try {
            requested = root;
            for (String segment : segments) {
                requested = requested.resolve(segment);
            }
        } catch (InvalidPathException e) {
            return new Lookup.Refused("path is not valid on this file system");
        }
        Resource resource;
        Path real;
        try {
            resource = Resource.of(requested);
            real = requested.toRealPath();
        } catch (NoSuchFileException | NotDirectoryException e) {
            return MISSING;
        } catch (AccessDeniedException e) {
            return new Lookup.Refused("access denied");
        } catch (Resource.NotRegularFileException e) {
            return new Lookup.Refused("not a regular file");
        } catch (FileSystemException e) {
            // ENOTDIR and similar, when a file is used as a directory ("/a.txt/b").
            return MISSING;
        }
        if (!real.toString().equals(requested.toString())) {
            String reason = aliasReason(segments, followSymlinks);
            if (reason != null && (aliasChecker == null || !aliasChecker.allows(pathInContext, requested, real))) {
                return new Lookup.Refused(reason);
            }
            resource = new Resource(real, resource.directory(), resource.length(), resource.lastModified());
        }
        if (pathInContext.endsWith("/") && !resource.directory()) {
            return MISSING;
        }
        return new Lookup.Found(resource);
    }

    /**
     * Walks the path again, resolving symbolic links as they come.
     *
     * @return null when the alias is only links that are followed and stay under the root;
     *     otherwise why it is refused
     */
    private String aliasReason(List<String> segments, boolean followSymlinks) throws IOException {
        Path current = root;
        for (String segment : segments) {
            current = current.resolve(segment);
            if (Files.isSymbolicLink(current)) {
                if (!followSymlinks) {
                    return "symbolic link";
                }
                current = current.toRealPath();
                if (!current.startsWith(root)) {
                    return "symbolic link leading out of the base";
                }
            }
        }
        return current.toRealPath().toString().equals(current.toString()) ? null : "alias of another name";
    }

    /** @return the path's segments (a final empty one dropped), or null when the syntax is refused */
    private static List<String> segments(String path) {
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return null;
        }
        List<String> segments = new ArrayList<>();
        int start = 1;
        int length = path.length();
        while (start < length) {
            int end = path.indexOf('/', start);
            if (end < 0) {
                end = length;
            }
            String segment = path.substring(start, end);
            if (!isPlainSegment(segment)) {
                return null;
            }
            segments.add(segment);
            start = end + 1;
        }
        return segments;
    }

    private static boolean isPlainSegment(String segment) {
        if (segment.isEmpty() || segment.equals(".") || segment.equals("..")) {
            return false;
        }
        char lastChar = segment.charAt(segment.length() - 1);
        if (lastChar == '.' || lastChar == ' ') {
            return false;
        }
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c < 0x20 || c == 0x7F || c == '\\' || c == ':') {
                return false;
            }
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        if (ownedFileSystem != null) {
            ownedFileSystem.close();
        }
    }

    @Override
    public String toString() {
        return "ResourceBase[" + description + "]";
    }
}
