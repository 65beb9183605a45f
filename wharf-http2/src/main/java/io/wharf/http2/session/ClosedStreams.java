package io.wharf.http2.session;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The streams of a session that closed lately, and which of them we reset: RFC 9113 section 5.1
 * has frames on a closed stream be errors (STREAM_CLOSED), except after we sent RST_STREAM, when
 * the peer's frames in flight are ignored. Remembers the last {@code capacity} closes; older
 * streams count as closed by the peer.
 *
 * <p>Guarded by the session's lock.
 */
final class ClosedStreams {

    private final int capacity;
    /** Stream id to whether we reset it, oldest first. */
    private final Map<Integer, Boolean> closed = new LinkedHashMap<>();

    ClosedStreams(int capacity) {
        this.capacity = capacity;
    }

    /** Records that stream {@code id} closed; {@code resetByUs} once set stays set. */
    void add(int id, boolean resetByUs) {
        closed.merge(id, resetByUs, Boolean::logicalOr);
        if (closed.size() > capacity) {
            closed.remove(closed.keySet().iterator().next());
        }
    }

    /** @return whether stream {@code id} closed lately */
    boolean contains(int id) {
        return closed.containsKey(id);
    }

    /** @return whether we reset stream {@code id} lately: the peer's frames on it are then ignored */
    boolean resetByUs(int id) {
        return closed.getOrDefault(id, false);
    }
}
