package io.wharf.http2.hpack;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.hpack.internal.BlockReader;
import io.wharf.http2.hpack.internal.DynamicTable;
import io.wharf.http2.hpack.internal.FieldOctets;
import io.wharf.http2.hpack.internal.StaticTable;

/**
 * The HPACK decoder of one HTTP/2 connection (RFC 7541): turns the peer's header blocks into
 * {@link HeaderBlock}s of {@link HttpField}s and keeps the decoding dynamic table in step with
 * the peer's encoder.
 *
 * <p><b>Threads.</b> Not thread-safe: the connection's frame parser calls it, one block at a
 * time, on the thread that reads the connection. <b>Buffers.</b> {@link #decode} reads the
 * caller's buffer (heap or direct) at absolute indexes between its position and limit, then
 * moves the position to the limit; it keeps no reference to it.
 *
 * <p><b>Allocation.</b> A field found in a table is handed out as the table's own instance:
 * the static table's fields are pre-made ({@code :method: GET} costs nothing), and a dynamic
 * entry is one {@link HttpField} made once when the peer added it. A literal costs its value
 * String and its field; a literal name costs a String only when it is not a known
 * {@link HttpHeader} spelled in lower case. Strings are decoded into one scratch array that is
 * reused. Each block costs its two field lists and its {@link HeaderBlock}.
 *
 * <p><b>Bounds.</b> Every integer and length is checked before anything is sized from it: an
 * integer may not pass 2^31 - 1 nor take more than five continuation octets, a string may not
 * be longer than the rest of the block. The header list is counted as RFC 9113 section 6.5.2 counts it (name +
 * value + 32 per field); once it passes {@link #getMaxHeaderListSize()} the decoder keeps no
 * more fields and stores only what the dynamic table needs (bounded by its capacity), reads
 * the rest of the block to keep the table in step, and returns a block marked
 * {@link HeaderBlock#tooLarge()}. A dynamic table size update must come before the first
 * field of a block and may not exceed {@link #getMaxTableCapacity()} (our
 * SETTINGS_HEADER_TABLE_SIZE); after that setting is lowered below the table's capacity, the
 * next block must start with an update to at most the new value. Any other violation is an
 * {@link HpackException}: a connection error of type COMPRESSION_ERROR.
 *
 * <p><b>Field rules.</b> Each literal's name and value octets are checked once, as they are
 * decoded, by RFC 9113 section 8.2.1 ({@link FieldOctets}: a lower-case token, a value without
 * control octets or blanks at its ends). A field that breaks them makes its block malformed
 * ({@link HeaderBlock#problem()}), a stream error the session answers; the connection goes on.
 * Such a field still enters the dynamic table when the peer asks, to keep the table in step,
 * marked so that any later block naming it is malformed too (only by its name, when a later
 * literal takes just the name). Fields from the static table are well-formed.
 */
public final class HpackDecoder {

    /** The initial SETTINGS_HEADER_TABLE_SIZE of RFC 9113: 4,096 octets. */
    public static final int DEFAULT_TABLE_CAPACITY = 4096;
    /** Wharf's default SETTINGS_MAX_HEADER_LIST_SIZE: 16 KiB. */
    public static final int DEFAULT_MAX_HEADER_LIST_SIZE = 16 * 1024;

    private static final int NO_UPDATE_REQUIRED = -1;

    private final DynamicTable table;
    private static final String PATH = ":path";
    private static final byte[] PATH_OCTETS = PATH.getBytes(StandardCharsets.US_ASCII);
    private final BlockReader reader = new BlockReader();
    private int maxTableCapacity;
    private int maxHeaderListSize;
    /** The largest capacity the next block's first size update may set, or {@link #NO_UPDATE_REQUIRED}. */
    private int requiredUpdate = NO_UPDATE_REQUIRED;

    // The state of the block being decoded.
    private HttpFields.Mutable pseudoHeaders;
    private HttpFields.Mutable fields;
    private long listSize;
    private boolean regularSeen;
    private boolean pseudoAfterRegular;
    /** Why the block being decoded breaks the field rules: the first problem found, or null. */
    private String problem;
    /** The length of the block's {@code :path} value, kept or not; -1 before one. */
    private long pathLength;

    /** A decoder with the default table capacity (4,096) and header list limit (16 KiB). */
    public HpackDecoder() {
        this(DEFAULT_TABLE_CAPACITY, DEFAULT_MAX_HEADER_LIST_SIZE);
    }

    /**
     * @param maxTableCapacity our SETTINGS_HEADER_TABLE_SIZE, in force from the start: the
     *     table starts with this capacity and no update may exceed it
     * @param maxHeaderListSize the largest header list kept, as RFC 9113 section 6.5.2 counts it
     */
    public HpackDecoder(int maxTableCapacity, int maxHeaderListSize) {
        this.maxTableCapacity = notNegative("table capacity", maxTableCapacity);
        this.maxHeaderListSize = notNegative("max header list size", maxHeaderListSize);
        this.table = new DynamicTable(maxTableCapacity, null);
    }

