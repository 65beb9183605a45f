package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class QualityListTest {

    /** The example of RFC 9110 section 12.5.1. */
    private static final String RFC_ACCEPT = "text/*;q=0.3, text/html;q=0.7, text/html;level=1, text/html;level=2;q=0.4, */*;q=0.5";

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            gzip                                         | gzip
            ' gzip , , deflate ,'                        | gzip,deflate
            gzip;q=0.5, br                               | br,gzip
            a;q=0.5, b;q=0.5, c;q=0.5                    | a,b,c
            c;q=0.5, b;q=0.5, a;q=0.5                    | c,b,a
            */*, text/*, text/html                       | text/html,text/*,*/*
            */*;q=0.8, text/*;q=0.8, text/html;q=0.9     | text/html,text/*,*/*
            text/html, text/html;level=1                 | text/html,text/html
            '*, gzip'                                    | gzip,*
            gzip;q=0, br                                 | br
            gzip;q=0, *;q=0                              | ''
            gzip;q=0.000                                 | ''
            en-GB;q=0.8, fr, en;q=0.9                    | fr,en,en-GB
            gzip;Q=0.5, br;q=0.4                         | gzip,br
            gzip;q=0.5;q=1, br;q=0.6                     | br,gzip
            gzip ; q = 0.5 , br ; q=0.6                  | br,gzip
            ';q=0.5, , ;level=1'                         | ''
            '"a,b";q=0.4, c'                             | c,"a,b"
            """)
    void ordersValuesByQualityThenSpecificityThenOrderReceived(String header, String expected) {
        assertEquals(expected, String.join(",", QualityList.parse(header).getValues()));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            q=0           | 0
            q=0.          | 0
            q=0.5         | 500
            q=0.05        | 50
            q=0.123       | 123
            q=0.999       | 999
            q=1           | 1000
            q=1.          | 1000
            q=1.0         | 1000
            q=1.000       | 1000
            Q=0.7         | 700
            q=0.1234      | 0
            q=1.001       | 0
            q=1.0000      | 0
            q=2           | 0
            q=01          | 0
            q=.5          | 0
            q=-0.5        | 0
            q=+1          | 0
            q=0 .5        | 0
            q=1e0         | 0
            q=0.5x        | 0
            q=            | 0
            q             | 0
            q="0.5"       | 0
            q=0.5;q=0.1   | 500
            level=1       | 1000
            qq=0.5        | 1000
            """)
    void readsWeightsStrictlyAndRefusesAnElementWithAnInvalidOne(String parameter, int expected) {
        QualityList list = QualityList.parse("gzip;" + parameter);
        assertEquals(1, list.getEntries().size());
        assertEquals(expected, list.getEntries().get(0).quality());
        assertEquals(expected, list.getQuality("gzip;" + parameter));
        assertEquals(expected == 0, list.getEntries().get(0).isRefused());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            text/html;level=1          | 1000
            text/html                  | 700
            text/plain                 | 300
            image/jpeg                 | 500
            text/html;level=2          | 400
            text/html;level=3          | 700
            TEXT/HTML;LEVEL=1          | 1000
            text/html;charset=utf-8    | 700
            """)
    void matchesTheMostSpecificMediaRangeAsInTheRfcExample(String candidate, int expected) {
        assertEquals(expected, QualityList.parse(RFC_ACCEPT).getQuality(candidate));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            text/html                       | text/html        | 1000
            text/html                       | text/plain       | 0
            text/*                          | text/plain       | 1000
            text/*                          | textual/plain    | 0
            text/*                          | application/json | 0
            text/*;q=0.2, */*;q=0.1         | text/css         | 200
            text/*;q=0.2, */*;q=0.1         | image/png        | 100
            */*;q=0.1, text/*;q=0           | text/css         | 0
            */*;q=0.1, text/*;q=0           | image/png        | 100
            *                               | image/png        | 1000
            image/png;q=0, */*              | image/png        | 0
            image/png;q=0, */*              | IMAGE/PNG        | 0
            image/png;q=0, */*, image/png   | image/png        | 0
            image/png, image/png;q=0        | image/png        | 1000
            text/html;charset=utf-8         | text/html        | 0
            text/html;charset=UTF-8         | text/html;charset=utf-8 | 1000
            text/html;charset="utf-8"       | text/html;charset=utf-8 | 1000
            gzip                            | gzip             | 1000
            GZIP                            | gzip             | 1000
            gzip                            | br               | 0
            gzip;q=0, *                     | gzip             | 0
            gzip;q=0, *                     | br               | 1000
            gzip                            | identity         | 1
            ''                              | identity         | 1
            ''                              | gzip             | 0
            identity;q=0                    | identity         | 0
            *;q=0                           | identity         | 0
            *;q=0, identity;q=0.5           | identity         | 500
            *;q=0.3                         | identity         | 300
            gzip                            | text/html        | 0
            """)
    void matchesWildcardsTokensAndIdentity(String header, String candidate, int expected) {
        QualityList list = QualityList.parse(header);
        assertEquals(expected, list.getQuality(candidate));
        assertEquals(expected > 0, list.isAcceptable(candidate));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8 | text/html application/json text/plain | text/html
            application/json, text/plain, */*                                | text/html application/json text/plain | application/json
            */*                                                              | text/html application/json text/plain | text/html
            text/plain;q=0.9, application/json;q=0.8                         | text/html application/json text/plain | text/plain
            image/*                                                          | text/html application/json text/plain | NULL
            text/*;q=0.5, */*;q=0.5                                          | application/json text/plain           | text/plain
            gzip, deflate, br                                                | br gzip identity                      | br
            gzip;q=0.9, br;q=0.8                                             | br gzip identity                      | gzip
            gzip;q=0                                                         | gzip identity                         | identity
            br                                                               | gzip identity                         | identity
            identity;q=0, gzip;q=0                                           | gzip identity                         | NULL
            *;q=0                                                            | gzip identity                         | NULL
            *;q=0, gzip                                                      | gzip identity                         | gzip
            *                                                                | br gzip identity                      | br
            """)
    void prefersTheBestCandidateThenTheMoreSpecificMatchThenTheServersOrder(String header, String candidates, String expected) {
        assertEquals(expected, QualityList.parse(header).preferred(Arrays.asList(candidates.split(" "))));
    }

    @Test
    void absentFieldAcceptsEverything() {
        QualityList absent = QualityList.parse(List.of());
        assertSame(QualityList.ABSENT, absent);
        assertSame(QualityList.ABSENT, QualityList.parse((String) null));
        assertEquals(1000, absent.getQuality("text/html"));
        assertEquals(1000, absent.getQuality("gzip"));
        assertEquals("application/json", absent.preferred(List.of("application/json", "text/html")));
        assertEquals(List.of(), absent.getValues());
        assertEquals(List.of(), absent.getEntries());
    }

    @Test
    void emptyFieldAcceptsOnlyIdentity() {
        QualityList empty = QualityList.parse(List.of(""));
        assertEquals(List.of(), empty.getEntries());
        assertFalse(empty.isAcceptable("gzip"));
        assertTrue(empty.isAcceptable("identity"));
        assertEquals("identity", empty.preferred(List.of("gzip", "identity")));
    }

    @Test
    void unmentionedIdentityIsAcceptableButNeverPreferredOverAListedCoding() {
        QualityList list = QualityList.parse("br;q=0.001");
        assertEquals(1, list.getQuality("identity"));
        assertEquals("br", list.preferred(List.of("identity", "br")));
    }

    @Test
    void joinsSeveralFieldsInOrder() {
        QualityList list = QualityList.parse(List.of("gzip;q=0.5, deflate;q=0.5", "br;q=0.5", "zstd"));
        assertEquals(List.of("zstd", "gzip", "deflate", "br"), list.getValues());
    }

    @Test
    void keepsParametersUnquotedWithoutTheWeightAndRespectsQuotedSeparators() {
        QualityList list = QualityList.parse(
                "text/html; Level=1 ;q=0.5; foo=\"a,b;c\\\"d\", text/plain;flag;x=\"\"");
        List<QualityList.Entry> entries = list.getEntries();
        assertEquals(2, entries.size());
        assertEquals(new QualityList.Entry("text/plain",
                List.of(new QualityList.Parameter("flag", ""), new QualityList.Parameter("x", "")), 1000), entries.get(0));
        assertEquals(new QualityList.Entry("text/html",
                List.of(new QualityList.Parameter("level", "1"), new QualityList.Parameter("foo", "a,b;c\"d")), 500), entries.get(1));
        assertEquals(500, list.getQuality("text/html;level=1;foo=\"a,b;c\\\"d\""));
        assertEquals(0, list.getQuality("text/html;level=1"));
    }

    @Test
    void anUnterminatedQuoteRunsToTheEndOfItsField() {
        QualityList list = QualityList.parse(List.of("a;x=\"b, c;q=0.1", "d"));
        assertEquals(List.of("a", "d"), list.getValues());
        assertEquals(new QualityList.Parameter("x", "\"b, c;q=0.1"), list.getEntries().get(0).parameters().get(0));
    }

    @Test
    void keepsAtMostTheBoundedNumbersOfEntriesAndParameters() {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < 100; i++) {
            header.append("e").append(i).append(";q=0.5,");
        }
        header.append("late");
        QualityList defaults = QualityList.parse(header.toString());
        assertEquals(QualityList.DEFAULT_MAX_ENTRIES, defaults.getEntries().size());
        assertEquals(0, defaults.getQuality("late"));
        assertEquals(500, defaults.getQuality("e63"));
        assertEquals(0, defaults.getQuality("e64"));

        QualityList small = QualityList.parse(List.of("a;p1=1;p2=2;p3=3;q=0.4;p4=4, b", "c"), 2, 2);
        assertEquals(List.of("b", "a"), small.getValues());
        assertEquals(List.of(new QualityList.Parameter("p1", "1"), new QualityList.Parameter("p2", "2")),
                small.getEntries().get(1).parameters());
        assertEquals(400, small.getEntries().get(1).quality());
        assertThrows(IllegalArgumentException.class, () -> QualityList.parse(List.of("a"), 0, 1));
        assertThrows(IllegalArgumentException.class, () -> QualityList.parse(List.of("a"), 1, -1));
    }

    /** The shapes of the ten fields: field {@code i} of {@code n} weights, elements or parameters. */
    static Stream<Arguments> hostileHeaders() {
        FieldShape repeatedWeight = (i, n) -> "text/html" + ";q=0.1".repeat(n);
        FieldShape manyElements = (i, n) -> {
            StringBuilder builder = new StringBuilder();
            for (int j = 0; j < n; j++) {
                builder.append(j == 0 ? "" : ",").append("t").append(i).append('-').append(j).append("/x;q=1");
            }
            return builder.toString();
        };
        FieldShape manyParameters = (i, n) -> "text/html" + ";p=1".repeat(n) + ";q=0.9, */*;q=0.1";
        FieldShape manyWeightsBeforeAWildcard = (i, n) -> "application/json" + ";q=1".repeat(n) + ",*/*;q=0.1";
        FieldShape quotedWeights = (i, n) -> "text/html;q=\"" + ",q=1".repeat(n) + "\"";
        return Stream.of(
                Arguments.of("text/html;q=0.1;q=0.1;...", repeatedWeight, "text/html", 100, "text/html"),
                Arguments.of("a;q=1,b;q=1,...", manyElements, "t0-0/x", 1000, "t0-0/x"),
                Arguments.of("text/html;p=1;...;q=0.9, */*;q=0.1", manyParameters, "text/html;p=1", 900, "application/json"),
                Arguments.of("application/json;q=1;q=1;...", manyWeightsBeforeAWildcard, "text/plain", 100, "application/json"),
                Arguments.of("text/html;q=\",q=1,...\"", quotedWeights, "text/html", 0, null));
    }

    /** Field {@code i} of a hostile shape, with {@code n} weights, elements or parameters. */
    @FunctionalInterface
    interface FieldShape {
        String field(int i, int n);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileHeaders")
    void answersTenFieldsOfFiveThousandWeightsInLinearTime(String shape, FieldShape field,
            String candidate, int expectedQuality, String expectedPreferred) {
        List<String> candidates = List.of("application/json", "text/html", "t0-0/x");
        // Ten fields of 5,000, then of 40,000.
        LinearTime.assertLinear(shape, 5_000, n -> {
            List<String> fields = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                fields.add(field.field(i, n));
            }
            return () -> {
                QualityList list = QualityList.parse(fields);
                assertEquals(expectedQuality, list.getQuality(candidate));
                assertEquals(expectedPreferred, list.preferred(candidates));
                assertTrue(list.getEntries().size() <= QualityList.DEFAULT_MAX_ENTRIES);
                for (QualityList.Entry entry : list.getEntries()) {
                    assertTrue(entry.parameters().size() <= QualityList.DEFAULT_MAX_PARAMETERS);
                }
            };
        });
    }

    @Test
    void listsAreImmutable() {
        QualityList list = QualityList.parse("a;x=1, b");
        assertThrows(UnsupportedOperationException.class, () -> list.getValues().add("c"));
        assertThrows(UnsupportedOperationException.class, () -> list.getEntries().clear());
        assertThrows(UnsupportedOperationException.class,
                () -> list.getEntries().get(1).parameters().add(new QualityList.Parameter("y", "2")));
        List<QualityList.Parameter> parameters = new ArrayList<>(List.of(new QualityList.Parameter("n", "v")));
        QualityList.Entry entry = new QualityList.Entry("v", parameters, 1);
        parameters.clear();
        assertEquals(1, entry.parameters().size());
        assertEquals(Collections.emptyList(), QualityList.parse("").getValues());
        assertThrows(IllegalArgumentException.class, () -> new QualityList.Entry("v", List.of(), 1001));
    }

    @Test
    void reportsNoCandidateWhenTheListIsEmpty() {
        assertNull(QualityList.parse("text/html").preferred(List.of()));
    }

    @Test
    void neverThrowsOnMangledLists() {
        java.util.Random random = new java.util.Random(11);
        String alphabet = "ab/*;,=q01.\"\\ \t";
        for (int i = 0; i < 20_000; i++) {
            StringBuilder header = new StringBuilder();
            for (int length = random.nextInt(40); length > 0; length--) {
                header.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            QualityList list = QualityList.parse(header.toString());
            for (QualityList.Entry entry : list.getEntries()) {
                assertTrue(entry.quality() >= 0 && entry.quality() <= 1000);
                assertFalse(entry.value().isBlank(), header::toString);
            }
            list.preferred(List.of("a/b", "a", "identity", header.toString()));
            MimeTypes.getCharsetFromContentType(header.toString());
        }
    }
}
