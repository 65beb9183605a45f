package io.wharf.webapp.internal;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.handler.context.ContextHandler;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * Puts a {@link ServletContextHandler} into a core
 * {@link io.wharf.server.handler.context.ContextHandlerCollection}, which holds
 * {@link ContextHandler}s, and lets it stop gracefully on its own. {@link #contextHandler()} is
 * a context at the servlet context's path whose child is this handler; this handler gives the
 * servlet context the request as it was before that outer context (the servlet context matches
 * its path again and sets its class loader itself), and counts the requests it took until their
 * callbacks complete.
 *
 * <p><b>Stopping.</b> {@link #doStop()} first refuses new requests (they are passed on, to the
 * context that replaced this one or to none), then waits for those under way, up to the drain
 * timeout, then stops the servlet context. The core stops a single context at once, so this is
 * where an undeploy or redeploy lets in-flight requests finish. Requests arrive on server threads;
 * stopping runs on the deploying thread.
 */
public final class ServletContextMount extends Handler.Abstract {

    private final ServletContextHandler servletContext;
    private final ContextHandler contextHandler;
    private final Duration drainTimeout;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object drained = new Object();
    private volatile boolean closed;

    /**
     * @param servletContext the servlet context to mount
     * @param drainTimeout how long stopping waits for requests under way
     */
    public ServletContextMount(ServletContextHandler servletContext, Duration drainTimeout) {
        super(InvocationType.BLOCKING);
        this.servletContext = servletContext;
        this.drainTimeout = drainTimeout;
        this.contextHandler = new ContextHandler(servletContext.getContextPath(), this);
        addBean(servletContext, true);
    }

    /** @return the context to add to a collection: at the servlet context's path, around this handler */
    public ContextHandler contextHandler() {
        return contextHandler;
    }

    /** @return the requests taken whose callbacks have not completed */
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (closed) {
            return false;
        }
        Request beforeContext = request instanceof Request.Wrapper wrapper ? wrapper.getWrapped() : request;
        inFlight.incrementAndGet();
        boolean taken;
        try {
            taken = servletContext.handle(beforeContext, response,
                Callback.combine(callback, Callback.from(InvocationType.NON_BLOCKING, this::finished, failure -> finished())));
        } catch (Throwable x) {
            finished();
            throw x;
        }
        if (!taken) {
            finished();
        }
        return taken;
    }

    private void finished() {
        if (inFlight.decrementAndGet() == 0 && closed) {
            synchronized (drained) {
                drained.notifyAll();
            }
        }
    }

    @Override
    protected void doStart() throws Exception {
        closed = false;
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        closed = true;
        long deadline = System.nanoTime() + drainTimeout.toNanos();
        synchronized (drained) {
            for (long left = drainTimeout.toNanos(); inFlight.get() > 0 && left > 0; left = deadline - System.nanoTime()) {
                TimeUnit.NANOSECONDS.timedWait(drained, left);
            }
        }
        if (inFlight.get() > 0) {
            System.getLogger(ServletContextMount.class.getName()).log(System.Logger.Level.WARNING,
                "{0}: stopping with {1} request(s) still under way after {2}", servletContext.getContextPath(), inFlight.get(), drainTimeout);
        }
        super.doStop();
    }

    @Override
    protected List<Handler> children() {
        return List.of(servletContext);
    }

    @Override
    public String toString() {
        return "ServletContextMount{" + servletContext.getContextPath() + ", inFlight=" + inFlight.get() + "}";
    }
}
