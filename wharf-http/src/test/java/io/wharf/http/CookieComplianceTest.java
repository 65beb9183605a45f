package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.EnumSet;
import java.util.Set;

import io.wharf.http.CookieCompliance.Violation;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CookieComplianceTest {

    @Test
    void namedModesAllowWhatTheirDocumentationSays() {
        assertEquals(Set.of(Violation.INVALID_COOKIES), CookieCompliance.RFC6265.getAllowed());
        assertEquals(EnumSet.of(Violation.INVALID_COOKIES, Violation.ATTRIBUTES, Violation.OPTIONAL_WHITE_SPACE,
                Violation.SPACE_IN_VALUES, Violation.COMMA_NOT_VALID_OCTET, Violation.SPECIAL_CHARS_IN_QUOTES,
                Violation.ESCAPE_IN_QUOTES, Violation.BAD_QUOTES), CookieCompliance.RFC6265_LEGACY.getAllowed());
        assertEquals(EnumSet.allOf(Violation.class), CookieCompliance.RFC2965.getAllowed());
        assertFalse(CookieCompliance.RFC6265_LEGACY.allows(Violation.STRIPPED_QUOTES));
        assertTrue(CookieCompliance.RFC2965.allows(Violation.COMMA_SEPARATOR));
        assertThrows(UnsupportedOperationException.class, () -> CookieCompliance.RFC6265.getAllowed().add(Violation.BAD_QUOTES));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            RFC6265                                  | RFC6265                                  | INVALID_COOKIES
            rfc6265                                  | RFC6265                                  | INVALID_COOKIES
            RFC6265,+SPACE_IN_VALUES                 | RFC6265,+SPACE_IN_VALUES                 | INVALID_COOKIES SPACE_IN_VALUES
            RFC6265, -invalid_cookies                | RFC6265, -invalid_cookies                | ''
            RFC2965,-COMMA_SEPARATOR,-STRIPPED_QUOTES,-ATTRIBUTE_VALUES,-ATTRIBUTES,-BAD_QUOTES,-ESCAPE_IN_QUOTES,-SPECIAL_CHARS_IN_QUOTES,-SPACE_IN_VALUES,-OPTIONAL_WHITE_SPACE,-COMMA_NOT_VALID_OCTET | RFC2965,-COMMA_SEPARATOR,-STRIPPED_QUOTES,-ATTRIBUTE_VALUES,-ATTRIBUTES,-BAD_QUOTES,-ESCAPE_IN_QUOTES,-SPECIAL_CHARS_IN_QUOTES,-SPACE_IN_VALUES,-OPTIONAL_WHITE_SPACE,-COMMA_NOT_VALID_OCTET | INVALID_COOKIES
            """)
    void readsAModeAndItsChangesFromConfiguration(String spec, String name, String allowed) {
        CookieCompliance mode = CookieCompliance.from(spec);
        assertEquals(name, mode.getName());
        EnumSet<Violation> expected = EnumSet.noneOf(Violation.class);
        for (String violation : allowed.split(" ")) {
            if (!violation.isEmpty()) {
                expected.add(Violation.valueOf(violation));
            }
        }
        assertEquals(expected, mode.getAllowed());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', textBlock = """
            RFC7230                 | unknown cookie compliance mode "RFC7230"; known: RFC6265, RFC6265_LEGACY, RFC2965
            ''                      | unknown cookie compliance mode ""; known: RFC6265, RFC6265_LEGACY, RFC2965
            RFC6265,SPACE_IN_VALUES | cookie compliance change "SPACE_IN_VALUES" is not +VIOLATION or -VIOLATION
            RFC6265,+               | cookie compliance change "+" is not +VIOLATION or -VIOLATION
            RFC6265,+SPACES         | unknown cookie compliance violation "SPACES"
            """)
    void refusesUnknownModesAndViolationsByName(String spec, String message) {
        assertEquals(message, assertThrows(IllegalArgumentException.class, () -> CookieCompliance.from(spec)).getMessage());
    }

    @Test
    void customModesNeedAName() {
        CookieCompliance mode = CookieCompliance.of("MINE", EnumSet.of(Violation.BAD_QUOTES));
        assertEquals("MINE", mode.getName());
        assertEquals(Set.of(Violation.BAD_QUOTES), mode.getAllowed());
        assertEquals(Set.of(), CookieCompliance.of("NONE", Set.of()).getAllowed());
        assertEquals("cookie compliance mode name is empty",
                assertThrows(IllegalArgumentException.class, () -> CookieCompliance.of(" ", Set.of())).getMessage());
    }

    @Test
    void everyViolationNamesItsStandardAndSaysWhatThePeerDid() {
        for (Violation violation : Violation.values()) {
            assertEquals(violation.name(), violation.getName());
            assertTrue(violation.getStandard().startsWith("RFC "), violation.getStandard());
            assertFalse(violation.getDescription().isBlank());
        }
    }
}
