package io.wharf.servlet.internal;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.UnavailableException;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpStatus;
import io.wharf.http.form.FormLimits;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.util.Callback;
import io.wharf.util.thread.Scheduler;

/**
 * One request's trip through a servlet context: the servlet request and response made over the
 * core ones, the REQUEST dispatch, any asynchronous cycle ({@link AsyncState}) and its further
 * dispatches, the error page of an exception or {@code sendError} (Servlet 6.1 section 10.9),
 * and the end: content closed, request listeners told, the core callback completed once.
 *
 * <p><b>Threads.</b> The REQUEST dispatch runs on the handler's thread (a virtual thread: the
 * servlet context is a BLOCKING handler). An asynchronous exchange continues on whatever thread
 * completes or dispatches it, or on the server's pool ({@link #execute}); {@link AsyncState}
 * makes sure one thread at a time dispatches and that the end happens once.
 */
public final class ServletExchange {

    /** The limits of query strings and urlencoded forms. */
    static final FormLimits FORM_LIMITS = FormLimits.DEFAULT;

    private final ServletApiContext context;
    private final Request coreRequest;
    private final Response coreResponse;
    private final Callback callback;
    private final ServletApiRequest request;
    private final ServletApiResponse response;
    private final String pathInContext;
    private final AtomicBoolean finished = new AtomicBoolean();
    /** Held while a ReadListener or WriteListener callback runs: the container calls them one at a time. */
    private final java.util.concurrent.locks.ReentrantLock callbacks = new java.util.concurrent.locks.ReentrantLock();
    private AsyncState async;
    private RequestParts parts;
    private jakarta.servlet.http.HttpUpgradeHandler upgrade;

    /**
     * @param match the servlet the request's path maps to
     */
    public ServletExchange(ServletApiContext context, Request coreRequest, Response coreResponse, Callback callback,
                           String pathInContext, ServletMatch<ServletEntry> match) {
        this.context = context;
        this.coreRequest = coreRequest;
        this.coreResponse = coreResponse;
        this.callback = callback;
        this.pathInContext = pathInContext;
        this.request = new ServletApiRequest(this, coreRequest, match);
        this.response = new ServletApiResponse(this, coreResponse);
    }

    ServletApiContext context() {
        return context;
    }

    ServletApiRequest request() {
        return request;
    }

    ServletApiResponse response() {
        return response;
    }

    FormLimits formLimits() {
        return FORM_LIMITS;
    }

    /** @return the multipart config of the servlet the request maps to, or null */
    MultipartConfigElement multipartConfig() {
        return request.match().target().getMultipartConfig();
    }

    RequestParts parts() throws IOException, ServletException {
        if (parts == null) {
            parts = RequestParts.read(this, coreRequest, multipartConfig(), request.characterEncoding());
        }
        return parts;
    }

    // ---- the REQUEST dispatch -------------------------------------------------------------------

    /** Runs the REQUEST dispatch; the exchange ends when it returns, unless it went asynchronous. */
    public void handle() {
        if (context.listeners().has(ServletRequestListener.class)) {
            ServletRequestEvent event = new ServletRequestEvent(context, request);
            context.listeners().fire(ServletRequestListener.class, listener -> listener.requestInitialized(event));
        }
        ServletEntry servlet = request.match().target();
        ContextSecurity security = context.security();
        dispatch(() -> {
            jakarta.servlet.http.HttpServletRequest admitted = security == null ? request : security.admit(this, pathInContext);
            if (admitted != null) {
                ServletDispatcher.invoke(context, admitted, response, servlet, pathInContext, DispatcherType.REQUEST);
            }
        });
    }

    /** A dispatch's work: the filters and servlet it runs. */
    @FunctionalInterface
    interface Dispatch {
        void run() throws Exception;
    }

    /**
     * Runs dispatches, one after the other, until the exchange ends or waits for the application.
     * Each dispatch holds the callback lock, so a ReadListener or WriteListener set in it is first
     * called once it returned (section 5.3), never beside it.
     */
    void dispatch(Dispatch first) {
        Dispatch next = first;
        while (next != null) {
            callbacks.lock();
            try {
                next.run();
            } catch (Throwable x) {
                onDispatchFailure(x);
            } finally {
                callbacks.unlock();
            }
            AsyncState state = async;
            if (state == null) {
                finish();
                return;
            }
            next = state.dispatchReturned();
        }
    }

