package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class JsonReaderTest {

    @Test
    void readsEveryKindOfValue() {
        Object value = JsonReader.read("""
                {"a": [1, -2.5e3, true, false, null], "b": {"c": "x\\"y\\\\z\\n\\u00e9"}, "": []}
                """);
        Map<?, ?> object = (Map<?, ?>) value;
        assertEquals(Arrays.asList(1.0, -2500.0, true, false, null), object.get("a"));
        assertEquals(Map.of("c", "x\"y\\z\né"), object.get("b"));
        assertEquals(List.of(), object.get(""));
        assertNull(JsonReader.read(" null "));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "{", "[1,]", "{\"a\" 1}", "{a: 1}", "01", "1.", "\"open", "tru", "[1] 2", "\"\\x\"", "\"tab\there\""})
    void refusesBadJsonNamingWhere(String text) {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> JsonReader.read(text));
        assertTrue(failure.getMessage().startsWith("bad JSON: expected "), failure.getMessage());
        assertTrue(failure.getMessage().contains(" at offset "), failure.getMessage());
    }

    @Test
    void boundsNesting() {
        IllegalArgumentException failure = assertThrows(IllegalArgumentException.class, () -> JsonReader.read("[".repeat(100_000)));
        assertTrue(failure.getMessage().contains("levels of nesting"), failure.getMessage());
    }
}
