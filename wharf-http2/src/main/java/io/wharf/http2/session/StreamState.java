package io.wharf.http2.session;

/**
 * Where an HTTP/2 stream is in its life (RFC 9113 section 5.1), without server push, so
 * without the reserved states:
 *
 * <pre>
 *            send/recv HEADERS
 *   IDLE ─────────────────────► OPEN
 *                                │ recv END_STREAM ──► HALF_CLOSED_REMOTE ─┐ send END_STREAM
 *                                │ send END_STREAM ──► HALF_CLOSED_LOCAL ──┤ recv END_STREAM
 *                                └──────────── RST_STREAM (either way) ────┴──► CLOSED
 * </pre>
 *
 * <p>Immutable; a stream holds its current state under its session's lock.
 */
public enum StreamState {
    /** Not opened yet. */
    IDLE,
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
            case HALF_CLOSED_LOCAL, HALF_CLOSED_REMOTE, CLOSED -> CLOSED;
        };
    }

    /** @return the state after we sent END_STREAM */
    public StreamState localEnded() {
        return switch (this) {
            case IDLE, OPEN -> HALF_CLOSED_LOCAL;
            case HALF_CLOSED_LOCAL, HALF_CLOSED_REMOTE, CLOSED -> CLOSED;
        };
    }

    /** @return whether the peer may still send DATA or trailers */
    public boolean canReceive() {
        return this == OPEN || this == HALF_CLOSED_LOCAL;
    }

    /** @return whether we may still send HEADERS or DATA */
    public boolean canSend() {
        return this == OPEN || this == HALF_CLOSED_REMOTE;
    }
}
