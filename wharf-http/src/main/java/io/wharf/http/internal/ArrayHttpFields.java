package io.wharf.http.internal;

import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;

/**
 * The one implementation of {@link HttpFields}: fields in an array, in order. A mutable
 * instance is reused by a connection from request to request ({@link #clear()} keeps the
 * array); {@link #asImmutable()} copies the used part into a frozen instance.
 *
 * <p>Not thread-safe while mutable; a frozen instance never changes.
 */
public final class ArrayHttpFields implements HttpFields.Mutable {

    /** What a mutable instance holds after {@link #takeImmutable()} gave its array away: grown at the next add. */
    private static final HttpField[] NONE = new HttpField[0];

    private HttpField[] fields;
    private int size;
    private final boolean frozen;

    public ArrayHttpFields(int capacity) {
        this(new HttpField[Math.max(capacity, 1)], 0, false);
    }

    private ArrayHttpFields(HttpField[] fields, int size, boolean frozen) {
        this.fields = fields;
        this.size = size;
        this.frozen = frozen;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public HttpField getField(int index) {
        if (index >= size) {
            throw new IndexOutOfBoundsException("no field " + index + " of " + size);
        }
        return fields[index];
    }

    @Override
    public HttpFields asImmutable() {
        return frozen ? this : new ArrayHttpFields(Arrays.copyOf(fields, Math.max(size, 1)), size, true);
    }

    @Override
    public HttpFields takeImmutable() {
        if (frozen) {
            return this;
        }
        HttpFields taken = new ArrayHttpFields(fields, size, true);
        fields = NONE;
        size = 0;
        return taken;
    }

    @Override
    public Mutable add(HttpField field) {
        checkMutable();
        if (field != null) {
            if (size == fields.length) {
                fields = Arrays.copyOf(fields, Math.max(size * 2, 4));
            }
            fields[size++] = field;
        }
        return this;
    }

    @Override
    public Mutable put(HttpField field) {
        checkMutable();
        int first = -1;
        for (int i = 0; i < size; i++) {
            if (fields[i].isSameName(field)) {
                if (first < 0) {
                    first = i;
                    fields[i] = field;
                } else {
                    remove(i--);
                }
            }
        }
        return first < 0 ? add(field) : this;
    }

    @Override
    public Mutable remove(HttpHeader header) {
        checkMutable();
        for (int i = 0; i < size; i++) {
            if (fields[i].getHeader() == header) {
                remove(i--);
            }
        }
        return this;
    }

    @Override
    public Mutable remove(String name) {
        checkMutable();
        for (int i = 0; i < size; i++) {
            if (fields[i].is(name)) {
                remove(i--);
            }
        }
        return this;
    }

    @Override
    public void set(int index, HttpField field) {
        checkMutable();
        getField(index);
        fields[index] = field;
    }

    @Override
    public void remove(int index) {
        checkMutable();
        getField(index);
        System.arraycopy(fields, index + 1, fields, index, size - index - 1);
        fields[--size] = null;
    }

    @Override
    public Mutable clear() {
        checkMutable();
        Arrays.fill(fields, 0, size, null);
        size = 0;
        return this;
    }

    @Override
    public Iterator<HttpField> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            public HttpField next() {
                if (next >= size) {
                    throw new NoSuchElementException();
                }
                return fields[next++];
            }

            @Override
            public void remove() {
                ArrayHttpFields.this.remove(--next);
            }
        };
    }

    private void checkMutable() {
        if (frozen) {
            throw new UnsupportedOperationException("these fields are immutable");
        }
    }

    @Override
    public boolean equals(Object other) {
        if (!(other instanceof HttpFields that) || that.size() != size) {
            return false;
        }
        for (int i = 0; i < size; i++) {
            if (!fields[i].equals(that.getField(i))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public int hashCode() {
        int hash = 1;
        for (int i = 0; i < size; i++) {
            hash = 31 * hash + fields[i].hashCode();
        }
        return hash;
    }

    @Override
    public String toString() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < size; i++) {
            text.append(fields[i]).append("\r\n");
        }
        return text.toString();
    }
}
