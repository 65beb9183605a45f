package io.wharf.http2.session;

/**
 * The two flow-control windows of one stream, or of the connection (RFC 9113 section 6.9):
 * what we may still send, what the peer may still send us, and what the reader consumed that
 * we have not credited back yet. Plain data: only {@link FlowControl} changes it, with the
 * session's lock held. A stream is its own window ({@link Http2Stream} extends this class), which
 * saves an object, 24 bytes, per stream.
 */
class FlowWindow {

    /** Octets of DATA we may send; negative after the peer shrank its initial window, above 2^31 - 1 only in error. */
    long send;
    /** Octets of DATA the peer may send; below 0 only in error. */
    int receive;
    /** Octets consumed by the reader and not yet credited to the peer. */
    int unacknowledged;

    FlowWindow(long send, int receive) {
        this.send = send;
        this.receive = receive;
    }

    @Override
    public String toString() {
        return "send=" + send + ", receive=" + receive;
    }
}
