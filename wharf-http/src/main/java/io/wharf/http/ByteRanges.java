package io.wharf.http;

import java.util.List;
import java.util.Objects;

import io.wharf.http.internal.RangeSetParser;

/**
 * What a request's {@code Range} field (RFC 9110 section 14.2) asks of a representation of a
 * known length, as one of three answers:
 * <ul>
 * <li>{@link Satisfiable}: answer 206 with these ranges: one range as a plain body with
 *     {@code Content-Range}, several as {@code multipart/byteranges}
 *     ({@link MultiPartByteRanges}). The ranges are sorted and overlapping or adjacent ones are
 *     merged, which section 14.2 allows whatever order the client listed them in.</li>
 * <li>{@link Unsatisfiable}: answer 416 with {@link Unsatisfiable#contentRange()}, because no
 *     range starts inside the representation.</li>
 * <li>{@link Ignored}: answer 200 with the whole representation, because the field is absent,
 *     names another unit, is malformed, or looks like abuse.</li>
 * </ul>
 *
 * <p><b>Abuse.</b> Section 14.2 warns that many ranges, or overlapping ones, can make a small
 * request cost a large response. A field with more than {@link Limits#maxRanges()} ranges, or
 * with more than {@link Limits#maxOverlaps()} ranges overlapping earlier ones, is
 * {@link Ignored}, not 416: the ranges are satisfiable, so 416 would misinform an honest but
 * clumsy client, while the whole representation costs no more than a plain GET and removes the
 * amplification. Merging already bounds the body of an accepted field by the representation's
 * length plus one part header per range.
 *
 * <p>Parsing is strict: the unit is a token directly followed by {@code =}, a range has no
 * blanks inside, and only blanks and empty elements may stand between ranges. It is linear
 * in the field's length, stops at the first range over the limit, and never throws on peer
 * input: a number too large for a {@code long} still compares correctly. The method rule
 * (ranges apply to GET) and If-Range ({@link Preconditions}) are the caller's.
 *
 * <p>A resource handler parses on the thread handling the request, after the preconditions
 * said to proceed. Results are immutable, safe to share and hold no buffers.
 */
public sealed interface ByteRanges {

    /**
     * Bounds on what a Range field may ask for.
     *
     * @param maxRanges the most ranges a field may list (empty elements not counted); 16 by default
     * @param maxOverlaps the most ranges that may overlap a range listed before them, once sorted;
     *     1 by default, so that, as RFC 9110 section 14.2 suggests, more than two overlapping
     *     ranges get the whole representation
     */
    record Limits(int maxRanges, int maxOverlaps) {

        /** 16 ranges, 1 overlap. */
        public static final Limits DEFAULT = new Limits(16, 1);

        /** @throws IllegalArgumentException when {@code maxRanges} is below 1 or {@code maxOverlaps} negative */
        public Limits {
            if (maxRanges < 1) {
                throw new IllegalArgumentException("maxRanges must be at least 1: " + maxRanges);
            }
            if (maxOverlaps < 0) {
                throw new IllegalArgumentException("maxOverlaps must not be negative: " + maxOverlaps);
            }
        }
    }

    /** Why a Range field is ignored. */
    enum Reason {
        /** There is no Range field. */
        ABSENT,
        /** The unit is not {@code bytes}; section 14.2 says to ignore a unit the server does not know. */
        UNKNOWN_UNIT,
        /** The field is not a valid {@code bytes} range set, or it is repeated. */
        MALFORMED,
        /** More ranges than {@link Limits#maxRanges()}. */
        TOO_MANY_RANGES,
        /** More overlapping ranges than {@link Limits#maxOverlaps()}. */
        TOO_MANY_OVERLAPS,
        /**
         * The representation is empty and the field asks for a suffix of it: satisfiable by the
         * RFC's letter, but no Content-Range can describe zero bytes, so the empty 200 is the answer.
         */
        EMPTY_REPRESENTATION
    }

    /** Serve the whole representation with 200. */
    record Ignored(Reason reason) implements ByteRanges {
        public Ignored {
            Objects.requireNonNull(reason, "reason");
        }
    }

    /**
     * Serve these ranges with 206.
     *
     * @param ranges one or more ranges, sorted, neither overlapping nor adjacent, within the length
     * @param length the length of the whole representation
     */
    record Satisfiable(List<ByteRange> ranges, long length) implements ByteRanges {

        /** @throws IllegalArgumentException when the ranges are empty, unsorted, touching or beyond {@code length} */
        public Satisfiable {
            ranges = List.copyOf(ranges);
            if (ranges.isEmpty()) {
                throw new IllegalArgumentException("no range");
            }
            long end = -2;
            for (ByteRange range : ranges) {
                if (range.first() <= end + 1) {
                    throw new IllegalArgumentException("ranges must be sorted and apart: " + ranges);
                }
                end = range.last();
            }
            if (end >= length) {
                throw new IllegalArgumentException("range ends at " + end + ", beyond a length of " + length);
            }
        }

        /** @return whether there are several ranges, to send as multipart/byteranges */
        public boolean isMultiple() {
            return ranges.size() > 1;
        }
    }

    /**
     * Answer 416.
     *
     * @param length the length of the whole representation
     */
    record Unsatisfiable(long length) implements ByteRanges {

        /** @return the Content-Range value of the 416 answer, {@code bytes *}{@code /length} */
        public String contentRange() {
            return "bytes */" + length;
        }
    }

    /** @return {@link #parse(String, long, Limits)} with {@link Limits#DEFAULT} */
    static ByteRanges parse(String fieldValue, long length) {
        return parse(fieldValue, length, Limits.DEFAULT);
    }

    /**
     * @param fieldValue the value of the request's Range field
     * @param length the length of the representation, zero or more
     * @param limits the bounds against abuse
     * @return the answer to give; never throws on any field value
     * @throws IllegalArgumentException when {@code length} is negative
     */
    static ByteRanges parse(String fieldValue, long length, Limits limits) {
        if (length < 0) {
            throw new IllegalArgumentException("negative representation length: " + length);
        }
        return RangeSetParser.parse(fieldValue, length, limits);
    }

    /**
     * @param fields the request's header fields
     * @return the answer to the request's Range field: {@link Reason#ABSENT} without one,
     *     {@link Reason#MALFORMED} with more than one (it is a singleton field)
     * @throws IllegalArgumentException when {@code length} is negative
     */
    static ByteRanges of(HttpFields fields, long length, Limits limits) {
        if (length < 0) {
            throw new IllegalArgumentException("negative representation length: " + length);
        }
        HttpField range = null;
        for (int i = 0, size = fields.size(); i < size; i++) {
            HttpField field = fields.getField(i);
            if (field.getHeader() == HttpHeader.RANGE) {
                if (range != null) {
                    return new Ignored(Reason.MALFORMED);
                }
                range = field;
            }
        }
        if (range == null) {
            return new Ignored(Reason.ABSENT);
        }
        return parse(range.getValue(), length, limits);
    }
}
