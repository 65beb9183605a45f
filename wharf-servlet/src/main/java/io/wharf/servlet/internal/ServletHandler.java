package io.wharf.servlet.internal;

import java.nio.file.Files;
import java.nio.file.Path;

import jakarta.servlet.ServletContext;

import io.wharf.http.HttpStatus;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;

/**
 * The core handler under a servlet context's {@code ContextHandler}: maps each request's path
 * in the context to its servlet and runs a {@link ServletExchange} for it. Every path maps to
 * some servlet, since the context maps the {@code DefaultServlet} to {@code /} when the
 * application does not (Servlet 6.1 section 12.2); a request under {@code /WEB-INF} or
 * {@code /META-INF} is 404 whatever maps it (section 10.5, {@link ProtectedPaths}). BLOCKING: servlets block, so the server runs
 * it on its pool (an idle pool thread, else a virtual thread), never on a selector thread. Its start and stop are the servlet context's, so the core context it
 * sits in starts and stops the servlet context wherever that core context is.
 */
public final class ServletHandler extends Handler.Abstract {

    private final ServletApiContext context;
    /** The temporary directory this handler made because none was set; deleted when it stops. */
    private Path madeTemp;

    public ServletHandler(ServletApiContext context) {
        this.context = context;
    }

    /** @return the servlet context it serves */
    ServletApiContext context() {
        return context;
    }

    /** Starts the servlet context (its initializers, listeners, filters and servlets); 503 until done. */
    @Override
    protected void doStart() throws Exception {
        context.getContextHandler().setAvailable(false);
        super.doStart();
        Path temp = context.getContextHandler().getTempDirectory();
        if (temp == null) {
            // Section 4.8.1: every context has a private temporary directory; this one lives as long as the start.
            madeTemp = Files.createTempDirectory("wharf-servlet-");
            temp = madeTemp;
        }
        context.setTempDirectory(temp);
        context.setAttribute(ServletContext.TEMPDIR, temp.toFile());
        context.runInContext(context::start);
        context.getContextHandler().setAvailable(true);
    }

    @Override
    protected void doStop() throws Exception {
        context.getContextHandler().setAvailable(false);
        try {
            context.runInContext(context::stop);
        } finally {
            super.doStop();
            deleteMadeTemp();
        }
    }

    private void deleteMadeTemp() {
        Path made = madeTemp;
        madeTemp = null;
        if (made == null) {
            return;
        }
        context.removeAttribute(ServletContext.TEMPDIR);
        try (java.util.stream.Stream<Path> files = Files.walk(made)) {
            for (Path file : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (java.io.IOException x) {
            context.log("could not delete the temporary directory " + made, x);
        }
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getPathInContext();
        if (ProtectedPaths.isProtected(path)) {
            // Whatever servlet maps it (a JSP page under WEB-INF by *.jsp), a client never gets it.
            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404, null);
            return true;
        }
        ServletMatch<ServletEntry> match = context.match(path);
        if (match == null) {
            return false;
        }
        new ServletExchange(context, request, response, callback, path, match).handle();
        return true;
    }
}