    private void onDispatchFailure(Throwable failure) {
        AsyncState state = async;
        if (state != null && state.isStarted()) {
            state.onError(failure);
            if (state.isStarted()) {
                // No listener completed or dispatched: the error page ends the exchange (section 2.3.3.3).
                state.complete();
            }
        }
        if (coreResponse.isCommitted()) {
            if (failure instanceof IOException) {
                // The client went away mid-response (a broken pipe): nothing to tell an operator.
                System.getLogger(ServletExchange.class.getName()).log(System.Logger.Level.DEBUG,
                    "the response to " + request + " failed after it was committed: " + failure);
            } else {
                context.log("exception after the response to " + request + " was committed", failure);
            }
            abort(failure);
            return;
        }
        int status = statusOf(failure);
        if (status >= 500 && !(failure instanceof UnavailableException)) {
            context.log("servlet failed on " + request, failure);
        }
        response.output().suspend();
        // An unavailable servlet is a status, not an exception, for the error page (section 2.3.3.2).
        writeErrorPage(status, null, failure instanceof UnavailableException ? null : failure);
    }

    private static int statusOf(Throwable failure) {
        Throwable current = failure;
        while (current != null) {
            if (current instanceof BadMessageException bad) {
                return bad.getStatus();
            }
            if (current instanceof UnavailableException unavailable) {
                return unavailable.isPermanent() ? HttpStatus.NOT_FOUND_404 : HttpStatus.SERVICE_UNAVAILABLE_503;
            }
            current = current instanceof ServletException servlet && servlet.getRootCause() != null ? servlet.getRootCause()
                : current.getCause();
        }
        return HttpStatus.INTERNAL_SERVER_ERROR_500;
    }

    // ---- errors (section 10.9) ------------------------------------------------------------------

    /**
     * Writes the error page for {@code status} (and {@code failure}, when an exception caused
     * it): the context's page through an ERROR dispatch, or else the server's error handler.
     * Leaves the response closed when it is done.
     */
    private void writeErrorPage(int status, String message, Throwable failure) {
        ErrorPages.Found found = failure == null ? null : context.errorPages().forException(failure);
        String location = found != null ? found.location() : context.errorPages().forStatus(status);
        Throwable described = found != null ? found.exception() : rootCause(failure);
        coreResponse.setStatus(status);
        if (location != null && dispatchErrorPage(location, status, message, described)) {
            return;
        }
        writeDefaultErrorPage(status, message);
    }

    private boolean dispatchErrorPage(String location, int status, String message, Throwable failure) {
        ServletDispatcher target = ServletDispatcher.byPath(context, location);
        ServletMatch<ServletEntry> match = target == null ? null : context.match(target.pathInContext());
        if (match == null) {
            context.log("error page " + location + " maps to no servlet; writing the default error page");
            return false;
        }
        Map<String, Object> attributes = new HashMap<>();
        attributes.put(RequestDispatcher.ERROR_STATUS_CODE, status);
        attributes.put(RequestDispatcher.ERROR_MESSAGE, message != null ? message : failure != null ? failure.getMessage() : null);
        attributes.put(RequestDispatcher.ERROR_EXCEPTION, failure);
        attributes.put(RequestDispatcher.ERROR_EXCEPTION_TYPE, failure == null ? null : failure.getClass());
        attributes.put(RequestDispatcher.ERROR_REQUEST_URI, request.getRequestURI());
        attributes.put(RequestDispatcher.ERROR_QUERY_STRING, request.getQueryString());
        attributes.put(RequestDispatcher.ERROR_METHOD, request.getMethod());
        attributes.put(RequestDispatcher.ERROR_SERVLET_NAME, request.match().target().getName());
        DispatchedRequest dispatched = new DispatchedRequest(request, DispatcherType.ERROR, context, match,
            context.getContextPath() + target.rawPath(), target.query(), attributes);
        clearContentHeaders();
        response.beginErrorPage();
        try {
            ServletDispatcher.invoke(context, dispatched, response, match.target(), target.pathInContext(), DispatcherType.ERROR);
            return true;
        } catch (Throwable x) {
            context.log("error page " + location + " failed", x);
            if (coreResponse.isCommitted()) {
                return true;
            }
            response.output().suspend();
            return false;
        }
    }

    private void clearContentHeaders() {
        HttpFields.Mutable headers = coreResponse.getHeaders();
        headers.remove(HttpHeader.CONTENT_TYPE);
        headers.remove(HttpHeader.CONTENT_LENGTH);
        headers.remove(HttpHeader.CONTENT_LANGUAGE);
    }

