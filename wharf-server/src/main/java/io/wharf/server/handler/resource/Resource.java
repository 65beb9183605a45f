package io.wharf.server.handler.resource;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A file or directory that a {@link ResourceBase} found under its root, with the attributes
 * it had when it was looked up: whether it is a directory, its length and its last-modified
 * time. The path is the checked, real one; it lives on the default file system (a directory
 * base, or a class path directory) or inside a jar's file system (a class path base in a jar).
 *
 * <p>Made and used by the thread handling a request, which may block on the file system;
 * immutable. It holds no open file: {@link #open()} hands the caller a channel to close.
 *
 * @param path the real path of the file or directory
 * @param directory whether it is a directory
 * @param length its length in bytes (0 for a directory)
 * @param lastModified its last-modified time in milliseconds since the epoch
 */
record Resource(Path path, boolean directory, long length, long lastModified) {

    /**
     * @return the resource at {@code path}, following links, with its current attributes
     * @throws NotRegularFileException when it is neither a directory nor a regular file (a
     *     named pipe, a device, a socket), which a server must never open: a pipe blocks
     */
    static Resource of(Path path) throws IOException {
        BasicFileAttributes attributes = Files.readAttributes(path, BasicFileAttributes.class);
        boolean directory = attributes.isDirectory();
        if (!directory && !attributes.isRegularFile()) {
            throw new NotRegularFileException(path.toString());
        }
        return new Resource(path, directory, directory ? 0 : attributes.size(), attributes.lastModifiedTime().toMillis());
    }

    /** Thrown by {@link #of} for what is neither a directory nor a regular file. */
    static final class NotRegularFileException extends java.nio.file.FileSystemException {
        NotRegularFileException(String file) {
            super(file, null, "not a regular file");
        }
    }

    /** @return the last element of the path, the name a listing shows */
    String name() {
        Path name = path.getFileName();
        return name == null ? "" : name.toString().replace("/", "");
    }

    /**
     * @return whether the file can be mapped into memory: it lives on the default file system,
     *     whose channels are {@link FileChannel}s (a jar's entries are not)
     */
    boolean isMappable() {
        return path.getFileSystem() == FileSystems.getDefault();
    }

    /**
     * Opens the file for reading. The caller owns the channel and closes it.
     *
     * @return a {@link FileChannel} when {@link #isMappable()}, else a channel that reads
     *     forward only
     */
    SeekableByteChannel open() throws IOException {
        if (directory) {
            throw new IllegalStateException("cannot open a directory for reading: " + path);
        }
        return isMappable() ? FileChannel.open(path) : Files.newByteChannel(path);
    }

    /**
     * Lists the directory's entries, sorted by name, reading their attributes (following links;
     * an entry whose attributes cannot be read, such as a dangling link, is left out).
     *
     * @param maxEntries the most entries read; the rest of a larger directory is not read
     * @return the entries, at most {@code maxEntries}
     */
    List<Resource> list(int maxEntries) throws IOException {
        if (!directory) {
            throw new IllegalStateException("not a directory: " + path);
        }
        List<Resource> entries = new ArrayList<>();
        try (DirectoryStream<Path> stream = Files.newDirectoryStream(path)) {
            for (Path entry : stream) {
                if (entries.size() >= maxEntries) {
                    break;
                }
                try {
                    entries.add(of(entry));
                } catch (IOException unreadable) {
                    // A dangling link, a vanished entry, a pipe or a device: not listed.
                }
            }
        }
        entries.sort(Comparator.comparing(Resource::name));
        return entries;
    }
}
