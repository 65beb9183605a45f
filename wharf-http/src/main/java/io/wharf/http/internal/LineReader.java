package io.wharf.http.internal;

import java.nio.ByteBuffer;

/**
 * Cuts the head and the trailer section of an HTTP/1 message into lines, within a byte
 * allowance the parser gives for each. A line wholly inside the caller's buffer is handed
 * back in place (no copy); a line split between reads is gathered in a {@link PendingLine}
 * and handed back from there. Either way every byte given is consumed, and a line longer than
 * its allowance is refused as soon as that many bytes have come, without waiting for its end.
 *
 * <p>Owned by one parser, used on its thread. After {@link Outcome#LINE} the line lies at
 * absolute indexes {@code [start(), lineFeed()]} of {@link #source()} until {@link #release()}.
 */
public final class LineReader {

    /** What {@link #read} found. */
    public enum Outcome {
        /** A complete line, its line feed included. */
        LINE,
        /** Every byte was taken into the pending line; more are needed. */
        NEED_MORE,
        /** The line is longer than its allowance; nothing was taken. */
        TOO_LONG
    }

    private final PendingLine pending = new PendingLine();
    private ByteBuffer source;
    private int start;
    private int lineFeed;
    private int taken;

    /** @return the number of bytes of a line begun in an earlier read */
    public int pendingLength() {
        return pending.length();
    }

    /**
     * Reads from the buffer's position to the end of the current line, moving the position.
     *
     * @param allowance how many more bytes the current line may take, its line feed included
     */
    public Outcome read(ByteBuffer buffer, int allowance) {
        int position = buffer.position();
        int limit = buffer.limit();
        int scanEnd = (int) Math.min(limit, (long) position + allowance);
        int feed = position;
        while (feed < scanEnd && buffer.get(feed) != '\n') {
            feed++;
        }
        if (feed == scanEnd) {
            if (limit - position >= allowance) {
                taken = 0;
                return Outcome.TOO_LONG;
            }
            pending.append(buffer, position, limit);
            taken = limit - position;
            buffer.position(limit);
            return Outcome.NEED_MORE;
        }
        taken = feed + 1 - position;
        buffer.position(feed + 1);
        if (pending.isEmpty()) {
            source = buffer;
            start = position;
            lineFeed = feed;
        } else {
            pending.append(buffer, position, feed + 1);
            source = pending.buffer();
            start = 0;
            lineFeed = pending.length() - 1;
        }
        return Outcome.LINE;
    }

    /** @return the number of bytes the last {@link #read} consumed */
    public int taken() {
        return taken;
    }

    /** @return the buffer holding the line: the caller's, or the pending line's */
    public ByteBuffer source() {
        return source;
    }

    /** @return the absolute index of the line's first byte in {@link #source()} */
    public int start() {
        return start;
    }

    /** @return the absolute index of the line's line feed in {@link #source()} */
    public int lineFeed() {
        return lineFeed;
    }

    /** Lets go of the last line (and of the caller's buffer). */
    public void release() {
        source = null;
        pending.clear();
    }
}