    /**
     * Decodes one whole header block (the fragments of HEADERS and its CONTINUATION frames, put
     * together), from the buffer's position to its limit; the position ends at the limit.
     *
     * @return the fields, or a block marked too large
     * @throws HpackException when the block cannot be decoded: a COMPRESSION_ERROR
     */
    public HeaderBlock decode(ByteBuffer block) {
        reader.start(block);
        try {
            pseudoHeaders = null;
            fields = null;
            listSize = 0;
            regularSeen = false;
            pseudoAfterRegular = false;
            problem = null;
            pathLength = -1;
            readTableSizeUpdates();
            while (reader.hasRemaining()) {
                readField();
            }
            block.position(block.limit());
            return result();
        } finally {
            reader.finish();
            pseudoHeaders = null;
            fields = null;
        }
    }

    private void readTableSizeUpdates() {
        while (reader.hasRemaining() && (reader.peek() & 0xE0) == 0x20) {
            int capacity = reader.readInteger(reader.readOctet(), 5);
            if (capacity > maxTableCapacity) {
                throw new HpackException("dynamic table size update to " + capacity
                    + " exceeds SETTINGS_HEADER_TABLE_SIZE " + maxTableCapacity);
            }
            if (requiredUpdate != NO_UPDATE_REQUIRED && capacity <= requiredUpdate) {
                requiredUpdate = NO_UPDATE_REQUIRED;
            }
            table.setCapacity(capacity);
        }
        if (requiredUpdate != NO_UPDATE_REQUIRED) {
            throw new HpackException("header block does not start with a dynamic table size update to at most "
                + requiredUpdate + " after SETTINGS_HEADER_TABLE_SIZE was lowered");
        }
    }

    private void readField() {
        int first = reader.readOctet();
        if ((first & 0x80) != 0) {
            HttpField field = lookup(reader.readInteger(first, 7));
            if (field instanceof MalformedField malformed) {
                note(malformed.nameProblem != null ? malformed.nameProblem : malformed.valueProblem);
            }
            if (PATH.equals(field.getName())) {
                pathLength = field.getValue().length();
            }
            count(DynamicTable.entrySize(field), field);
        } else if ((first & 0x40) != 0) {
            readLiteral(reader.readInteger(first, 6), IndexingPolicy.Indexing.INDEX);
        } else if ((first & 0x20) != 0) {
            throw new HpackException("dynamic table size update after the first field of the block");
        } else {
            IndexingPolicy.Indexing indexing = (first & 0x10) != 0
                ? IndexingPolicy.Indexing.NEVER_INDEX : IndexingPolicy.Indexing.DO_NOT_INDEX;
            readLiteral(reader.readInteger(first, 4), indexing);
        }
    }

    /** @return the field at HPACK index {@code index}: static 1..61, then dynamic, newest first */
    private HttpField lookup(int index) {
        if (index == 0) {
            throw new HpackException("index 0 is not a table entry");
        }
        if (index <= StaticTable.LENGTH) {
            return StaticTable.get(index);
        }
        int dynamic = index - StaticTable.LENGTH - 1;
        if (dynamic >= table.length()) {
            throw new HpackException("index " + index + " is beyond the " + StaticTable.LENGTH + " static and "
                + table.length() + " dynamic table entries");
        }
        return table.get(dynamic);
    }

    /**
     * Reads a literal field with an indexed name ({@code nameIndex} > 0) or a literal name,
     * stores as much of it as the list budget or the table needs, and adds it where it goes.
     */
    private void readLiteral(int nameIndex, IndexingPolicy.Indexing indexing) {
        boolean indexed = indexing == IndexingPolicy.Indexing.INDEX;
        HttpField namedBy = nameIndex == 0 ? null : lookup(nameIndex);
        long budget = listSize > maxHeaderListSize ? -1 : maxHeaderListSize - listSize;
        // The name and value octets worth storing: all of a field that fits the list or the table.
        long keep = Math.max(budget, indexed ? table.capacity() : -1) - DynamicTable.ENTRY_OVERHEAD;
        int nameLength = namedBy != null ? namedBy.getName().length() : reader.readString(0, clamp(keep));
        int valueOffset = namedBy != null ? 0 : nameLength;
        int valueLength = reader.readString(valueOffset, clamp(keep - nameLength));
        long entrySize = (long) nameLength + valueLength + DynamicTable.ENTRY_OVERHEAD;
        boolean stored = entrySize - DynamicTable.ENTRY_OVERHEAD <= keep;

        HttpField field = null;
        if (indexed) {
            if (entrySize > table.capacity()) {
                table.clear();
            } else {
                field = makeField(namedBy, nameLength, valueOffset, valueLength, indexing);
                table.add(field);
            }
        }
        if (stored && field == null && listSize + entrySize <= maxHeaderListSize) {
            field = makeField(namedBy, nameLength, valueOffset, valueLength, indexing);
        }
        // The name is known when indexed, else when its octets were kept (a 5-octet name nearly always is).
        if (namedBy != null ? PATH.equals(namedBy.getName()) : nameLength <= keep && reader.spells(0, nameLength, PATH_OCTETS)) {
            pathLength = valueLength;
        }
        count(entrySize, field);
    }

