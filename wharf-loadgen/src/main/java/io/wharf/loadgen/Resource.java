package io.wharf.loadgen;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

import io.wharf.http.FieldSyntax;
import io.wharf.http.HttpField;
import io.wharf.loadgen.internal.ResourceFiles;

/**
 * One resource to fetch and the sub-resources a browser would fetch once it has arrived: a page,
 * its stylesheets and scripts, their images. One iteration of a {@link LoadGenerator} fetches a
 * whole tree: the root first, then each resource's children, in parallel, once it has arrived.
 * Immutable.
 *
 * @param path the path and query to request, resolved against the target URI (an absolute
 *     {@code http} or {@code https} URI of the target's origin is taken as is)
 * @param request the resource's own method and content, which replace the run's (a HAR file's
 *     entries have theirs); empty to request it with the run's
 * @param children fetched after this one arrived
 */
public record Resource(String path, Optional<Request> request, List<Resource> children) {

    public Resource {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(request, "request");
        children = List.copyOf(children);
    }

    /** A resource requested with the run's method and content. */
    public Resource(String path, List<Resource> children) {
        this(path, Optional.empty(), children);
    }

    /** @return a resource without children */
    public static Resource of(String path) {
        return new Resource(path, List.of());
    }

    /** @return a resource with these children */
    public static Resource of(String path, Resource... children) {
        return new Resource(path, List.of(children));
    }

    /** @return this resource, requested with {@code request} instead of the run's method and content */
    public Resource with(Request request) {
        return new Resource(path, Optional.of(request), children);
    }

    /**
     * @return the name its statistics go by: the path, preceded by the method when the resource
     *     has one of its own other than GET ({@code POST /api/items}), so that a page that both
     *     reads and writes one URL counts each apart
     */
    public String name() {
        return request.filter(own -> !own.method().equals("GET")).map(own -> own.method() + " " + path).orElse(path);
    }

    /**
     * Reads a tree from a JSON file: Wharf's form
     * ({@code {"path": "/", "children": [{"path": "/style.css"}, ...]}}) or an HTTP Archive
     * (HAR) a browser saved, whose first page becomes the tree, each entry with its method,
     * content and header fields, less those the client writes itself: pseudo-header fields,
     * Host, Content-Type (from the entry's {@code postData}), Content-Length and the
     * connection's own fields (see docs/loadgen.md).
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

    /**
     * A resource's own method, content and header fields, sent instead of the run's. The run's
     * header fields still go with it, except those of a name among its own. Immutable (the
     * content is a copy, compared by value).
     *
     * @param method the method, an HTTP token such as {@code POST}
     * @param content the content, empty for none
     * @param contentType the content's media type ({@code Content-Type}); ignored without content
     * @param fields its own header fields, in order (a name may repeat); the client still writes
     *     Host, the framing fields and its connection's own, so a file's such fields are left out
     *     when it is read (see {@link #read})
     */
    public record Request(String method, byte[] content, String contentType, List<HttpField> fields) {

        public Request {
            Objects.requireNonNull(method, "method");
            if (method.isEmpty() || !method.chars().allMatch(FieldSyntax::isTokenOctet)) {
                throw new IllegalArgumentException("the method '" + method + "' is not an HTTP token");
            }
            content = content.clone();
            Objects.requireNonNull(contentType, "contentType");
            fields = List.copyOf(fields);
            for (HttpField field : fields) {
                if (field.getName().isEmpty() || !field.getName().chars().allMatch(FieldSyntax::isTokenOctet)) {
                    throw new IllegalArgumentException("the header field name '" + field.getName() + "' is not an HTTP token");
                }
                if (!field.getValue().chars().allMatch(c -> c < 256 && FieldSyntax.isValueOctet(c))) {
                    throw new IllegalArgumentException("the value of the header field " + field.getName()
                            + " has a character a field value cannot hold");
                }
            }
        }

        /** A request with its own method and content and no header fields of its own. */
        public Request(String method, byte[] content, String contentType) {
            this(method, content, contentType, List.of());
        }

        /** @return a request with {@code method} and no content */
        public static Request of(String method) {
            return new Request(method, new byte[0], "");
        }

        /** @return a request with {@code method} and UTF-8 text of {@code type} as its content */
        public static Request of(String method, String content, String type) {
            return new Request(method, content.getBytes(StandardCharsets.UTF_8), type);
        }

        @Override
        public byte[] content() {
            return content.clone();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Request that && method.equals(that.method) && Arrays.equals(content, that.content)
                    && contentType.equals(that.contentType) && fields.equals(that.fields);
        }

        @Override
        public int hashCode() {
            return Objects.hash(method, Arrays.hashCode(content), contentType, fields);
        }

        @Override
        public String toString() {
            return "Request[" + method + ", " + content.length + " bytes" + (content.length == 0 ? "" : " of " + contentType)
                    + (fields.isEmpty() ? "" : ", " + fields) + "]";
        }
    }
}
