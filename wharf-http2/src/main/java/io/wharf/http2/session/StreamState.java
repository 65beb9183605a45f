package io.wharf.http2.session;

/**
 * Where an HTTP/2 stream is in its life (RFC 9113 section 5.1). A pushed stream starts reserved
 * by its PUSH_PROMISE: on the server (which sent it) it goes half closed (remote) with the
 * response's HEADERS; on a client that accepts pushes it goes half closed (local) when they arrive:
 *
 * <pre>
 *            send/recv HEADERS
 *   IDLE ─────────────────────► OPEN
 *                                │ recv END_STREAM ──► HALF_CLOSED_REMOTE ─┐ send END_STREAM
 *                                │ send END_STREAM ──► HALF_CLOSED_LOCAL ──┤ recv END_STREAM
 *                                └──────────── RST_STREAM (either way) ────┴──► CLOSED
 *
 *            send PUSH_PROMISE                send HEADERS
 *   IDLE ─────────────────────► RESERVED_LOCAL ────────────► HALF_CLOSED_REMOTE
 *
 *            recv PUSH_PROMISE                 recv HEADERS
 *   IDLE ─────────────────────► RESERVED_REMOTE ───────────► HALF_CLOSED_LOCAL
 * </pre>
 *
 * <p>Immutable; a stream holds its current state under its session's lock.
 */
public enum StreamState {
    /** Not opened yet. */
    IDLE,
    /** Promised by our PUSH_PROMISE; we may send its response's HEADERS, the peer sends nothing but RST_STREAM. */
    RESERVED_LOCAL,
    /** Promised by the peer's PUSH_PROMISE; the peer may send the response's HEADERS, we send nothing but RST_STREAM. */
    RESERVED_REMOTE,
    /** Both sides may send. */
    OPEN,
    /** We sent END_STREAM; the peer may still send. */
    HALF_CLOSED_LOCAL,
    /** The peer sent END_STREAM; we may still send. */
    HALF_CLOSED_REMOTE,
    /** Both sides ended, or one reset the stream. */
    CLOSED;

    /** @return the state after END_STREAM arrived from the peer */
    public StreamState remoteEnded() {
        return switch (this) {
            case IDLE, OPEN -> HALF_CLOSED_REMOTE;
            case RESERVED_LOCAL, RESERVED_REMOTE, HALF_CLOSED_LOCAL, HALF_CLOSED_REMOTE, CLOSED -> CLOSED;
        };
    }

    /** @return the state after the peer's final header block arrived: a stream it promised is then half closed (local) */
    public StreamState headersReceived() {
        return this == RESERVED_REMOTE ? HALF_CLOSED_LOCAL : this;
    }

    /** @return the state after we sent a header block without END_STREAM: a reserved stream is then half closed (remote) */
    public StreamState headersSent() {
        return this == RESERVED_LOCAL ? HALF_CLOSED_REMOTE : this;
    }

    /** @return the state after we sent END_STREAM */
    public StreamState localEnded() {
        return switch (this) {
            case IDLE, OPEN -> HALF_CLOSED_LOCAL;
            case RESERVED_LOCAL, RESERVED_REMOTE, HALF_CLOSED_LOCAL, HALF_CLOSED_REMOTE, CLOSED -> CLOSED;
        };
    }

    /** @return whether the peer may still send DATA or trailers */
    public boolean canReceive() {
        return this == OPEN || this == HALF_CLOSED_LOCAL;
    }

    /** @return whether we may still send HEADERS or DATA */
    public boolean canSend() {
        return this == OPEN || this == HALF_CLOSED_REMOTE || this == RESERVED_LOCAL;
    }
}
