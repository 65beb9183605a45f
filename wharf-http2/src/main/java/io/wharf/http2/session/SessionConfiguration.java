package io.wharf.http2.session;

import java.time.Duration;
import java.util.Objects;

import io.wharf.http2.frames.FrameParser;

/**
 * The settings and bounds of HTTP/2 sessions: what we announce in our SETTINGS, our receive
 * windows and when to update them, and the budgets that bound what a peer may make us do.
 * One instance configures many sessions (a connection factory's); change it before they start.
 *
 * <p>Defaults: 128 concurrent streams, 1 MiB initial stream window and 4 MiB session window,
 * 16 KiB frames, 16 KiB header lists, 10 s for the SETTINGS acknowledgement, and per second at
 * most 128 resets (received right after HEADERS, or ones the peer made us send), 64 SETTINGS,
 * 64 PINGs, 128 empty DATA frames, 1,024 PRIORITY frames and 64 unknown frames; a server
 * announces SETTINGS_ENABLE_CONNECT_PROTOCOL (RFC 8441: WebSocket over HTTP/2).
 */
public final class SessionConfiguration {

    private int maxConcurrentStreams = 128;
    private int initialStreamWindow = 1024 * 1024;
    private int initialSessionWindow = 4 * 1024 * 1024;
    private int maxFrameSize = FrameParser.DEFAULT_MAX_FRAME_SIZE;
    private int maxHeaderListSize = 16 * 1024;
    private int maxHeaderTableSize = 4096;
    private Duration settingsTimeout = Duration.ofSeconds(10);
    private FlowControlStrategy flowControl = FlowControlStrategy.threshold(0.5);
    private int maxControlFrames = 1024;
    private int resetBudget = 128;
    private int settingsBudget = 64;
    private int pingBudget = 64;
    private int emptyDataBudget = 128;
    private int priorityBudget = 1024;
    private int unknownFrameBudget = 64;
    private boolean pushEnabled;
    private boolean connectProtocolEnabled = true;

    public boolean isPushEnabled() {
        return pushEnabled;
    }

    /**
     * For a client: whether it accepts pushes (SETTINGS_ENABLE_PUSH 1). Off by default: a client
     * that never takes them saves the server the work. Each pushed stream counts against
     * {@link #setMaxConcurrentStreams}. A server ignores this.
     */
    public SessionConfiguration setPushEnabled(boolean pushEnabled) {
        this.pushEnabled = pushEnabled;
        return this;
    }

    public int getMaxConcurrentStreams() {
        return maxConcurrentStreams;
    }

    /** The streams the peer may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS); more are refused. */
    public SessionConfiguration setMaxConcurrentStreams(int maxConcurrentStreams) {
        this.maxConcurrentStreams = positive(maxConcurrentStreams, "maxConcurrentStreams");
        return this;
    }

    public int getInitialStreamWindow() {
        return initialStreamWindow;
    }

    /** Our receive window for each stream (SETTINGS_INITIAL_WINDOW_SIZE), 1 to 2^31 - 1. */
    public SessionConfiguration setInitialStreamWindow(int initialStreamWindow) {
        this.initialStreamWindow = positive(initialStreamWindow, "initialStreamWindow");
        return this;
    }

    public int getInitialSessionWindow() {
        return initialSessionWindow;
    }

    /** Our receive window for the whole connection, at least 65,535 (raised by a WINDOW_UPDATE at start). */
    public SessionConfiguration setInitialSessionWindow(int initialSessionWindow) {
        if (initialSessionWindow < 65_535) {
            throw new IllegalArgumentException("initialSessionWindow must be at least 65535: " + initialSessionWindow);
        }
        this.initialSessionWindow = initialSessionWindow;
        return this;
    }

    public int getMaxFrameSize() {
        return maxFrameSize;
    }