    /** @return the root cause of a {@link ServletException}, which the error attributes describe (section 10.9.2); else {@code failure} */
    private static Throwable rootCause(Throwable failure) {
        Throwable current = failure;
        while (current instanceof ServletException servlet && servlet.getRootCause() != null) {
            current = servlet.getRootCause();
        }
        return current;
    }

    /** The headers that describe the content a servlet meant to send, which an error page replaces. */
    private static final HttpHeader[] CONTENT_HEADERS = {HttpHeader.CONTENT_TYPE, HttpHeader.CONTENT_LENGTH,
        HttpHeader.CONTENT_ENCODING, HttpHeader.CONTENT_LANGUAGE, HttpHeader.CONTENT_RANGE, HttpHeader.CONTENT_LOCATION,
        HttpHeader.ETAG, HttpHeader.LAST_MODIFIED, HttpHeader.EXPIRES, HttpHeader.CACHE_CONTROL, HttpHeader.VARY,
        HttpHeader.TRANSFER_ENCODING};

    /**
     * The server's error page. The headers that describe content go; the others stay, as
     * {@code sendError} allows (section 10.9.2): cookies, and what goes with the status, like a
     * 401's {@code WWW-Authenticate} or a 405's {@code Allow}.
     */
    private void writeDefaultErrorPage(int status, String message) {
        HttpFields.Mutable headers = coreResponse.getHeaders();
        for (HttpHeader header : CONTENT_HEADERS) {
            headers.remove(header);
        }
        coreResponse.setStatus(status);
        response.beginErrorPage();
        response.output().suspend();
        Server server = coreRequest.getConnectionMetaData().getConnector().getServer();
        defaultErrorPageWritten = true;
        server.getErrorHandler().writeError(coreRequest, coreResponse, Callback.from(() -> end(null), this::end), status, message, null);
    }

    private boolean defaultErrorPageWritten;

    // ---- the end -----------------------------------------------------------------------------------

    /** The dispatch asked to give the connection to {@code handler} (section 2.3.3.5) when it ends. */
    void upgradeTo(jakarta.servlet.http.HttpUpgradeHandler handler) {
        this.upgrade = handler;
    }

    /**
     * Accepts the core's protocol switch with the response's headers, when the servlet upgraded
     * and left the status at 101: the server then writes the 101 and hands the endpoint over.
     *
     * @return whether the switch was accepted
     */
    private boolean acceptUpgrade() {
        jakarta.servlet.http.HttpUpgradeHandler handler = upgrade;
        io.wharf.server.ProtocolUpgrade offer = coreRequest.getProtocolUpgrade();
        if (handler == null || offer == null || coreResponse.getStatus() != HttpStatus.SWITCHING_PROTOCOLS_101
                || coreResponse.isCommitted()) {
            return false;
        }
        HttpFields.Mutable headers = coreResponse.getHeaders();
        String protocol = headers.get(HttpHeader.UPGRADE);
        if (protocol == null) {
            protocol = offer.getOfferedProtocols().isEmpty() ? null : offer.getOfferedProtocols().get(0);
        }
        HttpFields.Mutable fields = HttpFields.build();
        for (HttpField field : headers) {
            if (field.getHeader() != HttpHeader.UPGRADE && field.getHeader() != HttpHeader.CONNECTION) {
                fields.add(field);
            }
        }
        headers.clear();
        coreResponse.setStatus(HttpStatus.OK_200);
        Server server = coreRequest.getConnectionMetaData().getConnector().getServer();
        offer.accept(protocol, fields, endPoint -> new UpgradedConnection(endPoint, handler, context, server.getThreadPool()));
        return true;
    }

    /** Ends the exchange, once: an error page if {@code sendError} asked for one, the content closed, the callback completed. */
    void finish() {
        if (!finished.compareAndSet(false, true)) {
            return;
        }
        try {
            if (response.isErrorPending()) {
                writeErrorPage(coreResponse.getStatus(), response.errorMessage(), null);
            }
            if (defaultErrorPageWritten) {
                return;
            }
            if (acceptUpgrade()) {
                end(null);
                return;
            }
            response.closeOutput();
            end(null);
        } catch (Throwable x) {
            end(x);
        }
    }

    private void abort(Throwable failure) {
        if (finished.compareAndSet(false, true)) {
            end(failure);
        }
    }

    /** The last step: parts deleted, request listeners told, asynchronous listeners told, the core callback completed. */
    private void end(Throwable failure) {
        RequestParts current = parts;
        if (current != null) {
            current.close();
        }
        request.closeInput();
        AsyncState state = async;
        if (state != null) {
            state.onComplete();
        }
        if (context.listeners().has(ServletRequestListener.class)) {
            ServletRequestEvent event = new ServletRequestEvent(context, request);
            context.listeners().fireReversed(ServletRequestListener.class, listener -> listener.requestDestroyed(event));
        }
        if (failure == null) {
            callback.succeeded();
        } else {
            callback.failed(failure);
        }
    }

