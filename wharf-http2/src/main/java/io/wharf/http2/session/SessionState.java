package io.wharf.http2.session;

/**
 * Where an HTTP/2 connection is in its life, as its {@link Http2Session} sees it:
 *
 * <pre>
 *   OPEN ──GOAWAY NO_ERROR sent or received──► DRAINING ──last stream closed──► CLOSED
 *     └──────── connection error: GOAWAY sent ──► FAILING ──written──────────────┘
 * </pre>
 *
 * <p>In DRAINING no new stream is accepted beyond the GOAWAY's last stream id, and the streams
 * under way finish; in FAILING nothing more is read or sent but the GOAWAY.
 */
public enum SessionState {
    /** Streams come and go. */
    OPEN,
    /** A graceful GOAWAY was sent or received: the streams under way finish, then the connection closes. */
    DRAINING,
    /** A connection error: the GOAWAY is being written, then the connection closes. */
    FAILING,
    /** The connection is closed. */
    CLOSED
}
