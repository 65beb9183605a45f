package io.wharf.server.handler.context;

import java.util.HashSet;
import java.util.Set;

import io.wharf.server.Request;
import io.wharf.util.Invocable;

/**
 * The request a {@link ContextHandler}'s child sees: the context path and the path below it,
 * request attributes falling back to the context's, and demand callbacks run with the
 * context's class loader. Used by one thread at a time, like the request it wraps.
 */
final class ContextRequest extends Request.Wrapper {

    private final ContextHandler.Context context;
    private final String contextPath;
    private final String pathInContext;

    ContextRequest(Request wrapped, ContextHandler.Context context, String contextPath, String pathInContext) {
        super(wrapped);
        this.context = context;
        this.contextPath = contextPath;
        this.pathInContext = pathInContext;
    }

    ContextHandler.Context getContext() {
        return context;
    }

    @Override
    public String getContextPath() {
        return contextPath;
    }

    @Override
    public String getPathInContext() {
        return pathInContext;
    }

    @Override
    public Object getAttribute(String name) {
        Object value = super.getAttribute(name);
        return value != null ? value : context.getAttribute(name);
    }

    @Override
    public Set<String> getAttributeNames() {
        Set<String> contextNames = context.getAttributeNames();
        if (contextNames.isEmpty()) {
            return super.getAttributeNames();
        }
        Set<String> names = new HashSet<>(super.getAttributeNames());
        names.addAll(contextNames);
        return Set.copyOf(names);
    }

    @Override
    public void demand(Runnable onContentAvailable) {
        if (context.getClassLoader() == null) {
            super.demand(onContentAvailable);
            return;
        }
        super.demand(Invocable.task(Invocable.typeOf(onContentAvailable), () -> context.run(onContentAvailable)));
    }
}
