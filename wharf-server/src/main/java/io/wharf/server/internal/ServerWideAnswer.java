package io.wharf.server.internal;

import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;

/**
 * What the server answers to a request no handler took: a 404 page from the server's error
 * handler, but for a target that names no path ({@link Request#getPathInContext()} is
 * {@code ""}):
 * <ul>
 * <li>{@code OPTIONS *} asks about the server as a whole (RFC 9110 section 9.3.7): 200 with
 *     {@code Allow} naming the methods the server answers in general, and no content;</li>
 * <li>{@code CONNECT host:port} asks for a tunnel (RFC 9110 section 9.3.6), which an origin
 *     server does not make: 405 Method Not Allowed, with the same {@code Allow} (RFC 9110
 *     section 15.5.6 requires one) and an error page.</li>
 * </ul>
 * Called by {@code Server.handle} and {@code DefaultHandler} on the thread that handles the
 * request; stateless, one small write.
 */
public final class ServerWideAnswer {

    /** The methods the server answers in general, as {@code Allow} lists them. */
    public static final String ALLOW = "GET, HEAD, POST, PUT, DELETE, OPTIONS";

    private ServerWideAnswer() {
    }

    /** Answers {@code request}, which no handler took. */
    public static void answer(Request request, Response response, Callback callback) {
        if (!request.getPathInContext().isEmpty()) {
            Response.writeError(request, response, callback, HttpStatus.NOT_FOUND_404, null);
            return;
        }
        if (response.isCommitted()) {
            callback.failed(new IllegalStateException("committed before the answer to " + request.getMethod() + " without a path"));
            return;
        }
        response.reset();
        response.getHeaders().put(HttpHeader.ALLOW, ALLOW);
        if (HttpMethod.OPTIONS.is(request.getMethod())) {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
            response.write(true, null, callback);
            return;
        }
        response.setStatus(HttpStatus.METHOD_NOT_ALLOWED_405);
        String message = HttpMethod.CONNECT.is(request.getMethod())
                ? "this server makes no tunnels: CONNECT is not allowed"
                : request.getMethod() + " names no path";
        request.getConnectionMetaData().getConnector().getServer().getErrorHandler()
                .writeError(request, response, callback, HttpStatus.METHOD_NOT_ALLOWED_405, message, null);
    }
}
