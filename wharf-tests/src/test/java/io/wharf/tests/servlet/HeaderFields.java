package io.wharf.tests.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The header (or trailer) fields of a raw response, in the order they came, names compared
 * without regard to case. Values are kept as sent, less the white space around them.
 */
final class HeaderFields {

    private final List<Map.Entry<String, String>> fields = new ArrayList<>();

    void add(String name, String value) {
        fields.add(Map.entry(name, value.strip()));
    }

    /** @return the first value of {@code name}, or null when there is none */
    String get(String name) {
        List<String> values = all(name);
        return values.isEmpty() ? null : values.getFirst();
    }

    /** @return every value of {@code name}, in order: one per field line */
    List<String> all(String name) {
        List<String> values = new ArrayList<>();
        for (Map.Entry<String, String> field : fields) {
            if (field.getKey().equalsIgnoreCase(name)) {
                values.add(field.getValue());
            }
        }
        return values;
    }

    /** @return whether a field {@code name} has {@code token} in its comma-separated values, case ignored */
    boolean hasToken(String name, String token) {
        for (String value : all(name)) {
            for (String element : value.split(",")) {
                if (element.strip().toLowerCase(Locale.ROOT).equals(token)) {
                    return true;
                }
            }
        }
        return false;
    }

    List<Map.Entry<String, String>> asList() {
        return List.copyOf(fields);
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        fields.forEach(field -> text.append(field.getKey()).append(": ").append(field.getValue()).append('\n'));
        return text.toString();
    }
}
