package io.wharf.http2.session;

import java.util.ArrayList;
import java.util.List;

/**
 * A session's open streams by identifier: an open-addressing table of int keys (linear probing,
 * deletion by shifting back), so that opening and closing a stream allocates nothing, where a
 * map of boxed keys cost an entry and an Integer per stream. Grows by doubling when half full;
 * never shrinks (a session's table is as large as its busiest moment).
 *
 * <p>Guarded by the session's lock.
 */
final class StreamTable {

    private int[] ids = new int[16];
    private Http2Stream[] streams = new Http2Stream[16];
    private int size;

    Http2Stream get(int id) {
        int mask = ids.length - 1;
        for (int at = slot(id, mask); ; at = (at + 1) & mask) {
            int here = ids[at];
            if (here == id) {
                return streams[at];
            }
            if (here == 0) {
                return null;
            }
        }
    }

    /** Adds {@code stream} under its identifier (which is not in the table). */
    void put(Http2Stream stream) {
        if (2 * (size + 1) > ids.length) {
            grow();
        }
        insert(stream.getId(), stream);
        size++;
    }

    /** @return the stream removed, or null when {@code id} was not there */
    Http2Stream remove(int id) {
        int mask = ids.length - 1;
        int at = slot(id, mask);
        while (ids[at] != id) {
            if (ids[at] == 0) {
                return null;
            }
            at = (at + 1) & mask;
        }
        Http2Stream removed = streams[at];
        // Shifts back the entries after it that probed past it, so that no lookup stops early.
        int hole = at;
        for (int next = (at + 1) & mask; ids[next] != 0; next = (next + 1) & mask) {
            int home = slot(ids[next], mask);
            if (((next - home) & mask) >= ((next - hole) & mask)) {
                ids[hole] = ids[next];
                streams[hole] = streams[next];
                hole = next;
            }
        }
        ids[hole] = 0;
        streams[hole] = null;
        size--;
        return removed;
    }

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** @return the streams, in no particular order, in a new list */
    List<Http2Stream> values() {
        List<Http2Stream> all = new ArrayList<>(size);
        for (Http2Stream stream : streams) {
            if (stream != null) {
                all.add(stream);
            }
        }
        return all;
    }

    void clear() {
        java.util.Arrays.fill(ids, 0);
        java.util.Arrays.fill(streams, null);
        size = 0;
    }

    private void grow() {
        int[] oldIds = ids;
        Http2Stream[] oldStreams = streams;
        ids = new int[oldIds.length * 2];
        streams = new Http2Stream[oldIds.length * 2];
        for (int i = 0; i < oldIds.length; i++) {
            if (oldIds[i] != 0) {
                insert(oldIds[i], oldStreams[i]);
            }
        }
    }

    private void insert(int id, Http2Stream stream) {
        int mask = ids.length - 1;
        int at = slot(id, mask);
        while (ids[at] != 0) {
            at = (at + 1) & mask;
        }
        ids[at] = id;
        streams[at] = stream;
    }

    /** Stream ids go up by two: a multiplicative hash spreads them over the table. */
    private static int slot(int id, int mask) {
        int hash = id * 0x9E3779B9;
        return (hash ^ hash >>> 16) & mask;
    }
}
