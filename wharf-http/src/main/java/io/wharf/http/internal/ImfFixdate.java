package io.wharf.http.internal;

import java.time.Instant;

import io.wharf.http.HttpDateFormat;

/**
 * The cookie code's view of IMF-fixdate: the range of instants an {@code Expires} attribute
 * may hold (years 0001 to 9999), and {@link Instant}s written by {@link HttpDateFormat}.
 * Stateless and thread-safe.
 */
public final class ImfFixdate {

    /** The earliest instant IMF-fixdate can write: year 0001. */
    public static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");
    /** The latest instant IMF-fixdate can write: the last second of year 9999. */
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59Z");

    private ImfFixdate() {
    }

    /**
     * @param instant between {@link #MIN} and {@link #MAX}; fractions of a second are dropped
     * @return the IMF-fixdate text
     * @throws IllegalArgumentException when the instant has no four-digit year
     */
    public static String format(Instant instant) {
        if (instant.isBefore(MIN) || instant.isAfter(MAX.plusNanos(999_999_999))) {
            throw new IllegalArgumentException("instant " + instant + " has no four-digit year for an IMF-fixdate");
        }
        return HttpDateFormat.format(instant.toEpochMilli());
    }
}
