package io.wharf.http;

import java.nio.charset.StandardCharsets;

import io.wharf.http.internal.HttpTokens;

/**
 * Formats and parses HTTP dates (RFC 9110 section 5.6.7): writes the preferred IMF-fixdate,
 * {@code Sun, 06 Nov 1994 08:49:37 GMT}, and reads it as well as the two obsolete forms
 * senders still use, RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and ANSI C asctime
 * ({@code Sun Nov  6 08:49:37 1994}).
 *
 * <p>Any thread may call these static methods; they keep no state and share nothing. Both
 * run in time linear in their input (bounded by the fixed layouts), use no regular
 * expression, and {@link #parse} never throws on peer input: anything it cannot read is
 * {@code -1}. {@link #format} allocates only its result; it runs once per response when the
 * {@code Date} field is not cached (see {@link DateField}).
 *
 * <p>Reading is strict about the layout (the fixed positions of the grammar) and lenient
 * about the case of day names, month names and {@code GMT}, and about blanks around the whole
 * value. The day name is checked to be a day name but not checked against the date. A second
 * of {@code 60} (a leap second) reads as the first second of the next minute. RFC 850 dates
 * may also carry a four-digit year, which some old senders write.
 */
public final class HttpDateFormat {

    /** Milliseconds in a day. */
    private static final long DAY_MILLIS = 86_400_000L;
    /** Days from 0000-03-01 to 1970-01-01 in the proleptic Gregorian calendar. */
    private static final long EPOCH_DAY_OFFSET = 719_468L;
    /** Days in a 400-year cycle. */
    private static final long ERA_DAYS = 146_097L;
    /** The first millisecond of year 0000 and the first of year 10000. */
    private static final long MIN_MILLIS = -62_167_219_200_000L;
    private static final long MAX_MILLIS = 253_402_300_800_000L;

