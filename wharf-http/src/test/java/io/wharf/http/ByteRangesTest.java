package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ByteRangesTest {

    /** Expected: the merged ranges, {@code 416}, or {@code ignore REASON}. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            # the examples of RFC 9110 section 14.1.2
            bytes=0-499                  | 10000 | 0-499
            bytes=500-999                | 10000 | 500-999
            bytes=-500                   | 10000 | 9500-9999
            bytes=9500-                  | 10000 | 9500-9999
            bytes=0-0,-1                 | 10000 | 0-0,9999-9999
            bytes=500-600,601-999        | 10000 | 500-999
            bytes=500-700,601-999        | 10000 | 500-999

            # clipping to the length
            bytes=0-99999                | 10000 | 0-9999
            bytes=9999-20000             | 10000 | 9999-9999
            bytes=-20000                 | 10000 | 0-9999
            bytes=0-                     | 10000 | 0-9999
            bytes=000-001                | 10000 | 0-1
            bytes=0-0,-1                 | 1     | 0-0
            bytes=-1                     | 1     | 0-0

            # sorting and merging
            bytes=9000-9999,0-99         | 10000 | 0-99,9000-9999
            bytes=10-19,0-9,30-39        | 10000 | 0-19,30-39
            bytes=0-9,5-                 | 10000 | 0-9999
            bytes=0-100,20-30            | 10000 | 0-100
            bytes=-100,0-10,9950-9960    | 10000 | 0-10,9900-9999

            # unsatisfiable: nothing starts inside the representation
            bytes=10000-                 | 10000 | 416
            bytes=10000-10001            | 10000 | 416
            bytes=-0                     | 10000 | 416
            bytes=10000-,-0,20000-30000  | 10000 | 416
            bytes=10000-,0-1             | 10000 | 0-1
            bytes=0-0                    | 0     | 416
            bytes=0-                     | 0     | 416
            bytes=-0                     | 0     | 416
            bytes=-5                     | 0     | ignore EMPTY_REPRESENTATION
            bytes=0-,-5                  | 0     | ignore EMPTY_REPRESENTATION

            # blanks and empty elements between ranges, unit in any case
            BYTES=0-1                    | 10000 | 0-1
            Bytes=0-1                    | 10000 | 0-1
            'bytes=0-1 , 3-4'            | 10000 | 0-1,3-4
            'bytes=0-1,\t3-4\t'          | 10000 | 0-1,3-4
            'bytes= 0-1'                 | 10000 | 0-1
            'bytes=,,0-1,, ,'            | 10000 | 0-1

            # malformed or another unit: ignore the field, serve 200
            'bytes = 0-1'                | 10000 | ignore MALFORMED
            'bytes =0-1'                 | 10000 | ignore MALFORMED
            'bytes=0 -1'                 | 10000 | ignore MALFORMED
            'bytes=0- 1'                 | 10000 | ignore MALFORMED
            'bytes=- 1'                  | 10000 | ignore MALFORMED
            bytes=1-0                    | 10000 | ignore MALFORMED
            bytes=20000-10000            | 10000 | ignore MALFORMED
            bytes=a-b                    | 10000 | ignore MALFORMED
            bytes=-                      | 10000 | ignore MALFORMED
            bytes=--5                    | 10000 | ignore MALFORMED
            bytes=0-1-2                  | 10000 | ignore MALFORMED
            bytes=0-1;x                  | 10000 | ignore MALFORMED
            bytes=+1-2                   | 10000 | ignore MALFORMED
            bytes=0x10-20                | 10000 | ignore MALFORMED
            bytes=1e3-                   | 10000 | ignore MALFORMED
            bytes=\u0661-\u0662          | 10000 | ignore MALFORMED
            bytes=0-1,garbage            | 10000 | ignore MALFORMED
            bytes=                       | 10000 | ignore MALFORMED
            'bytes=, ,'                  | 10000 | ignore MALFORMED
            =0-1                         | 10000 | ignore MALFORMED
            bytes                        | 10000 | ignore MALFORMED
            ''                           | 10000 | ignore MALFORMED
            'b y=0-1'                    | 10000 | ignore MALFORMED
            bytes==0-1                   | 10000 | ignore MALFORMED
            items=0-5                    | 10000 | ignore UNKNOWN_UNIT
            bytes2=0-5                   | 10000 | ignore UNKNOWN_UNIT
            byte=0-5                     | 10000 | ignore UNKNOWN_UNIT
            none=anything                | 10000 | ignore UNKNOWN_UNIT

            # numbers beyond a long neither throw nor lie
            bytes=123456789012345678901234567890-               | 10000 | 416
            bytes=0-123456789012345678901234567890              | 10000 | 0-9999
            bytes=-123456789012345678901234567890               | 10000 | 0-9999
            bytes=9223372036854775807-9223372036854775807       | 10000 | 416
            bytes=9223372036854775808-                          | 10000 | 416
            bytes=99999999999999999999998-99999999999999999999999 | 10000 | 416
            bytes=99999999999999999999999-99999999999999999999998 | 10000 | ignore MALFORMED
            bytes=00099999999999999999999-99999999999999999999999 | 10000 | 416
            bytes=100000000000000000000000-99999999999999999999999 | 10000 | ignore MALFORMED
            bytes=5-99999999999999999999999,-99999999999999999999999 | 10000 | 0-9999
            bytes=9223372036854775806-                          | 9223372036854775807 | 9223372036854775806-9223372036854775806
            bytes=-9223372036854775807                          | 9223372036854775807 | 0-9223372036854775806

            # abuse: too many ranges or overlaps (defaults 16 and 1)
            bytes=0-0,2-2,4-4,6-6,8-8,10-10,12-12,14-14,16-16,18-18,20-20,22-22,24-24,26-26,28-28,30-30 | 10000 | 0-0,2-2,4-4,6-6,8-8,10-10,12-12,14-14,16-16,18-18,20-20,22-22,24-24,26-26,28-28,30-30
            bytes=0-0,2-2,4-4,6-6,8-8,10-10,12-12,14-14,16-16,18-18,20-20,22-22,24-24,26-26,28-28,30-30,32-32 | 10000 | ignore TOO_MANY_RANGES
            bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8,9-9,10-10,11-11,12-12,13-13,14-14,15-15,16-16 | 10000 | ignore TOO_MANY_RANGES
            bytes=0-0,1-1,2-2,3-3,4-4,5-5,6-6,7-7,8-8,9-9,10-10,11-11,12-12,13-13,14-14,15-15 | 10000 | 0-15
            bytes=0-1,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,,2-3      | 10000 | 0-3
            bytes=0-10,5-15,8-20         | 10000 | ignore TOO_MANY_OVERLAPS
            bytes=0-0,0-0                | 10000 | 0-0
            bytes=0-0,0-0,0-0            | 10000 | ignore TOO_MANY_OVERLAPS
            bytes=0-,0-,0-               | 10000 | ignore TOO_MANY_OVERLAPS
            bytes=-1,-1,-1               | 10000 | ignore TOO_MANY_OVERLAPS
            bytes=0-9999,100-200         | 10000 | 0-9999
            bytes=0-9999,100-200,300-400 | 10000 | ignore TOO_MANY_OVERLAPS
            """)
    void answersRangeFields(String field, long length, String expected) {
        assertEquals(expected, describe(ByteRanges.parse(field.replace("\\t", "\t"), length)));
    }

    @Test
    void tooManyRangesWinsOverTheirBeingUnsatisfiable() {
        String ranges = IntStream.range(0, 17).mapToObj(i -> (20000 + i) + "-").collect(Collectors.joining(","));
        assertEquals("ignore TOO_MANY_RANGES", describe(ByteRanges.parse("bytes=" + ranges, 10000)));
        assertEquals("416", describe(ByteRanges.parse("bytes=" + ranges, 10000, new ByteRanges.Limits(17, 1))));
    }

    static Stream<Arguments> limited() {
        return Stream.of(
                Arguments.of(new ByteRanges.Limits(1, 0), "bytes=0-1", "0-1"),
                Arguments.of(new ByteRanges.Limits(1, 0), "bytes=0-1,5-6", "ignore TOO_MANY_RANGES"),
                Arguments.of(new ByteRanges.Limits(2, 0), "bytes=0-1,2-3", "0-3"),
                Arguments.of(new ByteRanges.Limits(2, 0), "bytes=0-5,3-9", "ignore TOO_MANY_OVERLAPS"),
                Arguments.of(new ByteRanges.Limits(3, 2), "bytes=0-10,5-15,8-20", "0-20"),
                Arguments.of(new ByteRanges.Limits(100, 100), "bytes=" + "0-0,".repeat(100), "0-0"),
                Arguments.of(new ByteRanges.Limits(100, 98), "bytes=" + "0-0,".repeat(100), "ignore TOO_MANY_OVERLAPS"));
    }

    @ParameterizedTest
    @MethodSource("limited")
    void limitsAreConfigurable(ByteRanges.Limits limits, String field, String expected) {
        assertEquals(expected, describe(ByteRanges.parse(field, 10000, limits)));
    }

    @Test
    void limitsAndLengthsAreChecked() {
        assertEquals(new ByteRanges.Limits(16, 1), ByteRanges.Limits.DEFAULT);
        assertThrows(IllegalArgumentException.class, () -> new ByteRanges.Limits(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new ByteRanges.Limits(1, -1));
        assertThrows(IllegalArgumentException.class, () -> ByteRanges.parse("bytes=0-1", -1));
        assertThrows(IllegalArgumentException.class, () -> ByteRanges.of(HttpFields.EMPTY, -1, ByteRanges.Limits.DEFAULT));
    }

    @Test
    void readsTheSingleRangeFieldOfARequest() {
        ByteRanges.Limits limits = ByteRanges.Limits.DEFAULT;
        assertEquals("ignore ABSENT", describe(ByteRanges.of(HttpFields.EMPTY, 100, limits)));
        HttpFields one = HttpFields.build().add("Accept", "*/*").add("range", "bytes=1-2");
        assertEquals("1-2", describe(ByteRanges.of(one, 100, limits)));
        HttpFields two = HttpFields.build().add("Range", "bytes=1-2").add("Range", "bytes=3-4");
        assertEquals("ignore MALFORMED", describe(ByteRanges.of(two, 100, limits)));
    }

    @Test
    void answersDescribeTheirResponse() {
        ByteRanges.Satisfiable one = (ByteRanges.Satisfiable) ByteRanges.parse("bytes=0-499", 1234);
        assertFalse(one.isMultiple());
        assertEquals(1234, one.length());
        assertEquals("bytes 0-499/1234", one.ranges().get(0).toContentRange(one.length()));
        ByteRanges.Satisfiable two = (ByteRanges.Satisfiable) ByteRanges.parse("bytes=0-0,-1", 1234);
        assertTrue(two.isMultiple());
        assertEquals(List.of(new ByteRange(0, 0), new ByteRange(1233, 1233)), two.ranges());
        assertEquals("bytes */1234", ((ByteRanges.Unsatisfiable) ByteRanges.parse("bytes=1234-", 1234)).contentRange());
    }

    @Test
    void satisfiableAnswersHoldSortedApartRangesWithinTheLength() {
        assertThrows(IllegalArgumentException.class, () -> new ByteRanges.Satisfiable(List.of(), 10));
        assertThrows(IllegalArgumentException.class,
                () -> new ByteRanges.Satisfiable(List.of(new ByteRange(5, 6), new ByteRange(0, 1)), 10));
        assertThrows(IllegalArgumentException.class,
                () -> new ByteRanges.Satisfiable(List.of(new ByteRange(0, 1), new ByteRange(2, 3)), 10));
        assertThrows(IllegalArgumentException.class, () -> new ByteRanges.Satisfiable(List.of(new ByteRange(0, 10)), 10));
        assertEquals(2, new ByteRanges.Satisfiable(List.of(new ByteRange(0, 1), new ByteRange(3, 9)), 10).ranges().size());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            0    | 499  | 1234 | 500  | bytes 0-499/1234
            0    | 0    | 1    | 1    | bytes 0-0/1
            1233 | 1233 | 1234 | 1    | bytes 1233-1233/1234
            """)
    void byteRangesKnowTheirLengthAndContentRange(long first, long last, long total, long length, String contentRange) {
        ByteRange range = new ByteRange(first, last);
        assertEquals(length, range.length());
        assertEquals(contentRange, range.toContentRange(total));
        assertEquals(first + "-" + last, range.toString());
    }

    @Test
    void byteRangesRefuseImpossibleBounds() {
        assertThrows(IllegalArgumentException.class, () -> new ByteRange(-1, 5));
        assertThrows(IllegalArgumentException.class, () -> new ByteRange(5, 4));
        assertThrows(IllegalArgumentException.class, () -> new ByteRange(0, 1234).toContentRange(1234));
    }

    @Test
    void hostileFieldsTakeLinearTime() {
        LinearTime.assertLinear("fields of 125 kB", 125_000, size -> {
            List<String> hostile = hostileFields(size);
            return () -> {
                for (String field : hostile) {
                    ByteRanges.parse(field, 10000);
                }
            };
        });
        List<String> fields = hostileFields(1_000_000);
        assertEquals("416", describe(ByteRanges.parse(fields.get(0), 10000)));
        assertEquals("0-1", describe(ByteRanges.parse(fields.get(1), 10000)));
        assertEquals("ignore MALFORMED", describe(ByteRanges.parse(fields.get(2), 10000)));
        assertEquals("0-1", describe(ByteRanges.parse(fields.get(3), 10000)));
        assertEquals("ignore TOO_MANY_RANGES", describe(ByteRanges.parse(fields.get(5), 10000)));
    }

    /** Long runs of digits, separators and garbage, about {@code size} bytes a field. */
    private static List<String> hostileFields(int size) {
        return List.of(
                "bytes=" + "9".repeat(size) + "-",
                "bytes=" + "0".repeat(size) + "-" + "0".repeat(size - 1) + "1",
                "bytes=" + "9".repeat(size / 2) + "-" + "9".repeat(size / 2 - 1) + "8",
                "bytes=" + ", ".repeat(size / 2) + "0-1",
                "bytes=" + "1-2,".repeat(16) + "x".repeat(size),
                "bytes=" + "0-0,".repeat(size * 3 / 10),
                "bytes".repeat(size / 5) + "=0-1",
                "=".repeat(size));
    }

    private static String describe(ByteRanges answer) {
        return switch (answer) {
            case ByteRanges.Ignored ignored -> "ignore " + ignored.reason();
            case ByteRanges.Unsatisfiable unsatisfiable -> "416";
            case ByteRanges.Satisfiable satisfiable ->
                    satisfiable.ranges().stream().map(ByteRange::toString).collect(Collectors.joining(","));
        };
    }
}
