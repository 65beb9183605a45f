package io.wharf.http;

/**
 * A message the parser, the URI code or a handler cannot accept, with the HTTP status that
 * answers it (400, 413, 414, 431, 501, 505...) and a reason that names the problem. The
 * reason is safe to send to the peer: it never echoes the peer's bytes unescaped.
 *
 * <p>Thrown and caught on the parsing thread; carries no buffers.
 */
public class BadMessageException extends RuntimeException {

    private final int status;

    /** A 400 Bad Request with {@code reason}. */
    public BadMessageException(String reason) {
        this(HttpStatus.BAD_REQUEST_400, reason);
    }

    public BadMessageException(int status, String reason) {
        this(status, reason, null);
    }

    public BadMessageException(int status, String reason, Throwable cause) {
        super(reason, cause);
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("not an error status: " + status);
        }
        this.status = status;
    }

    /**
     * @return the first BadMessageException in {@code failure}'s cause chain (a handler's
     *     stream may wrap it in an IOException), or null
     */
    public static BadMessageException find(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof BadMessageException bad) {
                return bad;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return null;
    }

    /** @return the status that answers the message: 4xx or 5xx */
    public int getStatus() {
        return status;
    }

    /** @return the reason, naming the problem; safe to show the peer */
    public String getReason() {
        return getMessage();
    }
}
