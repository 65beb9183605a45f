package io.wharf.client;

/**
 * How an exchange ended: its request and response, and the failure of each side, if any.
 * Given once to {@link Response.Listener#onComplete(Result)}; immutable.
 *
 * @param request the request
 * @param requestFailure why the request could not be sent completely, or null
 * @param response the response (possibly without a status when nothing was received)
 * @param responseFailure why the response could not be received completely, or null
 */
public record Result(Request request, Throwable requestFailure, Response response, Throwable responseFailure) {

    /** @return whether both sides succeeded */
    public boolean isSucceeded() {
        return requestFailure == null && responseFailure == null;
    }

    /** @return whether either side failed */
    public boolean isFailed() {
        return !isSucceeded();
    }

    /** @return the request's failure, else the response's, else null */
    public Throwable getFailure() {
        return requestFailure != null ? requestFailure : responseFailure;
    }
}
