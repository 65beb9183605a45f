package io.wharf.http2.hpack;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http2.hpack.internal.BlockWriter;
import io.wharf.http2.hpack.internal.DynamicTable;
import io.wharf.http2.hpack.internal.EncoderTable;
import io.wharf.http2.hpack.internal.FieldText;
import io.wharf.http2.hpack.internal.StaticTable;

/**
 * The HPACK encoder of one HTTP/2 connection (RFC 7541): writes header blocks for the fields
 * of a message and keeps the encoding dynamic table, which the peer's decoder mirrors.
 *
 * <p><b>Threads.</b> Not thread-safe, and order matters: blocks must reach the peer in the
 * order they were encoded, so the connection's frame generator calls it, one block at a time,
 * on the thread that generates frames. <b>Buffers.</b> {@link #encode} writes at the position
 * of a buffer the caller owns and sized with {@link #maxEncodedLength}; it keeps no reference.
 *
 * <p><b>Representation.</b> A field found whole in the static table, then in the dynamic table,
 * is sent as one index. Otherwise it is a literal, with the name as an index when a table has
 * it, added to the dynamic table or not as the {@link IndexingPolicy} says (never for a
 * {@link NeverIndexedHttpField}, and never for a field taking over three quarters of the
 * table). Each string goes Huffman-coded when that is shorter. Names are sent in lower case;
 * a character HTTP/2 forbids is replaced (see {@code FieldText}), so nothing set by an
 * application can make the peer reject the block. Fields go in the order given: the caller
 * puts the pseudo-headers first.
 *
 * <p><b>Table size.</b> The table starts at the capacity given (at most 4,096, the initial
 * SETTINGS_HEADER_TABLE_SIZE the peer's decoder assumes), and never grows past it whatever
 * the peer allows: that bounds this encoder's memory. When the peer's setting changes the
 * usable capacity, the next block starts with the size update(s) RFC 7541 section 4.2 asks
 * for: the smallest capacity in between, then the new one.
 */
public final class HpackEncoder {

    /** The initial SETTINGS_HEADER_TABLE_SIZE of RFC 9113, and the default capacity: 4,096 octets. */
    public static final int DEFAULT_TABLE_CAPACITY = 4096;

    /** The most that pending size updates add to a block: two updates of at most six octets. */
    private static final int MAX_UPDATE_OCTETS = 2 * BlockWriter.MAX_INTEGER_OCTETS;
    private static final int NONE = -1;

    private final EncoderTable table;
    private final int maxTableCapacity;
    private IndexingPolicy indexingPolicy = IndexingPolicy.DEFAULT;
    private boolean huffman = true;
    private long peerMaxHeaderListSize = Long.MAX_VALUE;
    /** The smallest capacity since the last block, when it must be signalled, else {@link #NONE}. */
    private int pendingSmallest = NONE;
    /** The capacity the next block must signal, else {@link #NONE}. */
    private int pendingCapacity = NONE;

    /** An encoder with a table of 4,096 octets. */
    public HpackEncoder() {
        this(DEFAULT_TABLE_CAPACITY);
    }

    /**
     * @param maxTableCapacity the largest dynamic table this encoder keeps, in octets; it starts
     *     with the smaller of this and 4,096 (without a size update: using less than the peer's
     *     decoder allows needs none, as no index ever names an entry only one side has)
     */
    public HpackEncoder(int maxTableCapacity) {
        if (maxTableCapacity < 0) {
            throw new IllegalArgumentException("table capacity must not be negative: " + maxTableCapacity);
        }
        this.maxTableCapacity = maxTableCapacity;
        this.table = new EncoderTable(Math.min(maxTableCapacity, DEFAULT_TABLE_CAPACITY));
    }

    /**
     * Tells the encoder the peer's SETTINGS_HEADER_TABLE_SIZE. The usable capacity becomes the
     * smaller of it and this encoder's maximum; a change is signalled at the start of the next block.
     */
    public void setPeerMaxTableCapacity(int peerMaxTableCapacity) {
        if (peerMaxTableCapacity < 0) {
            throw new IllegalArgumentException("table capacity must not be negative: " + peerMaxTableCapacity);
        }
        int capacity = Math.min(peerMaxTableCapacity, maxTableCapacity);
        int current = pendingCapacity != NONE ? pendingCapacity : table.table().capacity();
        if (capacity == current) {
            return;
        }
        pendingSmallest = pendingSmallest == NONE ? Math.min(capacity, current) : Math.min(pendingSmallest, capacity);
        pendingCapacity = capacity;
    }

    /**
     * Tells the encoder the peer's SETTINGS_MAX_HEADER_LIST_SIZE; a larger list is refused with
     * {@link HeaderListTooLargeException} before anything is written. Unlimited until told.
     */
    public void setPeerMaxHeaderListSize(long peerMaxHeaderListSize) {
        this.peerMaxHeaderListSize = peerMaxHeaderListSize;
    }

    /** Sets which fields go into the dynamic table; {@link IndexingPolicy#DEFAULT} unless set. */
    public void setIndexingPolicy(IndexingPolicy indexingPolicy) {
        this.indexingPolicy = Objects.requireNonNull(indexingPolicy, "indexingPolicy");
    }

