package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Random;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpDateFormatTest {

    /** 1994-11-06T08:49:37Z, the RFC's example. */
    private static final long EXAMPLE = 784_111_777_000L;
    /** 2026-06-15T12:00:00Z, the "now" that places two-digit years. */
    private static final long NOW = Instant.parse("2026-06-15T12:00:00Z").toEpochMilli();

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            1994-11-06T08:49:37Z      | Sun, 06 Nov 1994 08:49:37 GMT
            1970-01-01T00:00:00Z      | Thu, 01 Jan 1970 00:00:00 GMT
            1969-12-31T23:59:59.999Z  | Wed, 31 Dec 1969 23:59:59 GMT
            2000-02-29T23:59:59.500Z  | Tue, 29 Feb 2000 23:59:59 GMT
            2100-03-01T00:00:00Z      | Mon, 01 Mar 2100 00:00:00 GMT
            0000-01-01T00:00:00Z      | Sat, 01 Jan 0000 00:00:00 GMT
            9999-12-31T23:59:59.999Z  | Fri, 31 Dec 9999 23:59:59 GMT
            """)
    void formatsImfFixdate(String instant, String expected) {
        assertEquals(expected, HttpDateFormat.format(Instant.parse(instant).toEpochMilli()));
    }

    @Test
    void refusesToFormatYearsBeyondFourDigits() {
        long tooEarly = Instant.parse("-0001-12-31T23:59:59Z").toEpochMilli();
        long tooLate = Instant.parse("+10000-01-01T00:00:00Z").toEpochMilli();
        assertThrows(IllegalArgumentException.class, () -> HttpDateFormat.format(tooEarly));
        assertThrows(IllegalArgumentException.class, () -> HttpDateFormat.format(tooLate));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            Sun, 06 Nov 1994 08:49:37 GMT       | 1994-11-06T08:49:37Z
            '  Sun, 06 Nov 1994 08:49:37 GMT  ' | 1994-11-06T08:49:37Z
            sun, 06 nov 1994 08:49:37 gmt       | 1994-11-06T08:49:37Z
            Mon, 06 Nov 1994 08:49:37 GMT       | 1994-11-06T08:49:37Z
            Sunday, 06-Nov-94 08:49:37 GMT      | 1994-11-06T08:49:37Z
            Sunday, 06-Nov-1994 08:49:37 GMT    | 1994-11-06T08:49:37Z
            Thursday, 01-Jan-70 00:00:00 GMT    | 2070-01-01T00:00:00Z
            Saturday, 15-Jun-76 12:00:00 GMT    | 2076-06-15T12:00:00Z
            Saturday, 15-Jun-76 12:00:01 GMT    | 1976-06-15T12:00:01Z
            Tuesday, 01-Jan-77 00:00:00 GMT     | 1977-01-01T00:00:00Z
            Monday, 01-Jan-00 00:00:00 GMT      | 2000-01-01T00:00:00Z
            Sun Nov  6 08:49:37 1994            | 1994-11-06T08:49:37Z
            Sun Nov 06 08:49:37 1994            | 1994-11-06T08:49:37Z
            Thu Feb 29 12:00:00 2024            | 2024-02-29T12:00:00Z
            Wed, 31 Dec 1969 23:59:59 GMT       | 1969-12-31T23:59:59Z
            Sat, 01 Jan 0000 00:00:00 GMT       | 0000-01-01T00:00:00Z
            Fri, 31 Dec 9999 23:59:59 GMT       | 9999-12-31T23:59:59Z
            Wed, 31 Dec 2008 23:59:60 GMT       | 2009-01-01T00:00:00Z
            """)
    void parsesTheThreeForms(String value, String expected) {
        assertEquals(Instant.parse(expected).toEpochMilli(), HttpDateFormat.parse(value, NOW), value);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            NULL
            ''
            '   '
            Sun
            Sun,
            Sun, 06 Nov 1994 08:49:37 UTC
            Sun, 06 Nov 1994 08:49:37 GMT+1
            Sun, 06 Nov 1994 08:49:37
            Sun, 6 Nov 1994 08:49:37 GMT
            Sun,  06 Nov 1994 08:49:37 GMT
            Sun, 06 Nov 94 08:49:37 GMT
            Sun, 06 Nov 1994 8:49:37 GMT
            Sun, 06 Nov 1994 08:49:37 GMT GMT
            Sun, 06 Nov 1994 08.49.37 GMT
            Sun, 06 Xyz 1994 08:49:37 GMT
            Xyz, 06 Nov 1994 08:49:37 GMT
            Sun, 00 Nov 1994 08:49:37 GMT
            Sun, 31 Nov 1994 08:49:37 GMT
            Sun, 29 Feb 1900 08:49:37 GMT
            Sun, 30 Feb 2000 08:49:37 GMT
            Sun, 06 Nov 1994 24:00:00 GMT
            Sun, 06 Nov 1994 08:60:00 GMT
            Sun, 06 Nov 1994 08:49:61 GMT
            Sun, 06 Nov 19x4 08:49:37 GMT
            Sun, 0x Nov 1994 08:49:37 GMT
            Sun, -6 Nov 1994 08:49:37 GMT
            Sun, 06 Nov 1994 08:49:3x GMT
            Sun, 06 Nov 1994 08:49:37 GM
            Sun, 06-Nov-1994 08:49:37 GMT
            Sunday, 06 Nov 1994 08:49:37 GMT
            Sunday, 06-Nov-944 08:49:37 GMT
            Sunday, 06-Nov-9 08:49:37 GMT
            Sunday, 6-Nov-94 08:49:37 GMT
            Sunday, 06-Nov-94 08:49:37 UTC
            Sunday, 06-Nov-94 08:49:37
            Sun, 06-Nov-94 08:49:37 GMT
            Sundae, 06-Nov-94 08:49:37 GMT
            Sunday 06-Nov-94 08:49:37 GMT
            Sunday,06-Nov-94 08:49:37 GMT
            Sun Nov 6 08:49:37 1994
            Sun Nov  6 08:49:37 94
            Sun Nov  6 08:49:37 1994 GMT
            Sun Nov   6 08:49:37 1994
            Sun Nov  6 08:49:37  1994
            Sun Nov  x 08:49:37 1994
            1994-11-06T08:49:37Z
            784111777
            """)
    void answersMinusOneForAnythingElse(String value) {
        assertEquals(-1, HttpDateFormat.parse(value, NOW), value);
    }

    @Test
    void readsTwoDigitYearsRelativeToTheSystemClockByDefault() {
        int year = ZonedDateTime.now(ZoneOffset.UTC).getYear();
        int twoDigits = (year + 1) % 100;
        String value = String.format("Monday, 01-Jan-%02d 00:00:00 GMT", twoDigits);
        long parsed = HttpDateFormat.parse(value);
        assertEquals(year + 1, ZonedDateTime.ofInstant(Instant.ofEpochMilli(parsed), ZoneOffset.UTC).getYear());
    }

    @Test
    void roundTripsRandomInstantsAgreeingWithJavaTime() {
        Random random = new Random(20261121);
        long min = Instant.parse("0000-01-01T00:00:00Z").toEpochMilli();
        long max = Instant.parse("9999-12-31T23:59:59Z").toEpochMilli();
        DateTimeFormatter rfc1123 = DateTimeFormatter.RFC_1123_DATE_TIME;
        DateTimeFormatter asctime = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss uuuu", java.util.Locale.US);
        DateTimeFormatter rfc850 = DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'", java.util.Locale.US);
        for (int i = 0; i < 10_000; i++) {
            long millis = i < 5_000
                    ? min + Math.floorMod(random.nextLong(), max - min)
                    : NOW + (random.nextLong() % (40L * 365 * 86_400_000L));
            long seconds = Math.floorDiv(millis, 1000) * 1000;
            ZonedDateTime expected = Instant.ofEpochMilli(millis).atZone(ZoneOffset.UTC);

            String formatted = HttpDateFormat.format(millis);
            assertEquals(String.format(java.util.Locale.US, "%s, %02d %s %04d %s GMT",
                    expected.getDayOfWeek().getDisplayName(java.time.format.TextStyle.SHORT, java.util.Locale.US),
                    expected.getDayOfMonth(),
                    expected.getMonth().getDisplayName(java.time.format.TextStyle.SHORT, java.util.Locale.US),
                    expected.getYear(),
                    expected.toLocalTime().withNano(0).format(DateTimeFormatter.ISO_LOCAL_TIME)), formatted, "format " + millis);
            assertEquals(seconds, HttpDateFormat.parse(formatted, NOW), formatted);
            assertEquals(seconds, HttpDateFormat.parse(asctime.format(expected), NOW), asctime.format(expected));
            if (expected.getYear() >= 1000) {
                assertEquals(expected.getYear() <= 9999 ? seconds : -1, HttpDateFormat.parse(rfc1123.format(expected).replace(" +0000", " GMT").replaceFirst(", (\\d) ", ", 0$1 "), NOW));
            }
            if (i >= 5_000) {
                // within 40 years of NOW the two-digit year is unambiguous
                assertEquals(seconds, HttpDateFormat.parse(rfc850.format(expected), NOW), rfc850.format(expected));
            }
        }
    }

    @Test
    void formatIsTheInverseOfParseForTheExample() {
        assertEquals("Sun, 06 Nov 1994 08:49:37 GMT", HttpDateFormat.format(EXAMPLE));
        assertEquals(EXAMPLE, HttpDateFormat.parse(HttpDateFormat.format(EXAMPLE + 999)));
    }

    @Test
    void parsesLongGarbageInLinearTime() {
        LinearTime.assertLinear("a megabyte of garbage", 1_000_000, size -> {
            String garbage = "Sunday" + "x".repeat(size) + ", 06-Nov-94 08:49:37 GMT";
            String commas = ",".repeat(size);
            return () -> {
                assertEquals(-1, HttpDateFormat.parse(garbage, NOW));
                assertEquals(-1, HttpDateFormat.parse(commas, NOW));
            };
        });
    }

    @Test
    void httpFieldsReadDateFields() {
        HttpFields fields = HttpFields.build()
                .add(HttpHeader.LAST_MODIFIED, "Sun, 06 Nov 1994 08:49:37 GMT")
                .add("if-modified-since", "Sunday, 06-Nov-1994 08:49:37 GMT")
                .add(HttpHeader.EXPIRES, "0");
        assertEquals(EXAMPLE, fields.getDateField("Last-Modified"));
        assertEquals(EXAMPLE, fields.getDateField("If-Modified-Since"));
        assertEquals(-1, fields.getDateField("Expires"));
        assertEquals(-1, fields.getDateField("Date"));
    }

    @Test
    void neverThrowsOnMangledDates() {
        Random random = new Random(7);
        String[] seeds = {"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"};
        String alphabet = "0123456789 ,:-SunNovGMT\t\u00ff";
        for (int i = 0; i < 50_000; i++) {
            StringBuilder mangled = new StringBuilder(seeds[i % seeds.length]);
            for (int edits = random.nextInt(4); edits >= 0; edits--) {
                int at = random.nextInt(mangled.length());
                switch (random.nextInt(3)) {
                    case 0 -> mangled.setCharAt(at, alphabet.charAt(random.nextInt(alphabet.length())));
                    case 1 -> mangled.deleteCharAt(at);
                    default -> mangled.insert(at, alphabet.charAt(random.nextInt(alphabet.length())));
                }
            }
            long parsed = HttpDateFormat.parse(mangled.toString(), NOW);
            assertTrue(parsed == -1 || parsed % 1000 == 0, mangled::toString);
        }
    }
}
