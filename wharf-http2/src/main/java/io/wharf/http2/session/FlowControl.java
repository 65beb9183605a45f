package io.wharf.http2.session;

/**
 * The flow control of one HTTP/2 connection (RFC 9113 section 6.9): the connection's
 * {@link FlowWindow} and the rules for it and every stream's. Each method takes an event (DATA
 * received, content consumed, WINDOW_UPDATE received, a new initial window, DATA about to go)
 * and returns the decision as a primitive: whether the window holds, the increment of the
 * WINDOW_UPDATE to send (0 for none), the octets that may be sent. It does no I/O and allocates
 * nothing per frame; the session sends what it decides.
 *
 * <pre>
 *  receiving  DATA ──receive──▶ window - length            (below 0: FLOW_CONTROL_ERROR)
 *             consumed ──credit──▶ unacknowledged + n ──strategy──▶ WINDOW_UPDATE n, window + n
 *  sending    WINDOW_UPDATE ──grant──▶ window + n           (past 2^31 - 1: FLOW_CONTROL_ERROR)
 *             SETTINGS_INITIAL_WINDOW_SIZE ──shift──▶ each stream's window + delta (same check)
 *             DATA ──sendable, sent──▶ both windows - length
 * </pre>
 *
 * <p>Not thread-safe: the session calls it with its lock held, from the reading thread
 * (receiving, grants), the application's (consuming) and the flusher's (sending).
 */
final class FlowControl {

    /** The initial window of RFC 9113 section 6.9.2, for the connection and for streams until SETTINGS change it. */
    static final int DEFAULT_WINDOW = 65_535;
    /** The largest window RFC 9113 section 6.9.1 allows: 2^31 - 1. */
    static final long MAX_WINDOW = Integer.MAX_VALUE;

    private final FlowControlStrategy strategy;
    private final int sessionWindow;
    private final int streamWindow;
    private final FlowWindow connection;

    /**
     * @param sessionWindow the connection's receive window we announce (at least the default)
     * @param streamWindow our SETTINGS_INITIAL_WINDOW_SIZE
     */
    FlowControl(FlowControlStrategy strategy, int sessionWindow, int streamWindow) {
        this.strategy = strategy;
        this.sessionWindow = sessionWindow;
        this.streamWindow = streamWindow;
        this.connection = new FlowWindow(DEFAULT_WINDOW, sessionWindow);
    }

    /** @return the increment of the connection's first WINDOW_UPDATE, which takes its window from the default to ours; 0 for none */
    int initialConnectionIncrement() {
        return Math.max(0, sessionWindow - DEFAULT_WINDOW);
    }

    /**
     * @param acknowledged whether the peer acknowledged our SETTINGS: until then it may count on
     *     the default window, so a smaller one of ours is not enforced yet (RFC 9113 section 6.9.3)
     * @return the receive window a new stream starts with (its send window is the peer's
     *     SETTINGS_INITIAL_WINDOW_SIZE)
     */
    int streamReceiveWindow(boolean acknowledged) {
        return acknowledged ? streamWindow : Math.max(streamWindow, DEFAULT_WINDOW);
    }

    /**
     * The peer acknowledged our SETTINGS: it applied our initial window to every stream it knew
     * (RFC 9113 section 6.9.2). @return by how much each stream open now shrinks, 0 for none
     */
    int shrinkOnAcknowledgement() {
        return Math.max(0, DEFAULT_WINDOW - streamWindow);
    }

    /** Takes {@code octets} from a stream's receive window, as its peer did on acknowledging our SETTINGS. */
    void shrink(FlowWindow stream, int octets) {
        stream.receive -= octets;
    }

    // ---- receiving ----

    /** DATA of {@code length} octets, padding included, arrived. @return whether the connection's window held it */
    boolean receive(int length) {
        connection.receive -= length;
        return connection.receive >= 0;
    }

    /** DATA of {@code length} octets, padding included, arrived on a stream. @return whether its window held it */
    boolean receive(FlowWindow stream, int length) {
        stream.receive -= length;
        return stream.receive >= 0;
    }

    /**
     * The connection's share of octets no reader will take (padding, content dropped or refused)
     * or that a reader consumed. @return the increment of the connection's WINDOW_UPDATE to send, 0 for none
     */
    int credit(int octets) {
        connection.unacknowledged += octets;
        if (!strategy.shouldUpdate(sessionWindow, connection.unacknowledged)) {
            return 0;
        }
        int increment = connection.unacknowledged;
        connection.unacknowledged = 0;
        connection.receive += increment;
        return increment;
    }

    /**
     * A stream's share of consumed octets (the connection's is {@link #credit(int)}).
     *
     * @param open whether the peer may still send on the stream: a closed one is credited no more
     * @return the increment of the stream's WINDOW_UPDATE to send, 0 for none
     */
    int credit(FlowWindow stream, int octets, boolean open) {
        stream.unacknowledged += octets;
        if (!open || !strategy.shouldUpdate(streamWindow, stream.unacknowledged)) {
            return 0;
        }
        int increment = stream.unacknowledged;
        stream.unacknowledged = 0;
        stream.receive += increment;
        return increment;
    }

    /**
     * The padding of a DATA frame a stream keeps: the stream credits it with its next update,
     * the connection now if the strategy says. @return the connection's increment, 0 for none
     */
    int padding(FlowWindow stream, int padding) {
        stream.unacknowledged += padding;
        return credit(padding);
    }

    // ---- sending ----

    /** The peer's WINDOW_UPDATE of the connection. @return false when it takes the window past 2^31 - 1 */
    boolean grant(int increment) {
        return grant(connection, increment);
    }

    /** The peer's WINDOW_UPDATE of a stream. @return false when it takes the window past 2^31 - 1 */
    boolean grant(FlowWindow stream, int increment) {
        stream.send += increment;
        return stream.send <= MAX_WINDOW;
    }

    /**
     * The peer's SETTINGS_INITIAL_WINDOW_SIZE changed by {@code delta}, which applies to every
     * open stream's send window (RFC 9113 section 6.9.2), possibly making it negative.
     * @return false when it takes this stream's window past 2^31 - 1
     */
    boolean shift(FlowWindow stream, long delta) {
        stream.send += delta;
        return stream.send <= MAX_WINDOW;
    }

    /** @return how many of {@code wanted} octets of DATA may go on the stream now, within both windows; 0 or less for none */
    int sendable(FlowWindow stream, int wanted) {
        return (int) Math.min(wanted, Math.min(stream.send, connection.send));
    }

    /** {@code octets} of DATA were generated on the stream: both windows shrink. */
    void sent(FlowWindow stream, int octets) {
        stream.send -= octets;
        connection.send -= octets;
    }

    /** @return the connection's windows; for tests and dumps */
    FlowWindow connection() {
        return connection;
    }
}
