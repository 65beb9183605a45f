package io.wharf.http;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

import io.wharf.http.internal.ArrayHttpFields;

/**
 * An ordered list of header or trailer fields, where a name may appear more than once.
 * Lookups by {@link HttpHeader} compare by identity; lookups by name ignore ASCII case.
 *
 * <p>This view has no mutators. {@link #build()} makes a {@link Mutable} list; its
 * {@link #asImmutable()} snapshot is immutable and may be shared between threads. A
 * request's fields are a read-only view of the connection's mutable list: valid until the
 * request completes, so take {@link #asImmutable()} to keep them longer.
 */
public interface HttpFields extends Iterable<HttpField> {

    /** No fields. */
    HttpFields EMPTY = build(0).asImmutable();

    /** @return an empty mutable list */
    static Mutable build() {
        return new ArrayHttpFields(12);
    }

    /** @return an empty mutable list with room for {@code capacity} fields before growing */
    static Mutable build(int capacity) {
        return new ArrayHttpFields(capacity);
    }

    /** @return a mutable copy of {@code fields} */
    static Mutable build(HttpFields fields) {
        ArrayHttpFields copy = new ArrayHttpFields(Math.max(fields.size(), 4));
        for (HttpField field : fields) {
            copy.add(field);
        }
        return copy;
    }

    /** @return an immutable list of {@code fields} */
    static HttpFields of(HttpField... fields) {
        Mutable list = build(fields.length);
        for (HttpField field : fields) {
            list.add(field);
        }
        return list.asImmutable();
    }

    /** @return the number of fields */
    int size();

    /**
     * @return the field at {@code index}, in the order received or added
     * @throws IndexOutOfBoundsException when there is no such field
     */
    HttpField getField(int index);

    /** @return an immutable snapshot (this list itself when it is already immutable) */
    HttpFields asImmutable();

    /** @return whether there is no field */
    default boolean isEmpty() {
        return size() == 0;
    }

    /** @return the first field of {@code header}, or null */
    default HttpField getField(HttpHeader header) {
        for (int i = 0, size = size(); i < size; i++) {
            HttpField field = getField(i);
            if (field.getHeader() == header) {
                return field;
            }
        }
        return null;
    }

    /** @return the first field named {@code name} (any case), or null */
    default HttpField getField(String name) {
        for (int i = 0, size = size(); i < size; i++) {
            HttpField field = getField(i);
            if (field.is(name)) {
                return field;
            }
        }
        return null;
    }

    /** @return the value of the first field of {@code header}, or null */
    default String get(HttpHeader header) {
        HttpField field = getField(header);
        return field == null ? null : field.getValue();
    }

    /** @return the value of the first field named {@code name}, or null */
    default String get(String name) {
        HttpField field = getField(name);
        return field == null ? null : field.getValue();
    }

    /** @return every field of {@code header}, in order; empty when none */
    default List<HttpField> getFields(HttpHeader header) {
        List<HttpField> fields = null;
        for (int i = 0, size = size(); i < size; i++) {
            HttpField field = getField(i);
            if (field.getHeader() == header) {
                if (fields == null) {
                    fields = new ArrayList<>(2);
                }
                fields.add(field);
            }
        }
        return fields == null ? List.of() : Collections.unmodifiableList(fields);
    }

    /** @return every field named {@code name}, in order; empty when none */
    default List<HttpField> getFields(String name) {
        List<HttpField> fields = new ArrayList<>(2);
        for (HttpField field : this) {
            if (field.is(name)) {
                fields.add(field);
            }
        }
        return Collections.unmodifiableList(fields);
    }

    /** @return the value of every field of {@code header}, one per field, in order */
    default List<String> getValuesList(HttpHeader header) {
        // One pass and one list, no stream: asked of every response (its Set-Cookie, its Content-Encoding).
        List<String> values = null;
        for (int i = 0, size = size(); i < size; i++) {
            HttpField field = getField(i);
            if (field.getHeader() == header) {
                if (values == null) {
                    values = new ArrayList<>(2);
                }
                values.add(field.getValue());
            }
        }
        return values == null ? List.of() : Collections.unmodifiableList(values);
    }

