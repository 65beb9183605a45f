package io.wharf.loadgen.internal;

import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.loadgen.Resource;

/**
 * A resource of the tree with what each of its requests needs worked out once, before the run,
 * rather than per request: its URI resolved against the target, its method and content (its own
 * when it has them, else the run's), its header fields (the run's, less those of a name among
 * its own, then its own), the name its statistics go by, and how many resources its subtree holds. The tree a {@link TreeFetch} walks and {@link Target} makes requests of.
 * Immutable (the content is a read-only buffer each request slices); any thread.
 *
 * @param resource the resource, for the listeners
 * @param name its {@link Resource#name()}
 * @param uri its path resolved against the target
 * @param method the method of its requests
 * @param content the content of its requests, or null for none
 * @param contentType the content's media type
 * @param fields the header fields of its requests
 * @param children its children, prepared
 * @param size how many resources its subtree holds, itself included
 */
record PreparedResource(Resource resource, String name, URI uri, String method, ByteBuffer content, String contentType,
        List<HttpField> fields, List<PreparedResource> children, int size) {

    /** @return {@code resource} and its subtree, prepared for the run {@code settings} configure */
    static PreparedResource of(Resource resource, Settings settings) {
        List<PreparedResource> children = new ArrayList<>(resource.children().size());
        int size = 1;
        for (Resource child : resource.children()) {
            PreparedResource prepared = of(child, settings);
            children.add(prepared);
            size += prepared.size();
        }
        String method = settings.method();
        ByteBuffer content = settings.body() == null ? null : ByteBuffer.wrap(settings.body()).asReadOnlyBuffer();
        String contentType = settings.contentType();
        List<HttpField> fields = new ArrayList<>();
        settings.headers().forEach(fields::add);
        if (resource.request().isPresent()) {
            Resource.Request own = resource.request().get();
            byte[] bytes = own.content();
            method = own.method();
            content = bytes.length > 0 ? ByteBuffer.wrap(bytes).asReadOnlyBuffer() : null;
            contentType = own.contentType();
            fields.removeIf(field -> own.fields().stream().anyMatch(field::isSameName));
            fields.addAll(own.fields());
        }
        return new PreparedResource(resource, resource.name(), settings.target().resolve(resource.path()), method, content,
                contentType, List.copyOf(fields), List.copyOf(children), size);
    }
}