    /** The largest frame payload we accept (SETTINGS_MAX_FRAME_SIZE), 16,384 to 16,777,215. */
    public SessionConfiguration setMaxFrameSize(int maxFrameSize) {
        if (maxFrameSize < FrameParser.DEFAULT_MAX_FRAME_SIZE || maxFrameSize > FrameParser.MAX_FRAME_SIZE_LIMIT) {
            throw new IllegalArgumentException("maxFrameSize must be 16384..16777215: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
        return this;
    }

    public int getMaxHeaderListSize() {
        return maxHeaderListSize;
    }

    /** The largest header list we accept (SETTINGS_MAX_HEADER_LIST_SIZE); a larger one is refused (431 or a reset). */
    public SessionConfiguration setMaxHeaderListSize(int maxHeaderListSize) {
        this.maxHeaderListSize = positive(maxHeaderListSize, "maxHeaderListSize");
        return this;
    }

    public int getMaxHeaderTableSize() {
        return maxHeaderTableSize;
    }

    /** The HPACK dynamic table our decoder allows (SETTINGS_HEADER_TABLE_SIZE). */
    public SessionConfiguration setMaxHeaderTableSize(int maxHeaderTableSize) {
        if (maxHeaderTableSize < 0) {
            throw new IllegalArgumentException("maxHeaderTableSize must not be negative: " + maxHeaderTableSize);
        }
        this.maxHeaderTableSize = maxHeaderTableSize;
        return this;
    }

    public Duration getSettingsTimeout() {
        return settingsTimeout;
    }

    /** How long the peer has to acknowledge our SETTINGS before the session fails with SETTINGS_TIMEOUT. */
    public SessionConfiguration setSettingsTimeout(Duration settingsTimeout) {
        this.settingsTimeout = Objects.requireNonNull(settingsTimeout, "settingsTimeout");
        return this;
    }

    public FlowControlStrategy getFlowControl() {
        return flowControl;
    }

    /** When consumed content is credited back to the peer with WINDOW_UPDATE. */
    public SessionConfiguration setFlowControl(FlowControlStrategy flowControl) {
        this.flowControl = Objects.requireNonNull(flowControl, "flowControl");
        return this;
    }

    public int getMaxControlFrames() {
        return maxControlFrames;
    }

    /**
     * The control frames (SETTINGS and PING acknowledgements, resets, window updates) that may
     * wait to be written; a peer that makes more while not reading is cut off with ENHANCE_YOUR_CALM.
     */
    public SessionConfiguration setMaxControlFrames(int maxControlFrames) {
        this.maxControlFrames = positive(maxControlFrames, "maxControlFrames");
        return this;
    }

    public int getResetBudget() {
        return resetBudget;
    }

    /** Resets per second: RST_STREAM received before our response began, plus resets the peer made us send. 0: no limit. */
    public SessionConfiguration setResetBudget(int resetBudget) {
        this.resetBudget = resetBudget;
        return this;
    }

    public int getSettingsBudget() {
        return settingsBudget;
    }

    /** SETTINGS frames per second. 0: no limit. */
    public SessionConfiguration setSettingsBudget(int settingsBudget) {
        this.settingsBudget = settingsBudget;
        return this;
    }

    public int getPingBudget() {
        return pingBudget;
    }

    /** PING frames per second. 0: no limit. */
    public SessionConfiguration setPingBudget(int pingBudget) {
        this.pingBudget = pingBudget;
        return this;
    }

    public int getEmptyDataBudget() {
        return emptyDataBudget;
    }

    /** DATA frames with no content, no padding and no END_STREAM, per second. 0: no limit. */
    public SessionConfiguration setEmptyDataBudget(int emptyDataBudget) {
        this.emptyDataBudget = emptyDataBudget;
        return this;
    }

    public int getPriorityBudget() {
        return priorityBudget;
    }

    /** PRIORITY frames per second. 0: no limit. */
    public SessionConfiguration setPriorityBudget(int priorityBudget) {
        this.priorityBudget = priorityBudget;
        return this;
    }

    public int getUnknownFrameBudget() {
        return unknownFrameBudget;
    }

    /** Frames of unknown types per second. 0: no limit. */
    public SessionConfiguration setUnknownFrameBudget(int unknownFrameBudget) {
        this.unknownFrameBudget = unknownFrameBudget;
        return this;
    }

    public boolean isConnectProtocolEnabled() {
        return connectProtocolEnabled;
    }

    /**
     * Whether a server announces SETTINGS_ENABLE_CONNECT_PROTOCOL = 1 and so accepts extended
     * CONNECT requests (a {@code :protocol} pseudo-header, RFC 8441), the way WebSocket runs over
     * HTTP/2. On by default; without it such a request is malformed (stream PROTOCOL_ERROR).
     * A client never announces it (the setting is the server's offer).
     */
    public SessionConfiguration setConnectProtocolEnabled(boolean connectProtocolEnabled) {
        this.connectProtocolEnabled = connectProtocolEnabled;
        return this;
    }

    private static int positive(int value, String name) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
        return value;
    }
}
