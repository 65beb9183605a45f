package io.wharf.servlet.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;

import io.wharf.http.HttpStatus;
import io.wharf.util.thread.Scheduler;

/**
 * The asynchronous cycles of one exchange and its {@link AsyncContext} (Servlet 6.1 section
 * 2.3.3.3). A cycle starts with {@code startAsync} inside a dispatch and ends with
 * {@code complete}, {@code dispatch} or the timeout. What the application asks while a
 * dispatch is still running is recorded and acted on when the dispatch returns; what it asks
 * afterwards is acted on at once (complete) or on the pool (dispatch). The state is data under
 * one lock: whether a dispatch runs, whether a cycle is started, what was asked.
 *
 * <p><b>Threads.</b> Any thread: the dispatching one, the application's, the scheduler's
 * (the timeout runs on the pool). The lock is never held while application code runs.
 */
final class AsyncState implements AsyncContext {

    /** What the application asked of the current cycle. */
    private enum Asked { NOTHING, COMPLETE, DISPATCH }

    /** The default timeout, as Jetty and Tomcat have it. */
    static final long DEFAULT_TIMEOUT_MILLIS = 30_000;

    private final ServletExchange exchange;
    private final Object lock = new Object();
    private final List<Registered> listeners = new ArrayList<>();
    private boolean dispatching = true;
    private boolean started;
    /** Whether the dispatch that started the current cycle is still running. */
    private boolean startingDispatchRuns;
    private Asked asked = Asked.NOTHING;
    private boolean ended;
    private ServletExchange.Dispatch dispatchAsked;
    private ServletRequest request;
    private ServletResponse response;
    private boolean original;
    private long timeoutMillis = DEFAULT_TIMEOUT_MILLIS;
    private Scheduler.Task timeout;

    /** A listener with the request and response it was added with. */
    private record Registered(AsyncListener listener, ServletRequest request, ServletResponse response) {
    }

    AsyncState(ServletExchange exchange) {
        this.exchange = exchange;
    }

    /** A new cycle, from {@code startAsync} in a dispatch. */
    void start(ServletRequest asyncRequest, ServletResponse asyncResponse, boolean originalObjects) {
        List<Registered> restarted;
        synchronized (lock) {
            if (!dispatching) {
                throw new IllegalStateException("startAsync outside a dispatch of this request");
            }
            if (started && asked == Asked.NOTHING) {
                throw new IllegalStateException("startAsync called twice in one dispatch");
            }
            if (ended) {
                throw new IllegalStateException("startAsync: the request is already complete");
            }
            started = true;
            startingDispatchRuns = true;
            asked = Asked.NOTHING;
            request = asyncRequest;
            response = asyncResponse;
            original = originalObjects;
            restarted = new ArrayList<>(listeners);
            listeners.clear();
        }
        for (Registered registered : restarted) {
            AsyncEvent event = new AsyncEvent(this, registered.request(), registered.response());
            call(() -> registered.listener().onStartAsync(event));
        }
    }

    /** @return whether a cycle is started and neither completed nor dispatched yet */
    boolean isStarted() {
        synchronized (lock) {
            return started && asked == Asked.NOTHING;
        }
    }

    /**
     * @return what {@code isAsyncStarted} answers: whether a cycle is started and neither
     *     completed nor dispatched yet, or started by the dispatch still running, whatever was
     *     asked of it since. Like Jetty and Tomcat, a complete or dispatch asked by another thread
     *     takes the request out of asynchronous mode only once that dispatch returns: frameworks
     *     (Spring MVC) ask right after starting a cycle that another thread may already have ended.
     */
    boolean isInAsyncMode() {
        synchronized (lock) {
            return started && (asked == Asked.NOTHING || startingDispatchRuns);
        }
    }

    /**
     * The dispatch that ran returned: decides what follows.
     *
     * @return the next dispatch to run on this thread, or null when the exchange ended or waits
     */
    ServletExchange.Dispatch dispatchReturned() {
        boolean finish = false;
        ServletExchange.Dispatch next = null;
        synchronized (lock) {
            dispatching = false;
            startingDispatchRuns = false;
            if (!started || asked == Asked.COMPLETE) {
                finish = true;
            } else if (asked == Asked.DISPATCH) {
                next = takeDispatch();
            } else if (timeout == null) {
                timeout = timeoutMillis > 0 ? exchange.schedule(this::onTimeout, timeoutMillis) : null;
            }
        }
        if (finish) {
            cancelTimeout();
            exchange.finish();
        }
        return next;
    }

    /** Under the lock: the dispatch asked for becomes the running one, the cycle ends. */
    private ServletExchange.Dispatch takeDispatch() {
        ServletExchange.Dispatch next = dispatchAsked;
        dispatchAsked = null;
        started = false;
        asked = Asked.NOTHING;
        dispatching = true;
        cancelTimeoutLocked();
        return next;
    }

    @Override
    public void complete() {
        synchronized (lock) {
            if (ended || asked == Asked.COMPLETE) {
                return;
            }
            if (!started) {
                throw new IllegalStateException("complete: the request is not in asynchronous mode");
            }
            asked = Asked.COMPLETE;
            if (dispatching) {
                return;
            }
            dispatching = true;
        }
        cancelTimeout();
        exchange.finish();
    }

    @Override
    public void dispatch() {
        dispatchTo(exchange.context(), null);
    }

