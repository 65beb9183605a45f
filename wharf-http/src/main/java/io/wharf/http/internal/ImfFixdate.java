package io.wharf.http.internal;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Writes an instant as an RFC 9110 IMF-fixdate, {@code Sun, 06 Nov 1994 08:49:37 GMT}: two-digit
 * day, four-digit year, English names, always GMT. (The JDK's RFC 1123 formatter writes a
 * one-digit day without padding, which IMF-fixdate does not allow.) Stateless and thread-safe.
 */
public final class ImfFixdate {

    /** The earliest instant IMF-fixdate can write: year 0001. */
    public static final Instant MIN = Instant.parse("0001-01-01T00:00:00Z");
    /** The latest instant IMF-fixdate can write: the last second of year 9999. */
    public static final Instant MAX = Instant.parse("9999-12-31T23:59:59Z");

    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] MONTHS = {
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"
    };

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
        LocalDateTime time = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), 0, ZoneOffset.UTC);
        StringBuilder text = new StringBuilder(29);
        text.append(DAYS[time.getDayOfWeek().ordinal()]).append(", ");
        twoDigits(text, time.getDayOfMonth()).append(' ');
        text.append(MONTHS[time.getMonthValue() - 1]).append(' ');
        int year = time.getYear();
        twoDigits(text, year / 100);
        twoDigits(text, year % 100).append(' ');
        twoDigits(text, time.getHour()).append(':');
        twoDigits(text, time.getMinute()).append(':');
        twoDigits(text, time.getSecond()).append(" GMT");
        return text.toString();
    }

    private static StringBuilder twoDigits(StringBuilder text, int value) {
        return text.append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
    }
}
