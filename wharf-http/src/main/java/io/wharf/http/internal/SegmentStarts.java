package io.wharf.http.internal;

import java.util.Arrays;

/**
 * A stack of the offsets where each kept path segment starts in an output builder, so that a
 * {@code ".."} segment can cut the output back to its parent in constant time (RFC 3986
 * section 5.2.4). Grows with the number of segments, which the path's length bounds.
 *
 * <p>One instance serves one canonicalisation on one thread.
 */
public final class SegmentStarts {

    private int[] starts = new int[8];
    private int depth;

    /** Remembers that a kept segment starts at {@code offset}. */
    public void push(int offset) {
        if (depth == starts.length) {
            starts = Arrays.copyOf(starts, depth * 2);
        }
        starts[depth++] = offset;
    }

    /** @return whether no segment is kept, so a {@code ".."} would climb above the root */
    public boolean isEmpty() {
        return depth == 0;
    }

    /** @return the start offset of the last kept segment, forgetting it */
    public int pop() {
        if (depth == 0) {
            throw new IllegalStateException("no segment to remove");
        }
        return starts[--depth];
    }
}
