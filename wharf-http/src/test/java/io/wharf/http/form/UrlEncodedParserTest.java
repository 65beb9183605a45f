package io.wharf.http.form;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import io.wharf.http.BadMessageException;
import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class UrlEncodedParserTest {

    private static FormFields parseWhole(String form, Charset charset, FormLimits limits) {
        UrlEncodedParser parser = new UrlEncodedParser(charset, limits);
        parser.parse(ByteBuffer.wrap(form.getBytes(StandardCharsets.ISO_8859_1)), true);
        return parser.getFields();
    }

    private static FormFields parseWhole(String form) {
        return parseWhole(form, StandardCharsets.UTF_8, FormLimits.DEFAULT);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            # form (bytes as ISO-8859-1)  | fields
            a=1&b=2                        | {a=[1], b=[2]}
            a=&b=                          | {a=[], b=[]}
            a&b=2                          | {a=[], b=[2]}
            a                              | {a=[]}
            ''                             | {}
            &&a=1&&&b=2&                   | {a=[1], b=[2]}
            =x                             | {=[x]}
            =                              | {=[]}
            a=b=c                          | {a=[b=c]}
            a=x+y+                         | {a=[x y ]}
            a+b=1                          | {a b=[1]}
            a=x%20y                        | {a=[x y]}
            a=%2B%26%3d%25                 | {a=[+&=%]}
            %61%62=%63                     | {ab=[c]}
            a=1&a=2&b=3&a=4                | {a=[1, 2, 4], b=[3]}
            b=1&a=2&b=3                    | {b=[1, 3], a=[2]}
            name=J%C3%B6rg                 | {name=[Jörg]}
            name=JÃ¶rg                     | {name=[Jörg]}
            a=%FF                          | {a=[\\uFFFD]}
            a=%C3                          | {a=[\\uFFFD]}
            a=%00                          | {a=[\\u0000]}
            """)
    void parsesUtf8Forms(String form, String expected) {
        assertEquals(unescape(expected), parseWhole(form).toString());
    }

    /** CsvSource cannot carry non-printing characters, so rows spell them as {@code \\uXXXX}. */
    private static String unescape(String text) {
        StringBuilder builder = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            if (text.startsWith("\\u", i)) {
                builder.append((char) Integer.parseInt(text.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                builder.append(text.charAt(i));
            }
        }
        return builder.toString();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # form      | reason contains
            a=%         | ends inside a '%' escape
            a=%4        | ends inside a '%' escape
            %           | ends inside a '%' escape
            a=%G1       | two hex digits
            a=%4G       | two hex digits
            a=%%41      | two hex digits
            a=%-1&b=2   | two hex digits
            %zz=1       | two hex digits
            a=% 1       | two hex digits
            """)
    void badPercentEscapesAre400(String form, String reason) {
        BadMessageException failure = assertThrows(BadMessageException.class, () -> parseWhole(form));
        assertEquals(400, failure.getStatus());
        assertTrue(failure.getReason().contains(reason), failure.getReason());
    }

    @ParameterizedTest(name = "[{index}] {0} {1}")
    @CsvSource(delimiter = '|', textBlock = """
            # charset    | form          | fields
            UTF-8        | a=%C3%A9      | {a=[é]}
            UTF-8        | a=%E9         | {a=[\\uFFFD]}
            ISO-8859-1   | a=%E9         | {a=[é]}
            ISO-8859-1   | a=%C3%A9      | {a=[Ã©]}
            windows-1252 | a=%80         | {a=[€]}
            US-ASCII     | a=%41%E9      | {a=[A\\uFFFD]}
            """)
    void readsDecodedBytesInTheCharset(String charset, String form, String expected) {
        assertEquals(unescape(expected), parseWhole(form, Charset.forName(charset), FormLimits.DEFAULT).toString());
    }

    @ParameterizedTest
    @CsvSource({"UTF-16", "UTF-16BE", "UTF-32"})
    void refusesCharsetsThatDoNotKeepAscii(String charset) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class,
                () -> new UrlEncodedParser(Charset.forName(charset), FormLimits.DEFAULT));
        assertTrue(failure.getMessage().contains(charset), failure.getMessage());
    }

    private static final String SAMPLE = "first=J%C3%B6rg+M&empty=&flag&x=a%2Bb%26c&&first=2&%C3%A9t%C3%A9=%E2%82%AC";
    private static final String SAMPLE_FIELDS = "{first=[Jörg M, 2], empty=[], flag=[], x=[a+b&c], été=[€]}";

    static Stream<Integer> everyOffsetOfTheSample() {
        return IntStream.rangeClosed(0, SAMPLE.length()).boxed();
    }

    @ParameterizedTest
    @MethodSource("everyOffsetOfTheSample")
    void splitAtAnyByteGivesTheSameFields(int offset) {
        byte[] bytes = SAMPLE.getBytes(StandardCharsets.US_ASCII);
        UrlEncodedParser parser = new UrlEncodedParser();
        parser.parse(ByteBuffer.wrap(bytes, 0, offset), false);
        parser.parse(ByteBuffer.wrap(bytes, offset, bytes.length - offset), false);
        parser.parse(ByteBuffer.allocate(0), true);
        assertEquals(SAMPLE_FIELDS, parser.getFields().toString());
    }

    @Test
    void oneByteAtATimeGivesTheSameFields() {
        UrlEncodedParser parser = new UrlEncodedParser();
        for (byte b : SAMPLE.getBytes(StandardCharsets.US_ASCII)) {
            ByteBuffer chunk = ByteBuffer.allocateDirect(1).put(b).flip();
            parser.parse(chunk, false);
            assertEquals(0, chunk.remaining(), "the chunk is consumed");
        }
        parser.parse(ByteBuffer.allocate(0), true);
        assertEquals(SAMPLE_FIELDS, parser.getFields().toString());
    }

    @Test
    void readsTheChunkFromItsPositionToItsLimit() {
        ByteBuffer chunk = ByteBuffer.wrap("xxa=1&b=2yy".getBytes(StandardCharsets.US_ASCII));
        chunk.position(2).limit(9);
        UrlEncodedParser parser = new UrlEncodedParser();
        parser.parse(chunk, true);
        assertEquals("{a=[1], b=[2]}", parser.getFields().toString());
        assertEquals(9, chunk.position());
    }

    private static String pairs(int count) {
        StringBuilder form = new StringBuilder();
        for (int i = 0; i < count; i++) {
            form.append(i == 0 ? "" : "&").append('k').append(i).append("=v");
        }
        return form.toString();
    }

    @Test
    void thousandKeysPass() {
        FormFields fields = parseWhole(pairs(1000));
        assertEquals(1000, fields.size());
        assertEquals("v", fields.getValue("k999"));
    }

    @Test
    void keyThousandAndOneFailsAsItStarts() {
        UrlEncodedParser parser = new UrlEncodedParser();
        int failedAt = -1;
        BadMessageException failure = null;
        for (int i = 0; i < 1001 && failure == null; i++) {
            byte[] pair = ((i == 0 ? "" : "&") + "k" + i + "=v").getBytes(StandardCharsets.US_ASCII);
            try {
                // the separator of the pair arrives alone, so the failure must come with its first key byte
                parser.parse(ByteBuffer.wrap(pair, 0, i == 0 ? 0 : 1), false);
                parser.parse(ByteBuffer.wrap(pair, i == 0 ? 0 : 1, pair.length - (i == 0 ? 0 : 1)), false);
            } catch (BadMessageException thrown) {
                failure = thrown;
                failedAt = i;
            }
        }
        assertEquals(1000, failedAt, "zero-based index of the key that failed");
        assertEquals(413, failure.getStatus());
        assertTrue(failure.getReason().contains("maxKeys 1000"), failure.getReason());
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.allocate(0), true));
    }

    @Test
    void repeatsOfOneNameCountAsKeys() {
        BadMessageException failure = assertThrows(BadMessageException.class,
                () -> parseWhole("a=1&a=2&a=3", StandardCharsets.UTF_8, FormLimits.DEFAULT.withMaxKeys(2)));
        assertEquals(413, failure.getStatus());
        assertTrue(failure.getReason().contains("maxKeys 2"), failure.getReason());
    }

    @Test
    void emptyPairsDoNotCountAsKeys() {
        FormFields fields = parseWhole("&&a=1&&b=2&&", StandardCharsets.UTF_8, FormLimits.DEFAULT.withMaxKeys(2));
        assertEquals(2, fields.fieldCount());
    }

    @Test
    void tenMegabyteFieldWithoutAmpersandFailsAsSoonAsItPassesTheLimit() {
        UrlEncodedParser parser = new UrlEncodedParser();
        byte[] block = new byte[8192];
        Arrays.fill(block, (byte) 'a');
        parser.parse(ByteBuffer.wrap("field=".getBytes(StandardCharsets.US_ASCII)), false);
        long accepted = 6;
        BadMessageException failure = null;
        for (long fed = 6; fed < 10L * 1024 * 1024 && failure == null; fed += block.length) {
            try {
                parser.parse(ByteBuffer.wrap(block), false);
                accepted += block.length;
            } catch (BadMessageException thrown) {
                failure = thrown;
            }
        }
        assertEquals(413, failure == null ? 0 : failure.getStatus());
        assertTrue(failure.getReason().contains("maxContentBytes 200000"), failure.getReason());
        assertTrue(accepted <= 200_000, "accepted " + accepted);
        assertTrue(accepted > 200_000 - block.length, "accepted " + accepted);
    }

    @ParameterizedTest(name = "[{index}] limit {0}, content {1} bytes")
    @CsvSource({
        "10, 10, true",
        "10, 11, false",
        "0, 0, true",
        "0, 1, false",
        "-1, 300000, true",
    })
    void contentLimitIsInclusive(long maxContentBytes, int contentLength, boolean passes) {
        String form = "a=" + "b".repeat(Math.max(0, contentLength - 2));
        form = form.substring(0, contentLength);
        FormLimits limits = FormLimits.DEFAULT.withMaxContentBytes(maxContentBytes);
        String content = form;
        if (passes) {
            assertEquals(contentLength == 0 ? 0 : 1, parseWhole(content, StandardCharsets.UTF_8, limits).size());
        } else {
            BadMessageException failure = assertThrows(BadMessageException.class,
                    () -> parseWhole(content, StandardCharsets.UTF_8, limits));
            assertEquals(413, failure.getStatus());
            assertEquals("form content exceeds maxContentBytes " + maxContentBytes, failure.getReason());
        }
    }

    @Test
    void unlimitedKeys() {
        FormFields fields = parseWhole(pairs(5000), StandardCharsets.UTF_8, FormLimits.DEFAULT
                .withMaxKeys(-1).withMaxContentBytes(-1));
        assertEquals(5000, fields.size());
    }

    @ParameterizedTest
    @CsvSource({"-2, 0", "0, -2"})
    void limitsBelowMinusOneAreRefused(int maxKeys, long maxContentBytes) {
        assertThrows(IllegalArgumentException.class, () -> new FormLimits(maxKeys, maxContentBytes));
    }

    @Test
    void refusesUseOutOfOrder() {
        UrlEncodedParser parser = new UrlEncodedParser();
        parser.parse(ByteBuffer.wrap(new byte[] {'a'}), false);
        assertThrows(IllegalStateException.class, parser::getFields);
        parser.parse(ByteBuffer.allocate(0), true);
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.allocate(0), true));
        assertEquals(List.of(""), parser.getFields().getValues("a"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            # query                  | fields
            NULL                     | {}
            ''                       | {}
            q=wharf+server&page=2    | {q=[wharf server], page=[2]}
            q=é&r=%C3%A9             | {q=[é], r=[é]}
            """)
    void decodesQueryStrings(String query, String expected) {
        assertEquals(expected, UrlEncodedParser.decodeQuery(query, StandardCharsets.UTF_8, FormLimits.DEFAULT).toString());
    }

    @Test
    void queryStringsObeyTheLimits() {
        BadMessageException failure = assertThrows(BadMessageException.class,
                () -> UrlEncodedParser.decodeQuery("a&b&c", StandardCharsets.UTF_8, FormLimits.DEFAULT.withMaxKeys(2)));
        assertEquals(413, failure.getStatus());
    }

    @Test
    void adversarialEscapesParseInLinearTime() {
        FormLimits limits = FormLimits.DEFAULT.withMaxContentBytes(-1);
        LinearTime.assertLinear("a megabyte of escaped fields of one name", 200_000, fields -> {
            byte[] form = "a=%41".repeat(fields).getBytes(StandardCharsets.US_ASCII);
            return () -> {
                UrlEncodedParser parser = new UrlEncodedParser(StandardCharsets.UTF_8, limits);
                parser.parse(ByteBuffer.wrap(form), true);
                assertEquals(1, parser.getFields().size());
            };
        });
    }
}
