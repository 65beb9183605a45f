package io.wharf.webapp.descriptor;

import java.util.List;
import java.util.Optional;

import jakarta.servlet.SessionTrackingMode;

/**
 * {@code <session-config>}.
 *
 * @param timeoutMinutes {@code <session-timeout>} in minutes (0 or less: sessions never time out)
 * @param cookieConfig {@code <cookie-config>}
 * @param trackingModes {@code <tracking-mode>}s in document order, without repeats
 */
public record SessionConfig(Optional<Integer> timeoutMinutes, Optional<CookieConfig> cookieConfig, List<SessionTrackingMode> trackingModes) {

    /** Copies the list. */
    public SessionConfig {
        trackingModes = List.copyOf(trackingModes);
    }
}
