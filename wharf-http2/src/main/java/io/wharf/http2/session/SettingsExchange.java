package io.wharf.http2.session;

import io.wharf.http2.frames.FrameParser;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;

/**
 * The SETTINGS of one HTTP/2 connection, both ways (RFC 9113 section 6.5): ours, made from the
 * configuration, and whether the peer acknowledged them; the peer's, as its SETTINGS frames
 * arrive. Applying a peer's frame returns a {@link Change}: what the rest of the session must
 * adjust (every stream's send window, the encoder's table and list limits, the frame size, the
 * limit on our streams). The values' ranges are checked by the parser ({@link Setting#check});
 * the windows they would overflow, by {@link FlowControl#shift}. No I/O.
 *
 * <p>Not thread-safe: the session calls it with its lock held.
 */
final class SettingsExchange {

    /**
     * What a peer's SETTINGS frame changes; a field is {@link #UNCHANGED} (-1) when the frame
     * does not carry its setting.
     *
     * @param windowDelta by how much every stream's send window moves (0 for none)
     * @param maxFrameSize the largest frame we may send
     * @param headerTableSize the largest dynamic table our encoder may use
     * @param maxHeaderListSize the largest header list the peer takes
     * @param maxConcurrentStreams the streams we may have open
     */
    record Change(long windowDelta, int maxFrameSize, int headerTableSize, long maxHeaderListSize, long maxConcurrentStreams) {
        static final long UNCHANGED = -1;
    }

    private final boolean server;
    private final SessionConfiguration config;
    /** Whether the peer acknowledged our SETTINGS: until then it may count on the protocol's defaults. */
    private boolean acknowledged;
    private long peerInitialWindow = Setting.INITIAL_WINDOW_SIZE.initialValue();
    /** The peer's SETTINGS_ENABLE_PUSH (a server reads the client's). */
    private boolean peerEnablesPush = true;
    /** The peer's SETTINGS_ENABLE_CONNECT_PROTOCOL (a client reads the server's, RFC 8441 section 3). */
    private boolean peerEnablesConnectProtocol;

    SettingsExchange(boolean server, SessionConfiguration config) {
        this.server = server;
        this.config = config;
    }

    /** @return our SETTINGS: what the configuration sets apart from the protocol's defaults, and our limits always */
    Settings ours() {
        Settings.Builder ours = Settings.builder()
                .set(Setting.MAX_CONCURRENT_STREAMS, config.getMaxConcurrentStreams())
                .set(Setting.INITIAL_WINDOW_SIZE, config.getInitialStreamWindow())
                .set(Setting.MAX_HEADER_LIST_SIZE, config.getMaxHeaderListSize());
        if (config.getMaxFrameSize() != FrameParser.DEFAULT_MAX_FRAME_SIZE) {
            ours.set(Setting.MAX_FRAME_SIZE, config.getMaxFrameSize());
        }
        if (config.getMaxHeaderTableSize() != Setting.HEADER_TABLE_SIZE.initialValue()) {
            ours.set(Setting.HEADER_TABLE_SIZE, config.getMaxHeaderTableSize());
        }
        if (!server) {
            ours.set(Setting.ENABLE_PUSH, config.isPushEnabled() ? 1 : 0);
        } else if (config.isConnectProtocolEnabled()) {
            ours.set(Setting.ENABLE_CONNECT_PROTOCOL, 1);
        }
        return ours.build();
    }

    /** The peer acknowledged our SETTINGS. @return true the first time: what they lower applies from now on */
    boolean acknowledge() {
        if (acknowledged) {
            return false;
        }
        acknowledged = true;
        return true;
    }

    /** @return whether the peer acknowledged our SETTINGS */
    boolean acknowledged() {
        return acknowledged;
    }

    /** Applies a peer's SETTINGS frame (or an upgrade's {@code HTTP2-Settings}). @return what it changes */
    Change apply(Settings peer) {
        long delta = 0;
        if (peer.contains(Setting.INITIAL_WINDOW_SIZE)) {
            delta = peer.get(Setting.INITIAL_WINDOW_SIZE) - peerInitialWindow;
            peerInitialWindow = peer.get(Setting.INITIAL_WINDOW_SIZE);
        }
        if (peer.contains(Setting.ENABLE_PUSH)) {
            peerEnablesPush = peer.get(Setting.ENABLE_PUSH) != 0;
        }
        if (peer.contains(Setting.ENABLE_CONNECT_PROTOCOL)) {
            peerEnablesConnectProtocol = peer.get(Setting.ENABLE_CONNECT_PROTOCOL) != 0;
        }
        return new Change(delta,
                (int) valueOf(peer, Setting.MAX_FRAME_SIZE),
                (int) Math.min(Integer.MAX_VALUE, valueOf(peer, Setting.HEADER_TABLE_SIZE)),
                valueOf(peer, Setting.MAX_HEADER_LIST_SIZE),
                valueOf(peer, Setting.MAX_CONCURRENT_STREAMS));
    }

    private static long valueOf(Settings settings, Setting setting) {
        return settings.contains(setting) ? settings.get(setting) : Change.UNCHANGED;
    }

    /** @return the peer's SETTINGS_INITIAL_WINDOW_SIZE: a new stream's send window */
    long peerInitialWindow() {
        return peerInitialWindow;
    }

    /** @return whether the peer (a client) accepts pushes */
    boolean peerEnablesPush() {
        return peerEnablesPush;
    }

    /** @return whether the peer (a server) accepts extended CONNECT (RFC 8441) */
    boolean peerEnablesConnectProtocol() {
        return peerEnablesConnectProtocol;
    }
}
