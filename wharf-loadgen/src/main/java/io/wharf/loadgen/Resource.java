package io.wharf.loadgen;

import java.util.List;
import java.util.Objects;

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

    /** @return how many resources this tree holds, itself included */
    public int size() {
        int size = 1;
        for (Resource child : children) {
            size += child.size();
        }
        return size;
    }
}
