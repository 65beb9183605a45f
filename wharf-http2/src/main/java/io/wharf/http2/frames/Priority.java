package io.wharf.http2.frames;

/**
 * The priority a HEADERS or PRIORITY frame carries (RFC 9113 section 5.3.2 and 6.3; the
 * scheme is deprecated, but frames still carry it and must be parsed).
 *
 * @param dependency the stream this one depends on, 0 for none (31 bits)
 * @param exclusive whether the dependency is exclusive
 * @param weight 1 to 256 (the wire carries weight - 1)
 */
public record Priority(int dependency, boolean exclusive, int weight) {

    /** The priority of a stream that sends none: no dependency, weight 16. */
    public static final Priority DEFAULT = new Priority(0, false, 16);

    /** @throws IllegalArgumentException when the dependency is negative or the weight is not 1..256 */
    public Priority {
        if (dependency < 0) {
            throw new IllegalArgumentException("stream dependency must not be negative: " + dependency);
        }
        if (weight < 1 || weight > 256) {
            throw new IllegalArgumentException("weight must be 1..256: " + weight);
        }
    }
}