    /** Sets whether strings may be Huffman-coded (when shorter); on unless set. */
    public void setHuffman(boolean huffman) {
        this.huffman = huffman;
    }

    /**
     * @return the most octets {@link #encode} may write for {@code fields}: their header list
     *     size (RFC 9113 section 6.5.2) plus room for size updates, since no representation of
     *     a field is longer than its name and value plus 32
     * @throws HeaderListTooLargeException when the list exceeds the peer's SETTINGS_MAX_HEADER_LIST_SIZE
     */
    public int maxEncodedLength(HttpFields fields) {
        long size = 0;
        for (int i = 0, count = fields.size(); i < count; i++) {
            size += DynamicTable.entrySize(fields.getField(i));
        }
        if (size > peerMaxHeaderListSize) {
            throw new HeaderListTooLargeException(size, peerMaxHeaderListSize);
        }
        long bound = size + MAX_UPDATE_OCTETS;
        if (bound > Integer.MAX_VALUE) {
            throw new HeaderListTooLargeException(size, Integer.MAX_VALUE - MAX_UPDATE_OCTETS);
        }
        return (int) bound;
    }

    /**
     * Writes the header block of {@code fields} at the buffer's position.
     *
     * @throws HeaderListTooLargeException when the list exceeds the peer's limit
     * @throws IllegalArgumentException when fewer than {@link #maxEncodedLength} octets remain
     *     in {@code out}; either way nothing was written and the table did not change
     */
    public void encode(HttpFields fields, ByteBuffer out) {
        int bound = maxEncodedLength(fields);
        if (out.remaining() < bound) {
            throw new IllegalArgumentException("buffer has " + out.remaining() + " octets left, the block may take " + bound);
        }
        writePendingUpdates(out);
        for (int i = 0, count = fields.size(); i < count; i++) {
            encode(fields.getField(i), out);
        }
    }

    private void writePendingUpdates(ByteBuffer out) {
        if (pendingCapacity == NONE) {
            return;
        }
        if (pendingSmallest < pendingCapacity) {
            BlockWriter.putInteger(out, 0x20, 5, pendingSmallest);
            table.table().setCapacity(pendingSmallest);
        }
        BlockWriter.putInteger(out, 0x20, 5, pendingCapacity);
        table.table().setCapacity(pendingCapacity);
        pendingSmallest = NONE;
        pendingCapacity = NONE;
    }

    private void encode(HttpField field, ByteBuffer out) {
        HttpHeader header = field.getHeader();
        String name = header != null ? header.lowerCaseName() : FieldText.name(field.getName());
        String raw = field.getValue();
        int staticName = StaticTable.nameIndexOf(header, name);
        IndexingPolicy.Indexing indexing;
        String value;
        if (field instanceof NeverIndexedHttpField) {
            indexing = IndexingPolicy.Indexing.NEVER_INDEX;
            value = FieldText.value(raw);
        } else {
            // Looked up as given first: every table entry holds a value FieldText accepts, so a value equal
            // to one needs no check (a server's repeated fields are found so, without a scan per response).
            int index = staticName == 0 ? 0 : StaticTable.indexOf(staticName, raw);
            if (index == 0) {
                index = table.indexOf(field);
            }
            value = index == 0 ? FieldText.value(raw) : raw;
            if (index == 0 && value != raw && staticName != 0) {
                index = StaticTable.indexOf(staticName, value);
            }
            if (index != 0) {
                BlockWriter.putInteger(out, 0x80, 7, index);
                return;
            }
            indexing = indexingPolicy.indexing(field);
            long entrySize = (long) name.length() + value.length() + DynamicTable.ENTRY_OVERHEAD;
            if (indexing == IndexingPolicy.Indexing.INDEX && entrySize * 4 > table.table().capacity() * 3L) {
                indexing = IndexingPolicy.Indexing.DO_NOT_INDEX;
            }
        }
        int nameIndex = staticName != 0 ? staticName : table.nameIndexOf(name);
        switch (indexing) {
            case INDEX -> BlockWriter.putInteger(out, 0x40, 6, nameIndex);
            case DO_NOT_INDEX -> BlockWriter.putInteger(out, 0x00, 4, nameIndex);
            case NEVER_INDEX -> BlockWriter.putInteger(out, 0x10, 4, nameIndex);
        }
        if (nameIndex == 0) {
            BlockWriter.putString(out, name, huffman);
        }
        BlockWriter.putString(out, value, huffman);
        if (indexing == IndexingPolicy.Indexing.INDEX) {
            table.add(header, name, value);
        }
    }

    /** @return the dynamic table's capacity now (before any pending update is sent) */
    public int getTableCapacity() {
        return table.table().capacity();
    }

    /** @return the dynamic table's size in octets */
    public int getTableSize() {
        return table.table().size();
    }

    /** @return the dynamic table, for tests and dumps */
    DynamicTable table() {
        return table.table();
    }

    @Override
    public String toString() {
        DynamicTable dynamic = table.table();
        return "HpackEncoder[table " + dynamic.size() + "/" + dynamic.capacity() + " of max " + maxTableCapacity
            + (pendingCapacity != NONE ? ", update to " + pendingCapacity + " pending" : "") + "]";
    }
}
