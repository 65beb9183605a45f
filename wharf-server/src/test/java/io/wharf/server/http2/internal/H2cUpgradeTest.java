package io.wharf.server.http2.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;

import org.junit.jupiter.api.Test;

/** The HTTP2-Settings field of an h2c upgrade: base64url of a SETTINGS payload. */
class H2cUpgradeTest {

    @Test
    void decodesTheSettingsCurlSends() {
        // MAX_CONCURRENT_STREAMS 100, INITIAL_WINDOW_SIZE 33554432, ENABLE_PUSH 0
        Settings settings = H2cUpgrade.decode("AAMAAABkAAQCAAAAAAIAAAAA");
        assertEquals(100, settings.get(Setting.MAX_CONCURRENT_STREAMS));
        assertEquals(33_554_432, settings.get(Setting.INITIAL_WINDOW_SIZE));
        assertEquals(0, settings.get(Setting.ENABLE_PUSH));
    }

    @Test
    void anEmptyValueIsNoSettings() {
        assertEquals(Settings.EMPTY, H2cUpgrade.decode(""));
    }

    @Test
    void malformedValuesAreRefused() {
        assertNull(H2cUpgrade.decode("not base64!"), "not base64url");
        assertNull(H2cUpgrade.decode("AAMAAABk AA"), "not a multiple of six octets");
        assertNull(H2cUpgrade.decode("AAUAAAAA"), "MAX_FRAME_SIZE 0 is out of range");
    }
}
