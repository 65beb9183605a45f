package io.wharf.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

import io.wharf.loadgen.internal.ResourceFiles;

/**
 * One resource to fetch and the sub-resources a browser would fetch once it has arrived: a page,
 * its stylesheets and scripts, their images. One iteration of a {@link LoadGenerator} fetches a
 * whole tree: the root first, then each resource's children, in parallel, once it has arrived.
 * Immutable.
 *
 * @param path the path and query to request, resolved against the target URI (an absolute
 *     {@code http} or {@code https} URI of the target's origin is taken as is)
 * @param children fetched after this one arrived
 */
public record Resource(String path, List<Resource> children) {

    public Resource {
        Objects.requireNonNull(path, "path");
        children = List.copyOf(children);
    }

    /** @return a resource without children */
    public static Resource of(String path) {
        return new Resource(path, List.of());
    }

    /** @return a resource with these children */
    public static Resource of(String path, Resource... children) {
        return new Resource(path, List.of(children));
    }

    /**
     * Reads a tree from a JSON file: Wharf's form
     * ({@code {"path": "/", "children": [{"path": "/style.css"}, ...]}}) or an HTTP Archive
     * (HAR) a browser saved, whose first page becomes the tree (see docs/loadgen.md).
     *
     * @throws IllegalArgumentException naming the file and what is wrong in it
     */
    public static Resource read(Path file) throws IOException {
        try {
            return ResourceFiles.read(Files.readString(file, StandardCharsets.UTF_8));
        } catch (IllegalArgumentException x) {
            throw new IllegalArgumentException(file + ": " + x.getMessage(), x);
        }
    }

    /** @return how many resources this tree holds, itself included */
    public int size() {
        int size = 1;
        for (Resource child : children) {
            size += child.size();
        }
        return size;
    }
}