    /** @return the value of every field named {@code name}, one per field, in order */
    default List<String> getValuesList(String name) {
        List<String> values = null;
        for (int i = 0, size = size(); i < size; i++) {
            HttpField field = getField(i);
            if (field.is(name)) {
                if (values == null) {
                    values = new ArrayList<>(2);
                }
                values.add(field.getValue());
            }
        }
        return values == null ? List.of() : Collections.unmodifiableList(values);
    }

    /**
     * @return the comma-separated elements of every field of {@code header}, in order, as
     *     {@link HttpField#getValues()} splits them
     */
    default List<String> getCommaSeparated(HttpHeader header) {
        List<String> elements = new ArrayList<>();
        for (HttpField field : getFields(header)) {
            elements.addAll(field.getValues());
        }
        return elements;
    }

    /** @return whether a field of {@code header} exists */
    default boolean contains(HttpHeader header) {
        return getField(header) != null;
    }

    /** @return whether a field named {@code name} exists */
    default boolean contains(String name) {
        return getField(name) != null;
    }

    /** @return whether any field of {@code header} has the comma-separated element {@code token} */
    default boolean contains(HttpHeader header, String token) {
        for (int i = 0, size = size(); i < size; i++) {
            HttpField field = getField(i);
            if (field.getHeader() == header && field.contains(token)) {
                return true;
            }
        }
        return false;
    }

    /** @return whether {@code field} (same name, same value) is in the list */
    default boolean contains(HttpField field) {
        for (int i = 0, size = size(); i < size; i++) {
            if (getField(i).equals(field)) {
                return true;
            }
        }
        return false;
    }

    /**
     * @return the value of the first field of {@code header} as a non-negative number, or -1
     *     when there is none
     * @throws NumberFormatException when the value is not only digits
     */
    default long getLongField(HttpHeader header) {
        HttpField field = getField(header);
        return field == null ? -1 : field.getLongValue();
    }

    /**
     * @return the value of the first field named {@code name} (any case) read as an HTTP date by
     *     {@link HttpDateFormat#parse(String)}, in epoch milliseconds; -1 when there is no such
     *     field or its value is not an HTTP date (a valid date before 1970 is negative, never -1)
     */
    default long getDateField(String name) {
        return HttpDateFormat.parse(get(name));
    }

    /** @return the fields as a sequential stream */
    default Stream<HttpField> stream() {
        return StreamSupport.stream(Spliterators.spliterator(iterator(), size(),
                Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.SIZED), false);
    }

    /**
     * A list of fields that can change; used by one thread at a time.
     */
    interface Mutable extends HttpFields {

        /**
         * Hands the fields over as an immutable list, without a copy where it can: this list is
         * then empty, and its fields are the returned list's. For a list made to be frozen once.
         */
        default HttpFields takeImmutable() {
            HttpFields taken = asImmutable();
            clear();
            return taken;
        }

        /** Appends {@code field}; a null field is ignored. */
        Mutable add(HttpField field);

        /** Appends a field of {@code header}. */
        default Mutable add(HttpHeader header, String value) {
            return add(new HttpField(header, value));
        }

        /** Appends a field named {@code name}. */
        default Mutable add(String name, String value) {
            return add(new HttpField(name, value));
        }

        /** Appends every field of {@code fields}. */
        default Mutable add(HttpFields fields) {
            for (HttpField field : fields) {
                add(field);
            }
            return this;
        }

        /**
         * Replaces every field with {@code field}'s name by {@code field}, at the position of
         * the first one, or appends it when there was none.
         */
        Mutable put(HttpField field);

        /** {@link #put(HttpField) Puts} a field of {@code header}; a null value removes them. */
        default Mutable put(HttpHeader header, String value) {
            return value == null ? remove(header) : put(new HttpField(header, value));
        }

        /** {@link #put(HttpField) Puts} a field named {@code name}; a null value removes them. */
        default Mutable put(String name, String value) {
            return value == null ? remove(name) : put(new HttpField(name, value));
        }

        /** {@link #put(HttpField) Puts} a numeric field of {@code header}. */
        default Mutable put(HttpHeader header, long value) {
            return put(new LongValueHttpField(header, value));
        }

        /** Removes every field of {@code header}. */
        Mutable remove(HttpHeader header);

        /** Removes every field named {@code name} (any case). */
        Mutable remove(String name);

        /** Sets the field at {@code index}. */
        void set(int index, HttpField field);

        /** Removes the field at {@code index}, moving the later ones down. */
        void remove(int index);

        /** Removes every field. */
        Mutable clear();
    }
}
