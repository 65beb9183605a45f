package io.wharf.servlet;

import java.io.IOException;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.servlet.internal.ServletApiRequest;
import io.wharf.servlet.internal.ServletApiResponse;
import io.wharf.util.Callback;

/**
 * Lets a servlet hand its request to a core {@link Handler} — the core {@code ResourceHandler}
 * for static files, a WebSocket upgrade handler — which then answers on the core request and
 * response directly, while the servlet's thread waits for it. The servlet response is left
 * alone from then on; a protocol switch the core handler accepts happens when the exchange
 * ends. Only for a response no filter wrapped (a wrapper could not see the bytes): {@link
 * #canHandOff} tells. The request may be a wrapper — a forward's, say: the core handler reads
 * the client's request under it, with the path the servlet gives.
 *
 * <p><b>Threads.</b> Called on the servlet's (virtual) thread, which blocks until the core
 * handler completes its callback.
 */
public final class CoreHandoff {

    /** The attribute of the core request that holds the servlet request it was handed off from. */
    public static final String SERVLET_REQUEST = "io.wharf.servlet.request";

    private CoreHandoff() {
    }

    /** @return the servlet request a core request was handed off from (see {@link #SERVLET_REQUEST}), or null */
    public static HttpServletRequest servletRequestOf(Request core) {
        return core.getAttribute(SERVLET_REQUEST) instanceof HttpServletRequest request ? request : null;
    }

    /** @return whether {@code response} is the container's own, unwrapped, over a container request: a core handler can take them */
    public static boolean canHandOff(HttpServletRequest request, HttpServletResponse response) {
        return ServletApiRequest.unwrap(request) != null && ServletApiResponse.unwrap(response) == response;
    }

    /**
     * Runs {@code handler} on the core request under {@code request}, with {@code pathInContext}
     * as the path it sees, and waits for it to complete.
     *
     * @return whether the handler took the request; when not, the servlet response is the
     *     servlet's again and untouched
     * @throws IllegalArgumentException when {@link #canHandOff} is false
     * @throws IOException when the handler failed
     */
    public static boolean handle(HttpServletRequest request, HttpServletResponse response, Handler handler, String pathInContext)
            throws IOException {
        if (!canHandOff(request, response)) {
            throw new IllegalArgumentException("a core handler can take only the container's own response, not a wrapper");
        }
        ServletApiRequest servletRequest = ServletApiRequest.unwrap(request);
        ServletApiResponse servletResponse = (ServletApiResponse) response;
        Request core = new Request.Wrapper(servletRequest.core()) {
            @Override
            public String getPathInContext() {
                return pathInContext;
            }

            @Override
            public Object getAttribute(String name) {
                return SERVLET_REQUEST.equals(name) ? request : super.getAttribute(name);
            }
        };
        Callback.Completable done = new Callback.Completable();
        servletResponse.handOverToCore();
        boolean handled;
        try {
            handled = handler.handle(core, servletResponse.core(), done);
        } catch (Exception x) {
            servletResponse.takeBackFromCore();
            throw new IOException(handler + " failed on " + pathInContext + ": " + x.getMessage(), x);
        }
        if (!handled) {
            servletResponse.takeBackFromCore();
            return false;
        }
        done.await(handler + " handling " + pathInContext);
        return true;
    }
}
