package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PreconditionsTest {

    /** The resource's Last-Modified second; its file time is 700 ms into that second. */
    private static final String T = "Sat, 01 Jun 2024 12:00:00 GMT";
    private static final String BEFORE = "Sat, 01 Jun 2024 11:59:59 GMT";
    private static final String AFTER = "Sat, 01 Jun 2024 12:00:01 GMT";

    private final Preconditions preconditions = new Preconditions(PreconditionsTest::parseDate);

    /**
     * Columns: method | request fields, {@code ;}-separated, with T, BEFORE and AFTER standing
     * for the dates above | current tag (empty: none) | resource has a modification time |
     * resource exists | expected evaluation.
     */
    @ParameterizedTest(name = "[{index}] {0} {1} / {2} -> {5}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            GET     |                                        | "v2"   | true  | true  | PROCEED
            GET     | Accept: */*                            | "v2"   | true  | true  | PROCEED

            # If-Match: strong comparison, * means "exists"
            GET     | If-Match: "v2"                         | "v2"   | true  | true  | PROCEED
            GET     | If-Match: "v1"                         | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Match: "v1", "v2"                   | "v2"   | true  | true  | PROCEED
            GET     | If-Match: W/"v2"                       | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Match: "v2"                         | W/"v2" | true  | true  | PRECONDITION_FAILED
            GET     | If-Match: "V2"                         | "v2"   | true  | true  | PRECONDITION_FAILED
            PUT     | If-Match: *                            | "v2"   | true  | true  | PROCEED
            PUT     | If-Match: *                            |        | false | false | PRECONDITION_FAILED
            GET     | If-Match: *                            |        | true  | true  | PROCEED
            GET     | If-Match: "v2"                         |        | true  | true  | PRECONDITION_FAILED
            PUT     | If-Match: "v2"                         | "v2"   | true  | false | PRECONDITION_FAILED
            GET     | If-Match: v2                           | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Match: "v2" "v3"                    | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Match: "v1";If-Match: "v2"          | "v2"   | true  | true  | PROCEED
            GET     | If-Match: *;If-Match: "v2"             | "v2"   | true  | true  | PRECONDITION_FAILED
            DELETE  | If-Match: , "v2",                      | "v2"   | true  | true  | PROCEED
            GET     | If-Match:                              | "v2"   | true  | true  | PRECONDITION_FAILED

            # If-Unmodified-Since: seconds, ignored when invalid, repeated, without a time or after If-Match
            GET     | If-Unmodified-Since: T                 | "v2"   | true  | true  | PROCEED
            GET     | If-Unmodified-Since: AFTER             | "v2"   | true  | true  | PROCEED
            GET     | If-Unmodified-Since: BEFORE            | "v2"   | true  | true  | PRECONDITION_FAILED
            PUT     | If-Unmodified-Since: BEFORE            | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Unmodified-Since: yesterday         | "v2"   | true  | true  | PROCEED
            GET     | If-Unmodified-Since: BEFORE;If-Unmodified-Since: AFTER | "v2" | true | true | PROCEED
            GET     | If-Unmodified-Since: BEFORE            | "v2"   | false | true  | PROCEED
            PUT     | If-Unmodified-Since: BEFORE            |        | false | false | PROCEED
            GET     | If-Match: "v2";If-Unmodified-Since: BEFORE | "v2" | true | true  | PROCEED
            GET     | If-Match: "v1";If-Unmodified-Since: AFTER  | "v2" | true | true  | PRECONDITION_FAILED

            # If-None-Match: weak comparison, 304 for GET and HEAD, 412 otherwise
            GET     | If-None-Match: "v2"                    | "v2"   | true  | true  | NOT_MODIFIED
            HEAD    | If-None-Match: "v2"                    | "v2"   | true  | true  | NOT_MODIFIED
            GET     | If-None-Match: W/"v2"                  | "v2"   | true  | true  | NOT_MODIFIED
            GET     | If-None-Match: "v2"                    | W/"v2" | true  | true  | NOT_MODIFIED
            GET     | If-None-Match: "v1"                    | "v2"   | true  | true  | PROCEED
            GET     | If-None-Match: "v1", W/"v2"            | "v2"   | true  | true  | NOT_MODIFIED
            GET     | If-None-Match: "v1";If-None-Match: "v2" | "v2"  | true  | true  | NOT_MODIFIED
            GET     | If-None-Match: "v2--gzip"              | "v2"   | true  | true  | PROCEED
            POST    | If-None-Match: "v2"                    | "v2"   | true  | true  | PRECONDITION_FAILED
            PUT     | If-None-Match: *                       | "v2"   | true  | true  | PRECONDITION_FAILED
            PUT     | If-None-Match: *                       |        | false | false | PROCEED
            GET     | If-None-Match: *                       | "v2"   | true  | true  | NOT_MODIFIED
            GET     | If-None-Match: *                       |        | false | true  | NOT_MODIFIED
            GET     | If-None-Match: v2                      | "v2"   | true  | true  | PROCEED
            GET     | If-None-Match: "v2                     | "v2"   | true  | true  | PROCEED
            GET     | If-None-Match: "v2"                    |        | true  | true  | PROCEED

            # If-Modified-Since: GET and HEAD only, ignored when invalid, repeated, without a time or after If-None-Match
            GET     | If-Modified-Since: T                   | "v2"   | true  | true  | NOT_MODIFIED
            GET     | If-Modified-Since: AFTER               | "v2"   | true  | true  | NOT_MODIFIED
            GET     | If-Modified-Since: BEFORE              | "v2"   | true  | true  | PROCEED
            HEAD    | If-Modified-Since: T                   | "v2"   | true  | true  | NOT_MODIFIED
            POST    | If-Modified-Since: T                   | "v2"   | true  | true  | PROCEED
            PUT     | If-Modified-Since: AFTER               | "v2"   | true  | true  | PROCEED
            GET     | If-Modified-Since: not a date          | "v2"   | true  | true  | PROCEED
            GET     | If-Modified-Since: T;If-Modified-Since: T | "v2" | true  | true  | PROCEED
            GET     | If-Modified-Since: T                   | "v2"   | false | true  | PROCEED
            GET     | If-None-Match: "v1";If-Modified-Since: T   | "v2" | true | true | PROCEED
            GET     | If-None-Match: "v2";If-Modified-Since: BEFORE | "v2" | true | true | NOT_MODIFIED

            # precedence of section 13.2.2
            GET     | If-Match: "v1";If-None-Match: "v1"     | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Match: "v2";If-None-Match: "v2"     | "v2"   | true  | true  | NOT_MODIFIED
            PUT     | If-Match: "v2";If-None-Match: "v2"     | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Unmodified-Since: BEFORE;If-Modified-Since: T | "v2" | true | true | PRECONDITION_FAILED
            GET     | If-Unmodified-Since: AFTER;If-None-Match: "v2"   | "v2" | true | true | NOT_MODIFIED
            GET     | If-None-Match: "v2";If-Match: "v1"     | "v2"   | true  | true  | PRECONDITION_FAILED
            GET     | If-Modified-Since: T;If-Unmodified-Since: BEFORE | "v2" | true | true | PRECONDITION_FAILED

            # a GET or HEAD of nothing is a 404 whatever its conditions; CONNECT, OPTIONS and TRACE ignore them
            GET     | If-Match: *                            |        | false | false | PROCEED
            HEAD    | If-Match: "v2"                         |        | false | false | PROCEED
            GET     | If-None-Match: *                       |        | false | false | PROCEED
            OPTIONS | If-Match: "v1"                         | "v2"   | true  | true  | PROCEED
            TRACE   | If-None-Match: *                       | "v2"   | true  | true  | PROCEED
            CONNECT | If-Unmodified-Since: BEFORE            | "v2"   | true  | true  | PROCEED

            # If-Range: strong tag or exact date, only with Range, only for GET and HEAD
            GET     | Range: bytes=0-1;If-Range: "v2"        | "v2"   | true  | true  | PROCEED
            GET     | Range: bytes=0-1;If-Range: "v1"        | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: W/"v2"      | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: W/"v2"      | W/"v2" | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: "v2"        | W/"v2" | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: "v2"        |        | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: "v2" x      | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: "v2", "v2"  | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: ,"v2"       | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: T           | "v2"   | true  | true  | PROCEED
            GET     | Range: bytes=0-1;If-Range: AFTER       | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: BEFORE      | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: tomorrow    | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: T           | "v2"   | false | true  | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Range: "v2";If-Range: "v2" | "v2" | true | true | PROCEED_IGNORING_RANGE
            HEAD    | Range: bytes=0-1;If-Range: "v1"        | "v2"   | true  | true  | PROCEED_IGNORING_RANGE
            GET     | If-Range: "v1"                         | "v2"   | true  | true  | PROCEED
            POST    | Range: bytes=0-1;If-Range: "v1"        | "v2"   | true  | true  | PROCEED
            GET     | Range: bytes=0-1                       | "v2"   | true  | true  | PROCEED
            GET     | Range: bytes=0-1;If-None-Match: "v2";If-Range: "v1" | "v2" | true | true | NOT_MODIFIED
            GET     | Range: bytes=0-1;If-Match: "v2";If-Range: "v1"     | "v2" | true | true | PROCEED_IGNORING_RANGE
            GET     | Range: bytes=0-1;If-Modified-Since: BEFORE;If-Range: T | "v2" | true | true | PROCEED
            """)
    void evaluatesInTheOrderOfRfc9110(String method, String requestFields, String currentTag, boolean hasTime,
            boolean exists, String expected) {
        HttpFields fields = fields(requestFields);
        EntityTag tag = currentTag == null ? null : EntityTag.parse(currentTag);
        long lastModified = hasTime ? parseDate(T) + 700 : -1;
        Preconditions.Evaluation evaluation = preconditions.evaluate(method, fields, tag, lastModified, exists);
        assertSame(constant(expected), evaluation, evaluation::toString);
    }

    @Test
    void resultsCarryTheirStatus() {
        assertEquals(200, Preconditions.Result.PROCEED.status());
        assertEquals(304, Preconditions.Result.NOT_MODIFIED.status());
        assertEquals(412, Preconditions.Result.PRECONDITION_FAILED.status());
        assertTrue(Preconditions.Evaluation.PROCEED_IGNORING_RANGE.ignoreRange());
        assertThrows(IllegalArgumentException.class,
                () -> new Preconditions.Evaluation(Preconditions.Result.NOT_MODIFIED, true));
    }

    @Test
    void aDateAtTheStartOfTheSecondIsNotModifiedSinceItself() {
        long exact = parseDate(T);
        HttpFields fields = HttpFields.of(new HttpField(HttpHeader.IF_MODIFIED_SINCE, T));
        assertSame(Preconditions.Evaluation.NOT_MODIFIED, preconditions.evaluate("GET", fields, null, exact, true));
        assertSame(Preconditions.Evaluation.NOT_MODIFIED, preconditions.evaluate("GET", fields, null, exact + 999, true));
        assertSame(Preconditions.Evaluation.PROCEED, preconditions.evaluate("GET", fields, null, exact + 1000, true));
    }

    @Test
    void hugeHostileTagListsTakeLinearTime() {
        EntityTag current = EntityTag.parse("\"v2\"");
        LinearTime.assertLinear("lists of 50,000 entity tags", 50_000, tags -> {
            String matching = "\"x\", ".repeat(tags) + "\"v2\"";
            String malformed = "\"x\", ".repeat(tags) + "x";
            return () -> {
                assertSame(Preconditions.Evaluation.NOT_MODIFIED, preconditions.evaluate("GET",
                        HttpFields.of(new HttpField(HttpHeader.IF_NONE_MATCH, matching)), current, -1, true));
                assertSame(Preconditions.Evaluation.PRECONDITION_FAILED, preconditions.evaluate("GET",
                        HttpFields.of(new HttpField(HttpHeader.IF_MATCH, malformed)), current, -1, true));
            };
        });
    }

    private static Preconditions.Evaluation constant(String name) {
        return switch (name) {
            case "PROCEED" -> Preconditions.Evaluation.PROCEED;
            case "PROCEED_IGNORING_RANGE" -> Preconditions.Evaluation.PROCEED_IGNORING_RANGE;
            case "NOT_MODIFIED" -> Preconditions.Evaluation.NOT_MODIFIED;
            case "PRECONDITION_FAILED" -> Preconditions.Evaluation.PRECONDITION_FAILED;
            default -> throw new IllegalArgumentException("no such evaluation: " + name);
        };
    }

    private static HttpFields fields(String lines) {
        HttpFields.Mutable fields = HttpFields.build();
        if (lines == null) {
            return fields;
        }
        for (String line : lines.split(";")) {
            int colon = line.indexOf(':');
            String value = switch (line.substring(colon + 1).trim()) {
                case "T" -> T;
                case "BEFORE" -> BEFORE;
                case "AFTER" -> AFTER;
                case String other -> other;
            };
            fields.add(line.substring(0, colon).trim(), value);
        }
        return fields;
    }

    /** A stand-in for the HTTP-date parser: IMF-fixdate only, -1 for anything else. */
    private static long parseDate(String value) {
        try {
            return ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
        } catch (DateTimeParseException e) {
            return -1;
        }
    }
}
