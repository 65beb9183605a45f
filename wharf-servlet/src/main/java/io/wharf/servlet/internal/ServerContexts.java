package io.wharf.servlet.internal;

import java.util.ArrayList;
import java.util.List;

import io.wharf.server.Handler;
import io.wharf.server.Server;
import io.wharf.server.handler.context.ContextHandler;
import io.wharf.server.handler.context.ContextHandlerCollection;

/**
 * The servlet contexts of a server, found by walking its handler tree: wrappers, sequences,
 * context collections and core contexts whose child is a servlet context's handler. For
 * {@code ServletContext.getContext} (cross-context dispatch, section 4.7). Stateless; the walk
 * reads the tree as it is when asked.
 */
final class ServerContexts {

    private ServerContexts() {
    }

    /** @return the started servlet context whose path is the longest prefix of {@code uripath}, or null */
    static ServletApiContext contextFor(Server server, String uripath) {
        if (server == null) {
            return null;
        }
        ServletApiContext best = null;
        for (ServletApiContext context : all(server.getHandler(), new ArrayList<>())) {
            String path = context.getContextPath();
            boolean matches = path.isEmpty() || uripath.equals(path) || uripath.startsWith(path + "/");
            if (matches && context.isStarted() && (best == null || path.length() > best.getContextPath().length())) {
                best = context;
            }
        }
        return best;
    }

    private static List<ServletApiContext> all(Handler handler, List<ServletApiContext> found) {
        switch (handler) {
            case null -> {
            }
            case ServletHandler servlets -> found.add(servlets.context());
            case ContextHandler context -> all(context.getHandler(), found);
            case ContextHandlerCollection collection -> collection.getHandlers().forEach(child -> all(child, found));
            case Handler.Sequence sequence -> sequence.getHandlers().forEach(child -> all(child, found));
            case Handler.Wrapper wrapper -> all(wrapper.getHandler(), found);
            case io.wharf.servlet.ServletContextHandler servletContext -> all(servletContext.getContextHandler(), found);
            default -> {
            }
        }
        return found;
    }
}
