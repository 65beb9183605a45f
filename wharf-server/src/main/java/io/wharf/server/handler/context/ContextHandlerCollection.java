package io.wharf.server.handler.context;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * A handler holding many {@link ContextHandler}s that gives each request to the context with
 * the longest context path under which the request's path lies; among contexts of the same
 * path, those restricted to virtual hosts are asked before those that are not, each group in
 * the order added. When a context passes (its virtual hosts do not match, or its child
 * returns false), the next candidate is asked, then contexts of shorter paths; when none
 * takes the request this handler returns false.
 *
 * <p><b>Cost.</b> Contexts are indexed by context path, with the distinct path lengths kept
 * sorted: a look-up tries only the lengths at which the request path has a {@code /} (or
 * ends), longest first, with one hash look-up each. Two hundred contexts cost no more than a
 * few.
 *
 * <p><b>Threads.</b> Contexts may be added and removed at any time; each change publishes a
 * new immutable index that look-ups, on any number of threads, read without locks. Contexts
 * are managed beans: they start and stop with this handler. The invocation type is the
 * combination of the contexts'.
 */
public class ContextHandlerCollection extends Handler.Abstract {

    /** Contexts by context path (as requests report it, {@code ""} for the root), and the path lengths, longest first. */
    private record Index(Map<String, List<ContextHandler>> byPath, int[] lengthsLongestFirst) {
        static final Index EMPTY = new Index(Map.of(), new int[0]);
    }

    private final List<ContextHandler> contexts = new CopyOnWriteArrayList<>();
    private volatile Index index = Index.EMPTY;

    public ContextHandlerCollection(ContextHandler... contexts) {
        super(InvocationType.NON_BLOCKING);
        for (ContextHandler context : contexts) {
            addHandler(context);
        }
    }

    /** Adds a context; while running it is started at once. */
    public void addHandler(ContextHandler context) {
        context.setServer(getServer());
        contexts.add(context);
        addBean(context, true);
        reindex();
    }

    /** Removes a context; while running it is stopped. */
    public void removeHandler(ContextHandler context) {
        if (contexts.remove(context)) {
            reindex();
            removeBean(context);
        }
    }

    /** @return the contexts, in the order added */
    public List<ContextHandler> getHandlers() {
        return List.copyOf(contexts);
    }

    /**
     * Rebuilds the index from the contexts' current paths and virtual hosts. Called on every
     * add and remove; call it after changing the path or virtual hosts of a context already added.
     */
    public synchronized void reindex() {
        Map<String, List<ContextHandler>> byPath = new HashMap<>();
        for (ContextHandler context : contexts) {
            byPath.computeIfAbsent(context.contextPathInRequest(), path -> new ArrayList<>()).add(context);
        }
        TreeSet<Integer> lengths = new TreeSet<>();
        Map<String, List<ContextHandler>> frozen = new HashMap<>();
        for (Map.Entry<String, List<ContextHandler>> entry : byPath.entrySet()) {
            List<ContextHandler> ordered = new ArrayList<>();
            for (ContextHandler context : entry.getValue()) {
                if (context.hasVirtualHosts()) {
                    ordered.add(context);
                }
            }
            for (ContextHandler context : entry.getValue()) {
                if (!context.hasVirtualHosts()) {
                    ordered.add(context);
                }
            }
            frozen.put(entry.getKey(), List.copyOf(ordered));
            lengths.add(entry.getKey().length());
        }
        int[] longestFirst = lengths.descendingSet().stream().mapToInt(Integer::intValue).toArray();
        index = new Index(Map.copyOf(frozen), longestFirst);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String path = request.getPathInContext();
        if (path == null || path.isEmpty() || path.charAt(0) != '/') {
            return false;
        }
        Index current = index;
        for (int length : current.lengthsLongestFirst()) {
            if (length > path.length() || length < path.length() && path.charAt(length) != '/') {
                continue;
            }
            List<ContextHandler> candidates = current.byPath().get(path.substring(0, length));
            if (candidates == null) {
                continue;
            }
            for (ContextHandler context : candidates) {
                if (context.handle(request, response, callback)) {
                    return true;
                }
            }
        }
        return false;
    }

    @Override
    public InvocationType invocationType() {
        InvocationType type = InvocationType.NON_BLOCKING;
        for (ContextHandler context : contexts) {
            type = type.combine(context.invocationType());
        }
        return type;
    }

    @Override
    protected List<Handler> children() {
        return new ArrayList<>(contexts);
    }
}
