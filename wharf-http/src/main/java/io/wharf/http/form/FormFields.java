package io.wharf.http.form;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The fields of a form: an ordered multimap from names to values. Names keep the order in
 * which they first appeared, and each name's values keep the order in which they were added.
 * Names compare exactly (case matters), as browsers send them.
 *
 * <p>A {@link UrlEncodedParser} fills one while it parses, on the thread that feeds it;
 * {@link MultiPartForm#getFields(java.nio.charset.Charset)} builds one from the non-file
 * parts. It is not thread-safe: once filled it may be read from any thread that was handed
 * it safely, but it must not be changed while others read. It holds no buffers.
 */
public final class FormFields {

    private final Map<String, List<String>> values = new LinkedHashMap<>();
    private int fieldCount;

    /** An empty form. */
    public FormFields() {
    }

    /**
     * Appends {@code value} to the values of {@code name}.
     *
     * @return this form
     */
    public FormFields add(String name, String value) {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(value, "value");
        values.computeIfAbsent(name, ignored -> new ArrayList<>(1)).add(value);
        fieldCount++;
        return this;
    }

    /** @return every value of {@code name} in the order added; empty when there is none */
    public List<String> getValues(String name) {
        List<String> list = values.get(name);
        return list == null ? List.of() : Collections.unmodifiableList(list);
    }

    /** @return the first value of {@code name}, or null when there is none */
    public String getValue(String name) {
        List<String> list = values.get(name);
        return list == null ? null : list.get(0);
    }

    /** @return whether at least one value of {@code name} exists */
    public boolean contains(String name) {
        return values.containsKey(name);
    }

    /** @return the distinct names in the order they first appeared; unmodifiable */
    public Set<String> getNames() {
        return Collections.unmodifiableSet(values.keySet());
    }

    /** @return the number of distinct names */
    public int size() {
        return values.size();
    }

    /** @return the number of name and value pairs, counting every repeat of a name */
    public int fieldCount() {
        return fieldCount;
    }

    /** @return whether the form has no field */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * @return an unmodifiable view of the names and their unmodifiable value lists, in order;
     *     it follows later additions
     */
    public Map<String, List<String>> asMap() {
        return new UnmodifiableValuesView(values);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof FormFields form && values.equals(form.values);
    }

    @Override
    public int hashCode() {
        return values.hashCode();
    }

    @Override
    public String toString() {
        return values.toString();
    }

    /** A read-only map view whose value lists are read-only too. */
    private static final class UnmodifiableValuesView extends AbstractMap<String, List<String>> {

        private final Map<String, List<String>> values;

        UnmodifiableValuesView(Map<String, List<String>> values) {
            this.values = values;
        }

        @Override
        public List<String> get(Object key) {
            List<String> list = values.get(key);
            return list == null ? null : Collections.unmodifiableList(list);
        }

        @Override
        public boolean containsKey(Object key) {
            return values.containsKey(key);
        }

        @Override
        public int size() {
            return values.size();
        }

        @Override
        public Set<Entry<String, List<String>>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, List<String>>> iterator() {
                    Iterator<Entry<String, List<String>>> entries = values.entrySet().iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return entries.hasNext();
                        }

                        @Override
                        public Entry<String, List<String>> next() {
                            Entry<String, List<String>> entry = entries.next();
                            return Map.entry(entry.getKey(), Collections.unmodifiableList(entry.getValue()));
                        }
                    };
                }

                @Override
                public int size() {
                    return values.size();
                }
            };
        }
    }
}
