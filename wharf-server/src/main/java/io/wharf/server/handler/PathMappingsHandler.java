package io.wharf.server.handler;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import io.wharf.http.BadMessageException;
import io.wharf.http.pathmap.MatchedPath;
import io.wharf.http.pathmap.MatchedResource;
import io.wharf.http.pathmap.PathMappings;
import io.wharf.http.pathmap.PathSpec;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * A handler that routes each request to the child mapped to the best {@link PathSpec} for the
 * request's {@linkplain Request#getPathInContext() path in context}: exact ({@code /status}),
 * prefix ({@code /api/*}), suffix ({@code *.css}), regex ({@code ^/items/([0-9]+)$}) and URI
 * template ({@code /users/{id}}) specs, ranked as {@link PathMappings} describes.
 *
 * <p><b>Best match only.</b> Only the best child is asked. When it returns false, or when no
 * spec matches, this handler returns false too (the server then answers 404); it never falls
 * back to a worse match, so which child serves a path depends on the specs alone.
 *
 * <p><b>Parameters.</b> Before calling the child, the {@link MatchedPath} — the part of the
 * path the spec matched, the rest, and a template's variables or a regex's groups — is set
 * as the request attribute {@link #MATCHED_PATH}; children read it with
 * {@link #getMatchedPath(Request)} or {@link #getParameters(Request)}. Nested path-mapping
 * handlers overwrite it: a child sees the match of the innermost one.
 *
 * <p><b>Threads.</b> Configure with {@link #addMapping} before starting; look-ups run on the
 * handling thread without locks. The invocation type is the combination of the children's.
 * Children are managed beans: they start and stop with this handler.
 */
public class PathMappingsHandler extends Handler.Abstract {

    /** The request attribute holding the {@link MatchedPath} of the spec that routed the request. */
    public static final String MATCHED_PATH = PathMappingsHandler.class.getName() + ".matchedPath";

    private final PathMappings<Handler> mappings = new PathMappings<>();

    public PathMappingsHandler() {
        super(InvocationType.NON_BLOCKING);
    }

    /**
     * Maps {@code pathSpec} to {@code handler}, replacing the handler of an equal spec (which
     * is then stopped when no other spec maps it).
     */
    public void addMapping(PathSpec pathSpec, Handler handler) {
        Objects.requireNonNull(pathSpec, "pathSpec");
        Objects.requireNonNull(handler, "handler");
        handler.setServer(getServer());
        Handler previous = mappings.put(pathSpec, handler);
        addBean(handler, true);
        if (previous != null && previous != handler && !children().contains(previous)) {
            removeBean(previous);
        }
    }

    /**
     * Reads {@code declaration} with {@link PathSpec#from(String)} and maps it to {@code handler}.
     *
     * @throws IllegalArgumentException naming the problem when the declaration is not a valid spec
     */
    public void addMapping(String declaration, Handler handler) {
        addMapping(PathSpec.from(declaration), handler);
    }

    /** @return the mappings, best ranked first */
    public List<PathMappings.Mapping<Handler>> getMappings() {
        List<PathMappings.Mapping<Handler>> result = new ArrayList<>();
        mappings.forEach(result::add);
        return result;
    }

    /** @return the match that routed {@code request} here, or null when no path-mapping handler did */
    public static MatchedPath getMatchedPath(Request request) {
        return request.getAttribute(MATCHED_PATH) instanceof MatchedPath matched ? matched : null;
    }

    /**
     * @return the template variables or regex groups of the spec that routed {@code request},
     *     by name (and regex groups also by number); empty when there are none
     */
    public static Map<String, String> getParameters(Request request) {
        MatchedPath matched = getMatchedPath(request);
        return matched == null ? Map.of() : matched.getParameters();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = request.getPathInContext();
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return false;
        }
        MatchedResource<Handler> matched;
        try {
            matched = mappings.getMatched(path);
        } catch (BadMessageException x) {
            // A regex spec ran out of its step budget on a hostile path.
            Response.writeError(request, response, callback, x.getStatus(), x.getReason());
            return true;
        }
        if (matched == null) {
            return false;
        }
        request.setAttribute(MATCHED_PATH, matched.matchedPath());
        return matched.resource().handle(request, response, callback);
    }

    @Override
    public InvocationType invocationType() {
        InvocationType type = InvocationType.NON_BLOCKING;
        for (Handler child : children()) {
            type = type.combine(child.invocationType());
        }
        return type;
    }

    @Override
    protected List<Handler> children() {
        Map<Handler, Boolean> distinct = new IdentityHashMap<>();
        List<Handler> result = new ArrayList<>();
        for (PathMappings.Mapping<Handler> mapping : mappings) {
            if (distinct.put(mapping.resource(), Boolean.TRUE) == null) {
                result.add(mapping.resource());
            }
        }
        return result;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode()) + mappings;
    }
}
