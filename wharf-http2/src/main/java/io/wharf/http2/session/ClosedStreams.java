package io.wharf.http2.session;

/**
 * The streams of a session that closed lately, and which of them we reset: RFC 9113 section 5.1
 * has frames on a closed stream be errors (STREAM_CLOSED), except after we sent RST_STREAM, when
 * the peer's frames in flight are ignored. Remembers the last {@code capacity} closes; older
 * streams count as closed by the peer.
 *
 * <p>A ring of stream ids, so that remembering a close allocates nothing and scans nothing (a
 * close per request); the lookups, which only frames on closed streams need, scan it. Guarded by
 * the session's lock.
 */
final class ClosedStreams {

    private final int[] ids;
    private final boolean[] resets;
    private int next;
    private int size;

    ClosedStreams(int capacity) {
        this.ids = new int[capacity];
        this.resets = new boolean[capacity];
    }

    /**
     * Records that stream {@code id} closed; {@code resetByUs} once set stays set. A stream is
     * recorded when it closes, and once more right after when we reset it: only the newest
     * entry is looked at, so that recording a close costs no scan.
     */
    void add(int id, boolean resetByUs) {
        int newest = next == 0 ? ids.length - 1 : next - 1;
        if (size > 0 && ids[newest] == id) {
            resets[newest] |= resetByUs;
            return;
        }
        ids[next] = id;
        resets[next] = resetByUs;
        next = next + 1 == ids.length ? 0 : next + 1;
        if (size < ids.length) {
            size++;
        }
    }

    /** @return whether stream {@code id} closed lately */
    boolean contains(int id) {
        return indexOf(id) >= 0;
    }

    /** @return whether we reset stream {@code id} lately: the peer's frames on it are then ignored */
    boolean resetByUs(int id) {
        int at = indexOf(id);
        return at >= 0 && resets[at];
    }

    /** @return where {@code id} is in the ring, newest first (its newest entry), or -1 */
    private int indexOf(int id) {
        int at = next;
        for (int i = 0; i < size; i++) {
            at = at == 0 ? ids.length - 1 : at - 1;
            if (ids[at] == id) {
                return at;
            }
        }
        return -1;
    }
}