    private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};
    private static final String[] LONG_DAYS = {"Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"};
    private static final String[] MONTHS = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
    private static final int[] MONTH_DAYS = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

    /** The length of an IMF-fixdate. */
    public static final int IMF_FIXDATE_LENGTH = 29;

    private HttpDateFormat() {
    }

    /**
     * @return {@code epochMillis} as an IMF-fixdate, e.g. {@code Sun, 06 Nov 1994 08:49:37 GMT};
     *     the milliseconds are dropped (rounded towards the past)
     * @throws IllegalArgumentException when the instant lies outside the years 0000 to 9999,
     *     which the four-digit year cannot hold
     */
    public static String format(long epochMillis) {
        if (epochMillis < MIN_MILLIS || epochMillis >= MAX_MILLIS) {
            throw new IllegalArgumentException("instant " + epochMillis + " ms is outside the years 0000 to 9999");
        }
        long epochDay = Math.floorDiv(epochMillis, DAY_MILLIS);
        int secondOfDay = (int) (Math.floorMod(epochMillis, DAY_MILLIS) / 1000);
        // 1970-01-01 was a Thursday, index 3 with Monday at 0.
        int dayOfWeek = (int) Math.floorMod(epochDay + 3, 7L);

        long date = civilDate(epochDay);
        int year = (int) (date >> 9);
        int month = (int) (date >> 5) & 15;
        int day = (int) date & 31;

        byte[] out = new byte[IMF_FIXDATE_LENGTH];
        putName(out, 0, DAYS[dayOfWeek]);
        out[3] = ',';
        out[4] = ' ';
        putTwoDigits(out, 5, day);
        out[7] = ' ';
        putName(out, 8, MONTHS[month - 1]);
        out[11] = ' ';
        putTwoDigits(out, 12, year / 100);
        putTwoDigits(out, 14, year % 100);
        out[16] = ' ';
        putTwoDigits(out, 17, secondOfDay / 3600);
        out[19] = ':';
        putTwoDigits(out, 20, secondOfDay / 60 % 60);
        out[22] = ':';
        putTwoDigits(out, 23, secondOfDay % 60);
        out[25] = ' ';
        out[26] = 'G';
        out[27] = 'M';
        out[28] = 'T';
        return new String(out, StandardCharsets.ISO_8859_1);
    }

    /**
     * Reads an HTTP date in any of its three forms. A two-digit RFC 850 year is placed
     * relative to the system clock; see {@link #parse(String, long)}.
     *
     * @return the instant in epoch milliseconds (a multiple of 1000, negative before 1970),
     *     or {@code -1} when {@code value} is null or not an HTTP date
     */
    public static long parse(String value) {
        return parse(value, System.currentTimeMillis());
    }

    /**
     * Reads an HTTP date in any of its three forms. A two-digit RFC 850 year is taken in the
     * century of {@code nowMillis}, unless that puts the date more than 50 years after
     * {@code nowMillis}, in which case it is the same two digits one century earlier (RFC 9110
     * section 5.6.7).
     *
     * @return the instant in epoch milliseconds, or {@code -1} when {@code value} is null or not
     *     an HTTP date
     */
    public static long parse(String value, long nowMillis) {
        if (value == null) {
            return -1;
        }
        int start = 0;
        int end = value.length();
        while (start < end && HttpTokens.isBlank(value.charAt(start))) {
            start++;
        }
        while (end > start && HttpTokens.isBlank(value.charAt(end - 1))) {
            end--;
        }
        if (end - start < 4) {
            return -1;
        }
        if (value.charAt(start + 3) == ',') {
            return parseFixdate(value, start, end);
        }
        if (value.charAt(start + 3) == ' ') {
            return parseAsctime(value, start, end);
        }
        return parseRfc850(value, start, end, nowMillis);
    }

    /** {@code Sun, 06 Nov 1994 08:49:37 GMT} */
    private static long parseFixdate(String value, int start, int end) {
        if (end - start != IMF_FIXDATE_LENGTH
                || nameIndex(value, start, 3, DAYS) < 0
                || !isAt(value, start + 4, " ") || !isAt(value, start + 7, " ")
                || !isAt(value, start + 11, " ") || !isAt(value, start + 16, " ")
                || !isAtIgnoreCase(value, start + 25, " GMT")) {
            return -1;
        }
        int day = twoDigits(value, start + 5);
        int month = nameIndex(value, start + 8, 3, MONTHS) + 1;
        int year = fourDigits(value, start + 12);
        return toMillis(year, month, day, value, start + 17);
    }

    /** {@code Sun Nov  6 08:49:37 1994} */
    private static long parseAsctime(String value, int start, int end) {
        if (end - start != 24
                || nameIndex(value, start, 3, DAYS) < 0
                || !isAt(value, start + 7, " ") || !isAt(value, start + 10, " ")
                || !isAt(value, start + 19, " ")) {
            return -1;
        }
        int month = nameIndex(value, start + 4, 3, MONTHS) + 1;
        int day = value.charAt(start + 8) == ' ' ? digit(value, start + 9) : twoDigits(value, start + 8);
        int year = fourDigits(value, start + 20);
        return toMillis(year, month, day, value, start + 11);
    }

    /** {@code Sunday, 06-Nov-94 08:49:37 GMT}, or with a four-digit year. */
    private static long parseRfc850(String value, int start, int end, long nowMillis) {
        int comma = value.indexOf(',', start);
        if (comma < 0 || comma >= end || nameIndex(value, start, comma - start, LONG_DAYS) < 0) {
            return -1;
        }
        int date = comma + 2;
        int yearDigits = end - date - 20;
        if ((yearDigits != 2 && yearDigits != 4)
                || !isAt(value, comma + 1, " ") || !isAt(value, date + 2, "-") || !isAt(value, date + 6, "-")
                || !isAt(value, date + 7 + yearDigits, " ")
                || !isAtIgnoreCase(value, date + 16 + yearDigits, " GMT")) {
            return -1;
        }
        int day = twoDigits(value, date);
        int month = nameIndex(value, date + 3, 3, MONTHS) + 1;
        int time = date + 8 + yearDigits;
        if (yearDigits == 4) {
            return toMillis(fourDigits(value, date + 7), month, day, value, time);
        }
        int twoDigitYear = twoDigits(value, date + 7);
        if (twoDigitYear < 0) {
            return -1;
        }
        int nowYear = yearOf(nowMillis);
        int year = nowYear - Math.floorMod(nowYear, 100) + twoDigitYear;
        long millis = toMillis(year, month, day, value, time);
        if (millis != -1 && millis > fiftyYearsAfter(nowMillis)) {
            millis = toMillis(year - 100, month, day, value, time);
        }
        return millis;
    }

    /** @return the instant of the date and of the {@code HH:MM:SS} at {@code time}, or -1 when invalid */
    private static long toMillis(int year, int month, int day, String value, int time) {
        if (year < 0 || month < 1 || day < 1 || day > MONTH_DAYS[month - 1]
                || month == 2 && day == 29 && !isLeapYear(year)
                || !isAt(value, time + 2, ":") || !isAt(value, time + 5, ":")) {
            return -1;
        }
        int hour = twoDigits(value, time);
        int minute = twoDigits(value, time + 3);
        int second = twoDigits(value, time + 6);
        if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 60) {
            return -1;
        }
        long seconds = epochDay(year, month, day) * 86_400L + hour * 3600L + minute * 60L + second;
        return seconds * 1000L;
    }

    /** @return the days from 1970-01-01 to the given proleptic Gregorian date */
    private static long epochDay(int year, int month, int day) {
        long marchYear = month <= 2 ? year - 1L : year;
        long era = Math.floorDiv(marchYear, 400L);
        int yearOfEra = (int) (marchYear - era * 400);
        int marchMonth = month > 2 ? month - 3 : month + 9;
        int dayOfYear = (153 * marchMonth + 2) / 5 + day - 1;
        int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * ERA_DAYS + dayOfEra - EPOCH_DAY_OFFSET;
    }

    /**
     * @return the proleptic Gregorian date of a day count from 1970-01-01, packed as
     *     {@code year << 9 | month << 5 | day}
     */
    private static long civilDate(long epochDay) {
        // Count years from March so that the leap day, when there is one, ends the year.
        long shifted = epochDay + EPOCH_DAY_OFFSET;
        long era = Math.floorDiv(shifted, ERA_DAYS);
        int dayOfEra = (int) (shifted - era * ERA_DAYS);
        int yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        int dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        int marchMonth = (5 * dayOfYear + 2) / 153;
        int day = dayOfYear - (153 * marchMonth + 2) / 5 + 1;
        int month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
        long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return year << 9 | month << 5 | day;
    }

    private static int yearOf(long epochMillis) {
        return (int) (civilDate(Math.floorDiv(epochMillis, DAY_MILLIS)) >> 9);
    }

    /** @return the instant 50 calendar years after {@code epochMillis} (a 29 February becomes 1 March) */
    private static long fiftyYearsAfter(long epochMillis) {
        long date = civilDate(Math.floorDiv(epochMillis, DAY_MILLIS));
        long day = epochDay((int) (date >> 9) + 50, (int) (date >> 5) & 15, (int) date & 31);
        return day * DAY_MILLIS + Math.floorMod(epochMillis, DAY_MILLIS);
    }

    private static boolean isLeapYear(int year) {
        return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    }

    /** @return the index of the name of {@code length} chars at {@code offset} among {@code names}, any case, or -1 */
    private static int nameIndex(String value, int offset, int length, String[] names) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].length() == length && value.regionMatches(true, offset, names[i], 0, length)) {
                return i;
            }
        }
        return -1;
    }

    private static boolean isAt(String value, int offset, String expected) {
        return offset >= 0 && value.startsWith(expected, offset);
    }

    private static boolean isAtIgnoreCase(String value, int offset, String expected) {
        return offset >= 0 && value.regionMatches(true, offset, expected, 0, expected.length());
    }

    /** @return the digit at {@code offset}, or a large negative number when it is not a digit */
    private static int digit(String value, int offset) {
        char c = value.charAt(offset);
        return c >= '0' && c <= '9' ? c - '0' : -10_000;
    }

    /** @return the two-digit number at {@code offset}, or a negative number when not two digits */
    private static int twoDigits(String value, int offset) {
        return digit(value, offset) * 10 + digit(value, offset + 1);
    }

    /** @return the four-digit number at {@code offset}, or a negative number when not four digits */
    private static int fourDigits(String value, int offset) {
        int high = twoDigits(value, offset);
        int low = twoDigits(value, offset + 2);
        return high < 0 || low < 0 ? -1 : high * 100 + low;
    }

    private static void putTwoDigits(byte[] out, int offset, int number) {
        out[offset] = (byte) ('0' + number / 10);
        out[offset + 1] = (byte) ('0' + number % 10);
    }

    private static void putName(byte[] out, int offset, String name) {
        for (int i = 0; i < name.length(); i++) {
            out[offset + i] = (byte) name.charAt(i);
        }
    }
}
