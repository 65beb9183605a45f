package io.wharf.webapp.internal;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * A wrapper that counts the requests its child took until their callbacks complete and, when
 * stopped, lets them finish before it stops the child. The core stops a context at once (a
 * {@link io.wharf.server.handler.context.ContextHandlerCollection} stops the context it removes),
 * so {@link io.wharf.webapp.WebApplication} puts one between its servlet context's core
 * {@code ContextHandler} and the servlet handler below it: an undeploy or redeploy then waits for
 * the requests under way.
 *
 * <p><b>Stopping.</b> {@link #doStop()} first passes new requests on (returns false, so the
 * collection asks the context that replaced this one, or none), then waits for those under way up
 * to the drain timeout, then stops the child. Requests arrive on server threads and complete on
 * any; stopping runs on the deploying thread, which it blocks while it waits.
 */
public final class DrainingHandler extends Handler.Wrapper {

    private final Duration drainTimeout;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final Object drained = new Object();
    private volatile boolean closed;

    /**
     * @param child the handler whose requests are counted (the servlet handler)
     * @param drainTimeout how long stopping waits for requests under way
     */
    public DrainingHandler(Handler child, Duration drainTimeout) {
        super(child);
        this.drainTimeout = drainTimeout;
    }

    /**
     * Takes no more requests: from now on they are passed on, as when stopping. The deployer calls
     * it on the old version as soon as the new one is in the collection, so that new requests go
     * to the new one at once rather than once the old one begins to stop.
     */
    public void refuseNewRequests() {
        closed = true;
    }

    /** @return the requests taken whose callbacks have not completed */
    public int inFlight() {
        return inFlight.get();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler child = getHandler();
        if (closed || child == null) {
            return false;
        }
        inFlight.incrementAndGet();
        boolean taken;
        try {
            taken = child.handle(request, response,
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
            System.getLogger(DrainingHandler.class.getName()).log(System.Logger.Level.WARNING,
                "stopping {0} with {1} request(s) still under way after {2}", getHandler(), inFlight.get(), drainTimeout);
        }
        super.doStop();
    }

    @Override
    public String toString() {
        return "DrainingHandler{inFlight=" + inFlight.get() + ", " + getHandler() + "}";
    }
}