    // ---- async ----------------------------------------------------------------------------------

    AsyncContext startAsync(ServletRequest asyncRequest, ServletResponse asyncResponse) {
        if (finished.get() || response.output().isClosed()) {
            throw new IllegalStateException("startAsync: the response is already closed");
        }
        if (async == null) {
            async = new AsyncState(this);
        }
        async.start(asyncRequest, asyncResponse, asyncRequest == request && asyncResponse == response);
        return async;
    }

    boolean isAsyncStarted() {
        AsyncState state = async;
        return state != null && state.isInAsyncMode();
    }

    AsyncContext asyncContext() {
        AsyncState state = async;
        if (state == null || !state.isStarted()) {
            throw new IllegalStateException("getAsyncContext: the request is not in asynchronous mode");
        }
        return state;
    }

    /** An ASYNC dispatch to {@code path} in {@code target} (null: the request's own URI) of {@code asyncRequest}. */
    Dispatch asyncDispatch(ServletApiContext target, String path, ServletRequest asyncRequest, ServletResponse asyncResponse) {
        return () -> {
            jakarta.servlet.http.HttpServletRequest http = (jakarta.servlet.http.HttpServletRequest) asyncRequest;
            String pathAndQuery = path;
            if (pathAndQuery == null) {
                String uri = http.getRequestURI();
                String contextPath = http.getContextPath();
                pathAndQuery = uri.substring(Math.min(contextPath.length(), uri.length()));
                if (http.getQueryString() != null) {
                    pathAndQuery += "?" + http.getQueryString();
                }
            }
            ServletDispatcher dispatcher = ServletDispatcher.byPath(target, pathAndQuery);
            ServletMatch<ServletEntry> match = dispatcher == null ? null : target.match(dispatcher.pathInContext());
            if (match == null) {
                ((HttpServletResponse) asyncResponse).sendError(HttpServletResponse.SC_NOT_FOUND);
                return;
            }
            Map<String, Object> attributes = ServletDispatcher.originalPaths(request, AsyncContext.ASYNC_REQUEST_URI,
                AsyncContext.ASYNC_CONTEXT_PATH, AsyncContext.ASYNC_SERVLET_PATH, AsyncContext.ASYNC_PATH_INFO,
                AsyncContext.ASYNC_QUERY_STRING, AsyncContext.ASYNC_MAPPING);
            DispatchedRequest dispatched = new DispatchedRequest(http, DispatcherType.ASYNC, target, match,
                target.getContextPath() + dispatcher.rawPath(), dispatcher.query(), attributes);
            ServletDispatcher.invoke(target, dispatched, asyncResponse, match.target(), dispatcher.pathInContext(), DispatcherType.ASYNC);
        };
    }

    /** Ends an asynchronous exchange whose error no listener handled: the error page for {@code status}, then the end. */
    void failAsync(int status, Throwable failure) {
        if (!coreResponse.isCommitted()) {
            response.output().suspend();
            writeErrorPage(status, null, failure);
        }
    }

    /** Runs {@code task} on the server's pool with the context's class loader. */
    void execute(Runnable task) {
        Server server = coreRequest.getConnectionMetaData().getConnector().getServer();
        server.getThreadPool().execute(() -> {
            try {
                context.runInContext(task::run);
            } catch (Exception x) {
                context.log("asynchronous task failed", x);
            }
        });
    }

    /** @return a task scheduled after {@code millis} on the server's scheduler */
    Scheduler.Task schedule(Runnable task, long millis) {
        Server server = coreRequest.getConnectionMetaData().getConnector().getServer();
        return server.getScheduler().schedule(() -> execute(task), millis, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code action} with the context's class loader. */
    void runInContext(ServletApiContext.ContextAction action) throws Exception {
        context.runInContext(action);
    }

    /**
     * Runs a {@code ReadListener} or {@code WriteListener} callback with the context's class
     * loader, never at the same time as another callback of this exchange: a read and a write
     * callback may be due on two threads at once, and an application's listeners are written
     * for one thread at a time.
     */
    void runCallback(ServletApiContext.ContextAction action) throws Exception {
        callbacks.lock();
        try {
            context.runInContext(action);
        } finally {
            callbacks.unlock();
        }
    }
}
