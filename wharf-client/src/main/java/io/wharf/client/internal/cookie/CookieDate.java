package io.wharf.client.internal.cookie;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;

/**
 * Reads the {@code Expires} attribute of a {@code Set-Cookie} header with the lenient
 * algorithm of RFC 6265 section 5.1.1, which accepts the many date layouts servers send
 * ({@code Wed, 21 Oct 2015 07:28:00 GMT}, {@code Wednesday, 21-Oct-15 07:28:00 GMT},
 * {@code Wed Oct 21 07:28:00 2015}...): the value is cut into tokens at delimiters, and the
 * first token that looks like a time, a day of the month, a month and a year fills each.
 * Static and stateless; any thread; linear in its input, which it never quotes.
 */
final class CookieDate {

    private static final String[] MONTHS = {"jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"};

    private CookieDate() {
    }

    /** @return the date as epoch milliseconds, or {@link Long#MIN_VALUE} when it is not a cookie date */
    static long parse(String text) {
        int hour = -1;
        int minute = -1;
        int second = -1;
        int day = -1;
        int month = -1;
        int year = -1;
        int length = text.length();
        int i = 0;
        while (i < length) {
            while (i < length && isDelimiter(text.charAt(i))) {
                i++;
            }
            int start = i;
            while (i < length && !isDelimiter(text.charAt(i))) {
                i++;
            }
            if (start == i) {
                break;
            }
            String token = text.substring(start, i);
            int[] time;
            if (hour < 0 && (time = time(token)) != null) {
                hour = time[0];
                minute = time[1];
                second = time[2];
            } else if (day < 0 && digits(token, 1, 2) >= 0) {
                day = digits(token, 1, 2);
            } else if (month < 0 && month(token) >= 0) {
                month = month(token);
            } else if (year < 0 && digits(token, 2, 4) >= 0) {
                year = digits(token, 2, 4);
            }
        }
        if (hour < 0 || day < 0 || month < 0 || year < 0) {
            return Long.MIN_VALUE;
        }
        if (year >= 70 && year <= 99) {
            year += 1900;
        } else if (year <= 69) {
            year += 2000;
        }
        if (day < 1 || day > 31 || year < 1601 || hour > 23 || minute > 59 || second > 59) {
            return Long.MIN_VALUE;
        }
        try {
            return LocalDateTime.of(year, month, day, hour, minute, second).toInstant(ZoneOffset.UTC).toEpochMilli();
        } catch (DateTimeException x) {
            // A day the month does not have (30 February).
            return Long.MIN_VALUE;
        }
    }

    /** delimiter = %x09 / %x20-2F / %x3B-40 / %x5B-60 / %x7B-7E */
    private static boolean isDelimiter(char c) {
        return c == 0x09
                || c >= 0x20 && c <= 0x2F
                || c >= 0x3B && c <= 0x40
                || c >= 0x5B && c <= 0x60
                || c >= 0x7B && c <= 0x7E;
    }

    /**
     * @return the number of 1 or 2 ({@code min}..{@code max}) leading digits when the token
     *     starts with them and they are followed by nothing or a non-digit; -1 otherwise
     */
    private static int digits(String token, int min, int max) {
        int count = 0;
        int value = 0;
        while (count < token.length() && isDigit(token.charAt(count))) {
            if (count == max) {
                return -1;
            }
            value = value * 10 + token.charAt(count) - '0';
            count++;
        }
        return count >= min ? value : -1;
    }

    /** @return hour, minute and second of a token {@code h:m:s} (each 1 or 2 digits, trailing non-digits allowed), or null */
    private static int[] time(String token) {
        int[] fields = new int[3];
        int i = 0;
        for (int field = 0; field < 3; field++) {
            int start = i;
            int value = 0;
            while (i < token.length() && isDigit(token.charAt(i)) && i - start < 2) {
                value = value * 10 + token.charAt(i) - '0';
                i++;
            }
            if (i == start) {
                return null;
            }
            fields[field] = value;
            if (field < 2) {
                if (i >= token.length() || token.charAt(i) != ':') {
                    return null;
                }
                i++;
            }
        }
        return i == token.length() || !isDigit(token.charAt(i)) ? fields : null;
    }

    /** @return the month 1 to 12 a token starting with its three-letter name (any case) names, or -1 */
    private static int month(String token) {
        if (token.length() < 3) {
            return -1;
        }
        for (int m = 0; m < MONTHS.length; m++) {
            if (token.regionMatches(true, 0, MONTHS[m], 0, 3)) {
                return m + 1;
            }
        }
        return -1;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
