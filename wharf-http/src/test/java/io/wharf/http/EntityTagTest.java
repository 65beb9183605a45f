package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EntityTagTest {

    static Stream<Arguments> wellFormed() {
        return Stream.of(
                Arguments.of("\"xyzzy\"", "xyzzy", false),
                Arguments.of("W/\"xyzzy\"", "xyzzy", true),
                Arguments.of("\"\"", "", false),
                Arguments.of("W/\"\"", "", true),
                Arguments.of("\"a,b\"", "a,b", false),
                Arguments.of("\"a\\\"", "a\\", false),
                Arguments.of("\"!#~\"", "!#~", false),
                Arguments.of("\"caf\u00e9\"", "caf\u00e9", false),
                Arguments.of("\"W/x\"", "W/x", false));
    }

    @ParameterizedTest
    @MethodSource("wellFormed")
    void parsesWellFormedTagsAndWritesThemBack(String value, String opaque, boolean weak) {
        EntityTag tag = EntityTag.parse(value);
        assertEquals(new EntityTag(opaque, weak), tag);
        assertEquals(value, tag.asString());
        assertEquals(value, tag.toString());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            ''                 | must start with
            'xyzzy'            | must start with a double quote at index 0
            ' "a"'             | must start with
            '"a" '             | characters after the closing quote at index 3
            '"a"b'             | expected a comma after an entity tag at index 3
            '"a","b"'          | characters after the closing quote at index 3
            '"a'               | no closing double quote at index 2
            '"a b"'            | character 0x20 is not allowed in an entity tag at index 2
            'w/"a"'            | must start with a double quote at index 0
            'W"a"'             | not followed by '/' at index 0
            'W/ "a"'           | must start with a double quote at index 2
            '*'                | must be the whole field value
            ',"a"'             | must start with
            """)
    void rejectsMalformedTagsNamingTheProblem(String value, String problem) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> EntityTag.parse(value));
        assertTrue(failure.getMessage().contains(problem), failure.getMessage());
    }

    @ParameterizedTest
    @ValueSource(chars = {'\u0000', '\r', '\n', '\u007f', '\u0100', '\u20ac'})
    void problemMessagesNeverRepeatTheBadCharacter(char bad) {
        String value = "\"a" + bad + "\"";
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> EntityTag.parse(value));
        assertFalse(failure.getMessage().indexOf(bad) >= 0, failure.getMessage());
        assertTrue(failure.getMessage().contains(String.format("0x%02X", (int) bad)), failure.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new EntityTag("a" + bad, false));
    }

    @Test
    void constructorRefusesQuotesAndBlanksInTheOpaquePart() {
        assertThrows(IllegalArgumentException.class, () -> new EntityTag("a\"b", false));
        assertThrows(IllegalArgumentException.class, () -> new EntityTag("a b", true));
        assertThrows(IllegalArgumentException.class, () -> new EntityTag(null, true));
    }

    static Stream<Arguments> lists() {
        return Stream.of(
                Arguments.of("\"a\"", List.of(new EntityTag("a", false))),
                Arguments.of("\"a\", W/\"b\"", List.of(new EntityTag("a", false), new EntityTag("b", true))),
                Arguments.of("\"a\",W/\"b\",\"c\"", List.of(
                        new EntityTag("a", false), new EntityTag("b", true), new EntityTag("c", false))),
                Arguments.of(" ,, \"a,b\" ,\t, \"c\" , ", List.of(new EntityTag("a,b", false), new EntityTag("c", false))),
                Arguments.of("\"a\\\", \"b\"", List.of(new EntityTag("a\\", false), new EntityTag("b", false))));
    }

    @ParameterizedTest
    @MethodSource("lists")
    void parsesListsWithBlanksAndEmptyElements(String value, List<EntityTag> expected) {
        assertEquals(expected, EntityTag.parseList(value));
        assertFalse(EntityTag.isAny(value));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            ''              | holds no entity tag
            ' , ,'          | holds no entity tag
            '*'             | must be the whole field value
            '"a", *'        | must be the whole field value
            '"a" "b"'       | expected a comma after an entity tag at index 4
            '"a", b'        | must start with a double quote at index 5
            '"a", "b'       | no closing double quote
            """)
    void rejectsMalformedLists(String value, String problem) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> EntityTag.parseList(value));
        assertTrue(failure.getMessage().contains(problem), failure.getMessage());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            '*'      | true
            ' * '    | true
            '\t*'    | true
            '**'     | false
            '"*"'    | false
            '*, "a"' | false
            ''       | false
            """)
    void recognisesTheAnyValue(String value, boolean any) {
        assertEquals(any, EntityTag.isAny(value.replace("\\t", "\t")));
    }

    /** RFC 9110 section 8.8.3.2, the table of examples. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '\'', textBlock = """
            'W/"1"' | 'W/"1"' | false | true
            'W/"1"' | 'W/"2"' | false | false
            'W/"1"' | '"1"'   | false | true
            '"1"'   | '"1"'   | true  | true
            '"1"'   | '"2"'   | false | false
            """)
    void comparesAsTheRfcTableSays(String one, String two, boolean strong, boolean weak) {
        EntityTag a = EntityTag.parse(one);
        EntityTag b = EntityTag.parse(two);
        assertEquals(strong, a.strongMatch(b));
        assertEquals(strong, b.strongMatch(a));
        assertEquals(weak, a.weakMatch(b));
        assertEquals(weak, b.weakMatch(a));
    }

    @Test
    void fileTagsFollowLengthAndTime() {
        EntityTag tag = EntityTag.ofFile(1_700_000_000_123L, 1234, false);
        assertEquals("\"ya-loyw3v5n\"", tag.asString());
        assertEquals(tag, EntityTag.ofFile(1_700_000_000_123L, 1234, false));
        assertNotEquals(tag, EntityTag.ofFile(1_700_000_000_124L, 1234, false));
        assertNotEquals(tag, EntityTag.ofFile(1_700_000_000_123L, 1235, false));
        assertEquals("W/\"0-0\"", EntityTag.ofFile(0, 0, true).asString());
        EntityTag beforeEpoch = EntityTag.ofFile(-1000, 5, false);
        assertFalse(beforeEpoch.opaque().contains(EntityTag.VARIANT_SEPARATOR), beforeEpoch.opaque());
        assertEquals(beforeEpoch, EntityTag.parse(beforeEpoch.asString()));
        assertThrows(IllegalArgumentException.class, () -> EntityTag.ofFile(0, -1, false));
    }

    @Test
    void variantsHaveTheirOwnTagOfTheSameStrength() {
        EntityTag file = EntityTag.ofFile(1_700_000_000_000L, 1234, false);
        EntityTag gzip = file.withVariant("gzip");
        EntityTag brotli = file.withVariant("br");
        assertEquals(file.opaque() + "--gzip", gzip.opaque());
        assertEquals("\"" + file.opaque() + "--br\"", brotli.asString());
        assertFalse(gzip.weakMatch(file));
        assertFalse(gzip.weakMatch(brotli));
        assertTrue(EntityTag.ofFile(0, 1, true).withVariant("zstd").weak());
        assertEquals(gzip, EntityTag.parse(gzip.asString()));
        assertThrows(IllegalArgumentException.class, () -> file.withVariant(""));
        assertThrows(IllegalArgumentException.class, () -> file.withVariant("g zip"));
        assertThrows(IllegalArgumentException.class, () -> file.withVariant("gz\"ip"));
    }
}
