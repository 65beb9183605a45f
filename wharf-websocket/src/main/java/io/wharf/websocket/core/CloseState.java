package io.wharf.websocket.core;

/**
 * Where a session's close handshake is (RFC 6455 section 7). Held in one atomic reference by
 * {@link WebSocketConnection}; every transition is one compare-and-set.
 *
 * <pre>
 * OPEN ──local close──► LOCAL_CLOSE_QUEUED ──written──► LOCAL_CLOSE_WRITTEN ──peer's close──► CLOSED (endpoint closes)
 *   │                         └──peer's close──► LOCAL_CLOSE_ANSWERED ──written──► CLOSED
 *   ├──peer's close──► REMOTE_CLOSE_RECEIVED ──our echo written──► CLOSED
 *   └──protocol error, limit──► FAILING ──our close written──► CLOSED
 * any ──endpoint closed──► CLOSED
 * </pre>
 */
enum CloseState {
    /** Frames flow both ways. */
    OPEN,
    /** We queued a close frame; the peer's has not arrived. */
    LOCAL_CLOSE_QUEUED,
    /** Our close frame is written; waiting for the peer's, bounded by the close timeout. */
    LOCAL_CLOSE_WRITTEN,
    /** Both close frames crossed; ours is still being written. */
    LOCAL_CLOSE_ANSWERED,
    /** The peer closed first; our echo is queued. */
    REMOTE_CLOSE_RECEIVED,
    /** We fail the session: our close frame is queued, the endpoint closes once it is written. */
    FAILING,
    /** The endpoint is closed or closing; nothing more is sent. */
    CLOSED;

    /** @return whether application frames may still be sent */
    boolean canSend() {
        return this == OPEN;
    }
}