    @Override
    public void dispatch(String path) {
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("dispatch: the path must start with '/': " + path);
        }
        dispatchTo(exchange.context(), path);
    }

    @Override
    public void dispatch(ServletContext context, String path) {
        if (!(context instanceof ServletApiContext target)) {
            throw new IllegalArgumentException("dispatch: " + context + " is not a context of this server");
        }
        if (path == null || !path.startsWith("/")) {
            throw new IllegalArgumentException("dispatch: the path must start with '/': " + path);
        }
        dispatchTo(target, path);
    }

    private void dispatchTo(ServletApiContext target, String path) {
        ServletExchange.Dispatch next;
        synchronized (lock) {
            if (!started || asked != Asked.NOTHING || ended) {
                throw new IllegalStateException("dispatch: the request is not in asynchronous mode, or complete or dispatch "
                    + "was already called in this cycle");
            }
            asked = Asked.DISPATCH;
            dispatchAsked = exchange.asyncDispatch(target, path, request, response);
            if (dispatching) {
                return;
            }
            next = takeDispatch();
        }
        exchange.execute(() -> exchange.dispatch(next));
    }

    /** The timeout: listeners hear {@code onTimeout}; if none completed or dispatched, a 500 error page ends the exchange. */
    private void onTimeout() {
        List<Registered> current;
        synchronized (lock) {
            timeout = null;
            if (!started || asked != Asked.NOTHING || dispatching || ended) {
                return;
            }
            dispatching = true;
            current = new ArrayList<>(listeners);
        }
        for (Registered registered : current) {
            AsyncEvent event = new AsyncEvent(this, registered.request(), registered.response());
            call(() -> registered.listener().onTimeout(event));
        }
        boolean unhandled;
        synchronized (lock) {
            unhandled = started && asked == Asked.NOTHING;
            if (unhandled) {
                asked = Asked.COMPLETE;
            }
        }
        if (unhandled) {
            exchange.failAsync(HttpStatus.INTERNAL_SERVER_ERROR_500, null);
        }
        exchange.dispatch(dispatchReturned());
    }

    /** A dispatch of a started cycle threw: listeners hear {@code onError}. */
    void onError(Throwable failure) {
        List<Registered> current;
        synchronized (lock) {
            current = new ArrayList<>(listeners);
        }
        for (Registered registered : current) {
            AsyncEvent event = new AsyncEvent(this, registered.request(), registered.response(), failure);
            call(() -> registered.listener().onError(event));
        }
    }

    /** The exchange ended: listeners hear {@code onComplete}, once. */
    void onComplete() {
        List<Registered> current;
        synchronized (lock) {
            if (ended) {
                return;
            }
            ended = true;
            current = new ArrayList<>(listeners);
            cancelTimeoutLocked();
        }
        for (Registered registered : current) {
            AsyncEvent event = new AsyncEvent(this, registered.request(), registered.response());
            call(() -> registered.listener().onComplete(event));
        }
    }

    private void cancelTimeout() {
        synchronized (lock) {
            cancelTimeoutLocked();
        }
    }

    private void cancelTimeoutLocked() {
        Scheduler.Task task = timeout;
        if (task != null) {
            timeout = null;
            task.cancel();
        }
    }

    /** Listener code that may throw. */
    @FunctionalInterface
    private interface ListenerCall {
        void call() throws IOException;
    }

    private void call(ListenerCall call) {
        try {
            exchange.runInContext(call::call);
        } catch (Exception x) {
            exchange.context().log("asynchronous listener failed", x);
        }
    }

    // ---- AsyncContext ------------------------------------------------------------------------

    @Override
    public ServletRequest getRequest() {
        synchronized (lock) {
            if (request == null || ended) {
                throw new IllegalStateException("getRequest: the asynchronous cycle is over");
            }
            return request;
        }
    }

    @Override
    public ServletResponse getResponse() {
        synchronized (lock) {
            if (response == null || ended) {
                throw new IllegalStateException("getResponse: the asynchronous cycle is over");
            }
            return response;
        }
    }

    @Override
    public boolean hasOriginalRequestAndResponse() {
        synchronized (lock) {
            return original;
        }
    }

    @Override
    public void start(Runnable task) {
        exchange.execute(task);
    }

    @Override
    public void addListener(AsyncListener listener) {
        addListener(listener, request, response);
    }

    @Override
    public void addListener(AsyncListener listener, ServletRequest listenerRequest, ServletResponse listenerResponse) {
        synchronized (lock) {
            if (!dispatching && started || ended) {
                throw new IllegalStateException("addListener: only during the dispatch that started the cycle");
            }
            listeners.add(new Registered(listener, listenerRequest, listenerResponse));
        }
    }

    @Override
    public <T extends AsyncListener> T createListener(Class<T> type) throws ServletException {
        try {
            return exchange.context().instantiate(type);
        } catch (ReflectiveOperationException x) {
            throw new ServletException("cannot make async listener " + type.getName() + ": " + x, x);
        }
    }

    @Override
    public void setTimeout(long millis) {
        synchronized (lock) {
            if (!dispatching) {
                throw new IllegalStateException("setTimeout: only during the dispatch that started the cycle");
            }
            timeoutMillis = millis;
        }
    }

    @Override
    public long getTimeout() {
        synchronized (lock) {
            return timeoutMillis;
        }
    }
}
