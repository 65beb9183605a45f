package io.wharf.http2.session;

/**
 * Decides when a receiver gives credit back to its peer with WINDOW_UPDATE, for the
 * connection's window and each stream's (RFC 9113 section 6.9). The session counts the bytes
 * the application consumed since the last update; the strategy says whether to send it now.
 *
 * <p>Called by the session with its lock held, from any thread that consumes content: it must
 * be quick, thread-safe and keep no state of its own (the session keeps the counts).
 */
@FunctionalInterface
public interface FlowControlStrategy {

    /**
     * @param window the window's size as we announced it (the initial window)
     * @param consumed bytes consumed since the last WINDOW_UPDATE for this window, above 0
     * @return whether to send a WINDOW_UPDATE of {@code consumed} now
     */
    boolean shouldUpdate(int window, int consumed);

    /**
     * Updates once at least {@code ratio} of the window was consumed: 0.5 (the default) sends
     * one update per half window, fewer frames than per read while keeping the sender busy.
     *
     * @param ratio in (0, 1]
     */
    static FlowControlStrategy threshold(double ratio) {
        if (!(ratio > 0 && ratio <= 1)) {
            throw new IllegalArgumentException("ratio must be in (0, 1]: " + ratio);
        }
        return (window, consumed) -> consumed >= window * ratio;
    }

    /** Updates after every consumption: most frames, smallest stalls. */
    FlowControlStrategy EVERY_READ = (window, consumed) -> true;
}
