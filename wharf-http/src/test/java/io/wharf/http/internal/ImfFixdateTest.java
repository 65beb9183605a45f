package io.wharf.http.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class ImfFixdateTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            1994-11-06T08:49:37Z        | Sun, 06 Nov 1994 08:49:37 GMT
            2026-03-05T08:09:07Z        | Thu, 05 Mar 2026 08:09:07 GMT
            2026-03-05T08:09:07.999Z    | Thu, 05 Mar 2026 08:09:07 GMT
            1970-01-01T00:00:00Z        | Thu, 01 Jan 1970 00:00:00 GMT
            2024-02-29T12:00:00Z        | Thu, 29 Feb 2024 12:00:00 GMT
            0001-01-01T00:00:00Z        | Mon, 01 Jan 0001 00:00:00 GMT
            9999-12-31T23:59:59Z        | Fri, 31 Dec 9999 23:59:59 GMT
            """)
    void writesTwoDigitDaysAndFourDigitYearsInGmt(String instant, String expected) {
        assertEquals(expected, ImfFixdate.format(Instant.parse(instant)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-0001-12-31T23:59:59Z", "+10000-01-01T00:00:00Z"})
    void refusesYearsWithoutFourDigits(String instant) {
        IllegalArgumentException thrown = assertThrows(IllegalArgumentException.class,
                () -> ImfFixdate.format(Instant.parse(instant)));
        assertEquals("instant " + Instant.parse(instant) + " has no four-digit year for an IMF-fixdate", thrown.getMessage());
    }
}
