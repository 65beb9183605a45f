package io.wharf.http2.session;

/**
 * The stream identifiers of one HTTP/2 connection and the limits on its streams (RFC 9113
 * sections 5.1, 5.1.1 and 5.1.2): who may open which identifier (a client the odd ones, a
 * server the even ones), the last each side opened (identifiers only go up; every idle one
 * below a newly opened one is closed), how many streams each side has open against its limit
 * (ours, SETTINGS_MAX_CONCURRENT_STREAMS, bounds the peer; the peer's bounds our pushes), and
 * the streams that closed lately, so that a frame on one is told from a frame on an idle one.
 * It takes an event and returns the decision: an identifier (0 when none may be had), a
 * boolean, or an {@link Opening}. No I/O; nothing allocated per stream.
 *
 * <p>Not thread-safe: the session calls it with its lock held.
 */
final class StreamIds {

    /** How many closed streams are remembered. */
    static final int RECENTLY_CLOSED = 128;

    /** What a header block on a stream the session does not hold is (RFC 9113 sections 5.1 and 5.1.1). */
    enum Opening {
        /** A stream the peer opens now: its identifier is the peer's newest. */
        NEW,
        /** In flight on a stream we reset: ignored (RFC 9113 section 5.1). */
        IGNORED,
        /** On a stream that is closed: connection error STREAM_CLOSED. */
        CLOSED,
        /** An identifier of ours that we never opened: not the peer's to open, PROTOCOL_ERROR. */
        NOT_PEERS,
        /** A peer's identifier not above the last it opened, and not one we know closed: PROTOCOL_ERROR. */
        NOT_ABOVE_LAST
    }

    private final boolean server;
    private final int maxConcurrent;
    private final ClosedStreams recentlyClosed = new ClosedStreams(RECENTLY_CLOSED);
    private long peerMaxConcurrent = Long.MAX_VALUE;
    /** The last stream we opened; the next is 2 above (odd for a client, even for a server). */
    private int lastLocal;
    private int lastRemote;
    /** Streams we opened (a client's requests, a server's pushes) still under way. */
    private int localOpen;
    private int remoteOpen;

    /**
     * @param server whether we are the server (we open even identifiers, the peer odd ones)
     * @param maxConcurrent our SETTINGS_MAX_CONCURRENT_STREAMS: the streams the peer may have open
     */
    StreamIds(boolean server, int maxConcurrent) {
        this(server, maxConcurrent, server ? 0 : -1);
    }

    /** @param lastLocal the stream of ours opened last (tests start near the end of the identifiers) */
    StreamIds(boolean server, int maxConcurrent, int lastLocal) {
        this.server = server;
        this.maxConcurrent = maxConcurrent;
        this.lastLocal = lastLocal;
    }

    /** @return whether the peer opens streams with identifier {@code id} */
    boolean isRemote(int id) {
        return (id & 1) == (server ? 1 : 0);
    }

    /** @return whether stream {@code id} was never opened yet (by whichever side opens that parity) */
    boolean isIdle(int id) {
        return isRemote(id) ? id > lastRemote : id > lastLocal;
    }

    /** @return the last stream the peer opened (or we know it may have), as a GOAWAY names it */
    int lastRemote() {
        return lastRemote;
    }

    /**
     * A header block arrived on stream {@code id}, which the session does not hold.
     * @return what it is; on {@link Opening#NEW} the identifier is now the peer's last
     */
    Opening onHeaders(int id) {
        if (!isRemote(id)) {
            if (isIdle(id)) {
                return Opening.NOT_PEERS;
            }
            return recentlyClosed.resetByUs(id) ? Opening.IGNORED : Opening.CLOSED;
        }
        if (id <= lastRemote) {
            if (recentlyClosed.resetByUs(id)) {
                return Opening.IGNORED;
            }
            return recentlyClosed.contains(id) ? Opening.CLOSED : Opening.NOT_ABOVE_LAST;
        }
        lastRemote = id;
        return Opening.NEW;
    }

    /** @return whether {@code id} is one the peer may open now: of its parity, above the last it opened */
    boolean isNewRemote(int id) {
        return isRemote(id) && id > lastRemote;
    }

    /**
     * The peer used {@code id} (a promise, a stream it opened that we refused): every idle
     * identifier of its parity up to it is closed. Below its last one, nothing changes.
     */
    void remoteUsed(int id) {
        if (isNewRemote(id)) {
            lastRemote = id;
        }
    }

    /** @return whether the peer has as many streams open as we allow, so a new one is refused */
    boolean remoteAtLimit() {
        return remoteOpen >= maxConcurrent;
    }

    /** A stream the peer opened (or promised) is now held. */
    void remoteOpened() {
        remoteOpen++;
    }

    /** The peer's SETTINGS_MAX_CONCURRENT_STREAMS: the streams we may have open. */
    void peerLimit(long max) {
        peerMaxConcurrent = max;
    }

    /** Opens a stream of ours (a client's request). @return its identifier, 0 when none is left */
    int openLocal() {
        if (lastLocal > Integer.MAX_VALUE - 2) {
            return 0;
        }
        lastLocal += 2;
        localOpen++;
        return lastLocal;
    }

    /**
     * Reserves a stream for a push (a server's). @return its identifier, 0 when as many of ours
     * are open as the peer (and at most our own limit) allows, or none is left
     */
    int openPush() {
        if (localOpen >= Math.min(peerMaxConcurrent, maxConcurrent)) {
            return 0;
        }
        return openLocal();
    }

    /**
     * A server's stream 1 taken over from an HTTP/1.1 upgrade (RFC 7540 section 3.2), opened by the peer.
     * @throws IllegalStateException when the peer opened a stream already
     */
    void upgraded() {
        if (lastRemote != 0) {
            throw new IllegalStateException("streams were opened already");
        }
        lastRemote = 1;
        remoteOpen++;
    }

    /** Stream {@code id}, held until now, closed: it no longer counts against its side's limit. */
    void closed(int id) {
        if (isRemote(id)) {
            remoteOpen--;
        } else {
            localOpen--;
        }
        recentlyClosed.add(id, false);
    }

    /** We reset stream {@code id} (held or not): the peer's frames in flight on it are ignored. */
    void resetByUs(int id) {
        recentlyClosed.add(id, true);
    }

    /** @return whether we reset stream {@code id} lately: the peer's frames on it are then ignored */
    boolean wasResetByUs(int id) {
        return recentlyClosed.resetByUs(id);
    }

    @Override
    public String toString() {
        return "StreamIds{local " + lastLocal + " (" + localOpen + " open), remote " + lastRemote + " (" + remoteOpen + " open)}";
    }
}
