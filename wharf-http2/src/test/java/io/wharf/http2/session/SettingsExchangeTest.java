package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;

import org.junit.jupiter.api.Test;

/** {@link SettingsExchange} alone, and with {@link FlowControl} as the session joins them (RFC 9113 section 6.5). */
class SettingsExchangeTest {

    private static final long UNCHANGED = SettingsExchange.Change.UNCHANGED;

    @Test
    void ourSettingsCarryOurLimitsAndWhatDiffersFromTheDefaults() {
        Settings server = new SettingsExchange(true, new SessionConfiguration()).ours();
        SessionConfiguration defaults = new SessionConfiguration();
        assertEquals(defaults.getMaxConcurrentStreams(), server.get(Setting.MAX_CONCURRENT_STREAMS));
        assertEquals(defaults.getInitialStreamWindow(), server.get(Setting.INITIAL_WINDOW_SIZE));
        assertEquals(defaults.getMaxHeaderListSize(), server.get(Setting.MAX_HEADER_LIST_SIZE));
        assertEquals(1, server.get(Setting.ENABLE_CONNECT_PROTOCOL), "a server takes extended CONNECT by default");
        assertFalse(server.contains(Setting.MAX_FRAME_SIZE) || server.contains(Setting.HEADER_TABLE_SIZE)
                || server.contains(Setting.ENABLE_PUSH));
        assertFalse(new SettingsExchange(true, new SessionConfiguration().setConnectProtocolEnabled(false)).ours()
                .contains(Setting.ENABLE_CONNECT_PROTOCOL));
        SessionConfiguration config = new SessionConfiguration().setMaxFrameSize(1 << 20).setMaxHeaderTableSize(0)
                .setPushEnabled(false);
        Settings extended = new SettingsExchange(true, config).ours();
        assertEquals(1 << 20, extended.get(Setting.MAX_FRAME_SIZE));
        assertEquals(0, extended.get(Setting.HEADER_TABLE_SIZE));
        assertEquals(1, extended.get(Setting.ENABLE_CONNECT_PROTOCOL));
        assertFalse(extended.contains(Setting.ENABLE_PUSH), "a server announces no push setting");
        Settings client = new SettingsExchange(false, config).ours();
        assertEquals(0, client.get(Setting.ENABLE_PUSH));
        assertFalse(client.contains(Setting.ENABLE_CONNECT_PROTOCOL), "a client announces no extended CONNECT");
    }

    @Test
    void anInitialWindowChangeIsADeltaFromTheLastValue() {
        SettingsExchange exchange = new SettingsExchange(true, new SessionConfiguration());
        assertEquals(65_535, exchange.peerInitialWindow());
        assertEquals(100_000 - 65_535, exchange.apply(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 100_000).build()).windowDelta());
        assertEquals(0, exchange.apply(Settings.builder().set(Setting.MAX_FRAME_SIZE, 20_000).build()).windowDelta(), "absent: no change");
        assertEquals(1_000 - 100_000, exchange.apply(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 1_000).build()).windowDelta());
        assertEquals(1_000, exchange.peerInitialWindow());
    }

    @Test
    void aChangeCarriesOnlyTheSettingsTheFrameHad() {
        SettingsExchange exchange = new SettingsExchange(true, new SessionConfiguration());
        SettingsExchange.Change none = exchange.apply(Settings.EMPTY);
        assertEquals(new SettingsExchange.Change(0, (int) UNCHANGED, (int) UNCHANGED, UNCHANGED, UNCHANGED), none);
        SettingsExchange.Change all = exchange.apply(Settings.builder().set(Setting.MAX_FRAME_SIZE, 32_768)
                .set(Setting.HEADER_TABLE_SIZE, 0xFFFF_FFFFL).set(Setting.MAX_HEADER_LIST_SIZE, 0xFFFF_FFFFL)
                .set(Setting.MAX_CONCURRENT_STREAMS, 0).build());
        assertEquals(32_768, all.maxFrameSize());
        assertEquals(Integer.MAX_VALUE, all.headerTableSize(), "a table past what an int holds is clamped");
        assertEquals(0xFFFF_FFFFL, all.maxHeaderListSize());
        assertEquals(0, all.maxConcurrentStreams());
    }

    @Test
    void pushAndExtendedConnectFollowThePeersLastWord() {
        SettingsExchange server = new SettingsExchange(true, new SessionConfiguration());
        assertTrue(server.peerEnablesPush(), "push is on until the client says otherwise");
        server.apply(Settings.builder().set(Setting.ENABLE_PUSH, 0).build());
        assertFalse(server.peerEnablesPush());
        SettingsExchange client = new SettingsExchange(false, new SessionConfiguration());
        assertFalse(client.peerEnablesConnectProtocol());
        client.apply(Settings.builder().set(Setting.ENABLE_CONNECT_PROTOCOL, 1).build());
        assertTrue(client.peerEnablesConnectProtocol());
        client.apply(Settings.builder().set(Setting.MAX_FRAME_SIZE, 16_384).build());
        assertTrue(client.peerEnablesConnectProtocol(), "a frame without it leaves it");
    }

    @Test
    void ourSettingsAreAcknowledgedOnce() {
        SettingsExchange exchange = new SettingsExchange(false, new SessionConfiguration());
        assertFalse(exchange.acknowledged());
        assertTrue(exchange.acknowledge());
        assertFalse(exchange.acknowledge(), "a second ACK changes nothing");
        assertTrue(exchange.acknowledged());
    }

    @Test
    void anInitialWindowChangeAppliesToEveryOpenStreamAndMayOverflowOne() {
        SettingsExchange exchange = new SettingsExchange(true, new SessionConfiguration());
        FlowControl flow = new FlowControl(FlowControlStrategy.threshold(0.5), 65_535, 65_535);
        FlowWindow idle = new FlowWindow(exchange.peerInitialWindow(), flow.streamReceiveWindow(true));
        FlowWindow busy = new FlowWindow(exchange.peerInitialWindow(), flow.streamReceiveWindow(true));
        flow.sent(busy, 50_000);
        FlowWindow granted = new FlowWindow(exchange.peerInitialWindow(), flow.streamReceiveWindow(true));
        assertTrue(flow.grant(granted, Integer.MAX_VALUE - 65_535 - 10));
        long delta = exchange.apply(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 65_545).build()).windowDelta();
        assertTrue(flow.shift(idle, delta));
        assertTrue(flow.shift(busy, delta));
        assertTrue(flow.shift(granted, delta), "exactly 2^31 - 1 holds");
        assertEquals(65_545, idle.send);
        assertEquals(15_545, busy.send);
        assertEquals(65_545, new FlowWindow(exchange.peerInitialWindow(), flow.streamReceiveWindow(true)).send, "a new stream starts with the new value");
        delta = exchange.apply(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 65_546).build()).windowDelta();
        assertFalse(flow.shift(granted, delta), "one more octet is FLOW_CONTROL_ERROR (RFC 9113 section 6.9.2)");
    }
}
