package io.wharf.http2.session;

import java.io.IOException;

import io.wharf.http2.frames.ErrorCode;

/**
 * The peer reset a stream (RST_STREAM) with {@link #getError()}: what the stream's pending
 * sends and reads fail with, and what {@link Http2Stream.Listener#onReset} is told. A reset with
 * NO_ERROR after a complete response is a server asking the client to stop sending its request
 * (RFC 9113 section 8.1), not a failure of the response. Immutable.
 */
public final class StreamResetException extends IOException {

    private static final long serialVersionUID = 1L;

    private final ErrorCode error;

    public StreamResetException(String message, ErrorCode error) {
        super(message);
        this.error = error;
    }

    /** @return the code of the peer's RST_STREAM; CANCEL for a code this side does not know */
    public ErrorCode getError() {
        return error;
    }
}