    /** Makes the field whose octets the reader holds, checking its literal name and value. */
    private HttpField makeField(HttpField namedBy, int nameLength, int valueOffset, int valueLength,
                                IndexingPolicy.Indexing indexing) {
        HttpHeader header;
        String name;
        String nameProblem;
        if (namedBy != null) {
            header = namedBy.getHeader();
            name = namedBy.getName();
            nameProblem = namedBy instanceof MalformedField malformed ? malformed.nameProblem : null;
        } else {
            nameProblem = reader.nameProblem(0, nameLength);
            header = reader.header(0, nameLength);
            name = header != null && nameProblem == null ? header.lowerCaseName() : reader.string(0, nameLength);
        }
        String valueProblem = reader.valueProblem(valueOffset, valueLength);
        String value = reader.string(valueOffset, valueLength);
        if (nameProblem != null || valueProblem != null) {
            note(nameProblem != null ? nameProblem : valueProblem);
            if (indexing == IndexingPolicy.Indexing.INDEX) {
                return new MalformedField(header, name, value, nameProblem, valueProblem);
            }
        }
        return indexing == IndexingPolicy.Indexing.NEVER_INDEX
            ? new NeverIndexedHttpField(header, name, value) : new HttpField(header, name, value);
    }

    private void note(String fieldProblem) {
        if (problem == null) {
            problem = fieldProblem;
        }
    }

    /**
     * A field that breaks the rules of RFC 9113 section 8.2.1, kept in the dynamic table only
     * to stay in step with the peer: a block that names it is malformed, so it never reaches
     * an application.
     */
    private static final class MalformedField extends HttpField {
        /** Why the name is refused, or null when only the value is. */
        private final String nameProblem;
        private final String valueProblem;

        MalformedField(HttpHeader header, String name, String value, String nameProblem, String valueProblem) {
            super(header, name, value);
            this.nameProblem = nameProblem;
            this.valueProblem = valueProblem;
        }
    }

    /** Counts a field into the list size and keeps it, unless the list has grown too large. */
    private void count(long entrySize, HttpField field) {
        listSize += entrySize;
        if (listSize > maxHeaderListSize || field == null) {
            pseudoHeaders = null;
            fields = null;
            return;
        }
        String name = field.getName();
        if (!name.isEmpty() && name.charAt(0) == ':') {
            pseudoAfterRegular |= regularSeen;
            if (pseudoHeaders == null) {
                pseudoHeaders = HttpFields.build(4);
            }
            pseudoHeaders.add(field);
        } else {
            regularSeen = true;
            if (fields == null) {
                fields = HttpFields.build(8);
            }
            fields.add(field);
        }
    }

    private HeaderBlock result() {
        boolean tooLarge = listSize > maxHeaderListSize;
        return new HeaderBlock(tooLarge || pseudoHeaders == null ? HttpFields.EMPTY : pseudoHeaders,
            tooLarge || fields == null ? HttpFields.EMPTY : fields,
            pseudoAfterRegular, listSize, tooLarge, problem, pathLength);
    }

    private static int clamp(long octets) {
        return (int) Math.max(-1, Math.min(Integer.MAX_VALUE, octets));
    }

    /**
     * Sets our SETTINGS_HEADER_TABLE_SIZE, once the peer acknowledged it. When it is lower than
     * the table's capacity, the peer's next block must start with a size update to at most it.
     */
    public void setMaxTableCapacity(int maxTableCapacity) {
        this.maxTableCapacity = notNegative("table capacity", maxTableCapacity);
        if (maxTableCapacity < table.capacity()) {
            requiredUpdate = requiredUpdate == NO_UPDATE_REQUIRED ? maxTableCapacity : Math.min(requiredUpdate, maxTableCapacity);
        }
    }

    /** @return our SETTINGS_HEADER_TABLE_SIZE: the largest capacity the peer may set */
    public int getMaxTableCapacity() {
        return maxTableCapacity;
    }

    /** Sets the largest header list kept (our SETTINGS_MAX_HEADER_LIST_SIZE). */
    public void setMaxHeaderListSize(int maxHeaderListSize) {
        this.maxHeaderListSize = notNegative("max header list size", maxHeaderListSize);
    }

    /** @return the largest header list kept */
    public int getMaxHeaderListSize() {
        return maxHeaderListSize;
    }

    /** @return the dynamic table's current capacity, as the peer last set it */
    public int getTableCapacity() {
        return table.capacity();
    }

    /** @return the dynamic table's current size in octets */
    public int getTableSize() {
        return table.size();
    }

    /** @return the dynamic table, for tests and dumps */
    DynamicTable table() {
        return table;
    }

    private static int notNegative(String what, int value) {
        if (value < 0) {
            throw new IllegalArgumentException(what + " must not be negative: " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "HpackDecoder[table " + table.size() + "/" + table.capacity() + " of max " + maxTableCapacity
            + ", max header list " + maxHeaderListSize + "]";
    }
}
