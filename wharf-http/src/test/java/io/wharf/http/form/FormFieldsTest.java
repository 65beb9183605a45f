package io.wharf.http.form;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

class FormFieldsTest {

    @Test
    void keepsNamesInFirstSeenOrderAndValuesInAddedOrder() {
        FormFields fields = new FormFields().add("b", "1").add("a", "2").add("b", "3");
        assertEquals(List.of("b", "a"), List.copyOf(fields.getNames()));
        assertEquals(List.of("1", "3"), fields.getValues("b"));
        assertEquals("1", fields.getValue("b"));
        assertEquals(2, fields.size());
        assertEquals(3, fields.fieldCount());
        assertEquals("{b=[1, 3], a=[2]}", fields.toString());
    }

    @Test
    void missingNamesAndCase() {
        FormFields fields = new FormFields().add("Name", "x");
        assertNull(fields.getValue("name"), "names compare exactly");
        assertEquals(List.of(), fields.getValues("name"));
        assertFalse(fields.contains("name"));
        assertTrue(fields.contains("Name"));
        assertTrue(new FormFields().isEmpty());
    }

    @Test
    void viewsAreUnmodifiableAndFollowTheForm() {
        FormFields fields = new FormFields().add("a", "1");
        Map<String, List<String>> map = fields.asMap();
        Set<String> names = fields.getNames();
        assertThrows(UnsupportedOperationException.class, () -> map.put("b", List.of()));
        assertThrows(UnsupportedOperationException.class, () -> map.get("a").add("2"));
        assertThrows(UnsupportedOperationException.class, () -> map.values().iterator().next().add("2"));
        assertThrows(UnsupportedOperationException.class, () -> fields.getValues("a").add("2"));
        assertThrows(UnsupportedOperationException.class, () -> names.remove("a"));
        fields.add("a", "2").add("c", "3");
        assertEquals(Map.of("a", List.of("1", "2"), "c", List.of("3")), map);
        assertEquals(Set.of("a", "c"), names);
    }

    @Test
    void equalityFollowsNamesAndValues() {
        assertEquals(new FormFields().add("a", "1"), new FormFields().add("a", "1"));
        assertEquals(new FormFields().add("a", "1").hashCode(), new FormFields().add("a", "1").hashCode());
        assertNotEquals(new FormFields().add("a", "1"), new FormFields().add("a", "2"));
    }

    @Test
    void refusesNulls() {
        assertThrows(NullPointerException.class, () -> new FormFields().add(null, "x"));
        assertThrows(NullPointerException.class, () -> new FormFields().add("x", null));
    }
}
