package io.wharf.http2.hpack.internal;

import java.util.HashMap;
import java.util.Map;

import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;

/**
 * The encoder's side of the dynamic table: the {@link DynamicTable} plus two lookups, by whole
 * field and by name, that answer the HPACK index of the newest matching entry. Lookups take the
 * caller's {@link HttpField} as key (names compare without case, values exactly) and allocate
 * nothing; adding an entry costs one small record.
 *
 * <p>Not thread-safe: owned by one encoder, on the thread that encodes.
 */
public final class EncoderTable implements DynamicTable.Evictions {

    private record Entry(HttpField field, long number) {
    }

    private final DynamicTable table;
    private final Map<HttpField, Entry> byField = new HashMap<>();
    private final Map<String, Entry> byName = new HashMap<>();

    public EncoderTable(int capacity) {
        this.table = new DynamicTable(capacity, this);
    }

    /** @return the table itself, to read its size, capacity and entries */
    public DynamicTable table() {
        return table;
    }

    /** @return the HPACK index (62 and up) of the newest entry equal to {@code field}, or 0 */
    public int indexOf(HttpField field) {
        Entry entry = byField.get(field);
        return entry == null ? 0 : indexOf(entry);
    }

    /** @return the HPACK index (62 and up) of the newest entry named {@code lowerCaseName}, or 0 */
    public int nameIndexOf(String lowerCaseName) {
        Entry entry = byName.get(lowerCaseName);
        return entry == null ? 0 : indexOf(entry);
    }

    private int indexOf(Entry entry) {
        return StaticTable.LENGTH + 1 + (int) (table.insertions() - 1 - entry.number());
    }

    /**
     * Adds a field whose name is already in lower case.
     *
     * @return whether it was added (false when it is larger than the whole table)
     */
    public boolean add(HttpHeader header, String lowerCaseName, String value) {
        HttpField field = new HttpField(header, lowerCaseName, value);
        long number = table.insertions();
        if (!table.add(field)) {
            return false;
        }
        Entry entry = new Entry(field, number);
        byField.put(field, entry);
        byName.put(lowerCaseName, entry);
        return true;
    }

    @Override
    public void evicted(HttpField field, long number) {
        Entry byFieldEntry = byField.get(field);
        if (byFieldEntry != null && byFieldEntry.number() == number) {
            byField.remove(field);
        }
        Entry byNameEntry = byName.get(field.getName());
        if (byNameEntry != null && byNameEntry.number() == number) {
            byName.remove(field.getName());
        }
    }
}
