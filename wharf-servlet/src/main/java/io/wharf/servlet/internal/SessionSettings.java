package io.wharf.servlet.internal;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

import jakarta.servlet.SessionTrackingMode;

/**
 * The session settings of a servlet context (chapter 7): how sessions are tracked and how long
 * an idle one lives. The cookie's own settings are {@link SessionCookieSettings}.
 *
 * <p>Threads: set while the context is configurable (it checks); read by request threads.
 */
final class SessionSettings {

    /** How long an idle session lives unless set otherwise. */
    static final int DEFAULT_TIMEOUT_MINUTES = 30;

    private volatile Set<SessionTrackingMode> trackingModes = EnumSet.of(SessionTrackingMode.COOKIE);
    private volatile int timeoutMinutes = DEFAULT_TIMEOUT_MINUTES;

    /** @throws IllegalArgumentException for SSL tracking, which Wharf does not offer */
    void setTrackingModes(Set<SessionTrackingMode> modes) {
        if (modes.contains(SessionTrackingMode.SSL) && modes.size() > 1) {
            throw new IllegalArgumentException("SSL session tracking cannot be combined with other modes: " + modes);
        }
        if (modes.contains(SessionTrackingMode.SSL)) {
            throw new IllegalArgumentException("SSL session tracking is not supported; use COOKIE or URL");
        }
        trackingModes = modes.isEmpty() ? EnumSet.noneOf(SessionTrackingMode.class) : EnumSet.copyOf(modes);
    }

    /**
     * @return {@code COOKIE}: the modes in effect until the application sets others. URL
     *     rewriting is not among them, since its {@code ;jsessionid=} path parameter is refused by
     *     the strict default URI compliance.
     */
    Set<SessionTrackingMode> defaultTrackingModes() {
        return Collections.unmodifiableSet(EnumSet.of(SessionTrackingMode.COOKIE));
    }

    Set<SessionTrackingMode> effectiveTrackingModes() {
        return Collections.unmodifiableSet(trackingModes);
    }

    int timeoutMinutes() {
        return timeoutMinutes;
    }

    void setTimeoutMinutes(int minutes) {
        this.timeoutMinutes = minutes;
    }
}
