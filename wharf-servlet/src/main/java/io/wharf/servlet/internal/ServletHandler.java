package io.wharf.servlet.internal;

import java.io.IOException;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.MappingMatch;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;

/**
 * The core handler under a servlet context's {@code ContextHandler}: maps each request's path
 * in the context to its servlet and runs a {@link ServletExchange} for it. A path that no
 * pattern maps goes to a container servlet that answers 404 through the context's error pages,
 * as a context without a default servlet must (Servlet 6.1 section 12.2). BLOCKING: servlets
 * block, so the server runs it on a virtual thread.
 */
public final class ServletHandler extends Handler.Abstract {

    private final ServletApiContext context;
    private final ServletEntry notFound;

    public ServletHandler(ServletApiContext context) {
        this.context = context;
        this.notFound = new ServletEntry(context, "wharf.notFound", null, null, new NotFound());
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getPathInContext();
        ServletMatch<ServletEntry> match = context.match(path);
        if (match == null) {
            match = new ServletMatch<>(notFound, MappingMatch.DEFAULT, "/", path, null, "");
        }
        new ServletExchange(context, request, response, callback, path, match).handle();
        return true;
    }

    /** Answers 404: the servlet of paths no pattern maps. */
    private static final class NotFound extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.sendError(HttpServletResponse.SC_NOT_FOUND);
        }
    }
}
