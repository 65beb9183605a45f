package io.wharf.http;

/**
 * One satisfiable range of bytes of a representation, both ends inclusive as in RFC 9110
 * section 14.1.2: {@code bytes=0-499} is the range 0..499, 500 bytes. {@link ByteRanges}
 * makes them from a Range field, already clipped to the representation's length; a
 * resource handler reads {@link #first()} and {@link #length()} to send that region.
 *
 * <p>Immutable and safe to share; holds no buffers.
 *
 * @param first the offset of the first byte, zero or more
 * @param last the offset of the last byte, at least {@code first}
 */
public record ByteRange(long first, long last) {

    /** @throws IllegalArgumentException when {@code first} is negative or {@code last} is before it */
    public ByteRange {
        if (first < 0) {
            throw new IllegalArgumentException("negative first byte position: " + first);
        }
        if (last < first) {
            throw new IllegalArgumentException("last byte position " + last + " is before the first " + first);
        }
    }

    /** @return the number of bytes in the range, {@code last - first + 1} */
    public long length() {
        return last - first + 1;
    }

    /**
     * @param total the length of the whole representation
     * @return the value of a Content-Range field for this range, e.g. {@code bytes 0-499/1234}
     * @throws IllegalArgumentException when the range does not lie within {@code total} bytes
     */
    public String toContentRange(long total) {
        if (last >= total) {
            throw new IllegalArgumentException("range " + first + "-" + last + " lies beyond a length of " + total);
        }
        return "bytes " + first + '-' + last + '/' + total;
    }

    @Override
    public String toString() {
        return first + "-" + last;
    }
}
