package io.wharf.http;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * Writes the framing of a {@code multipart/byteranges} body (RFC 9110 section 14.6), the
 * answer to a request for several ranges. The body is, for each range, a part header
 *
 * <pre>
 * CRLF "--" boundary CRLF
 * "Content-Type: " type CRLF          (only when the representation has a type)
 * "Content-Range: bytes a-b/total" CRLF
 * CRLF
 * </pre>
 *
 * followed by the range's bytes, and after the last part the closing delimiter
 * {@code CRLF "--" boundary "--" CRLF}. {@link #contentLength} computes the exact length of
 * the whole body beforehand, so the response can carry a Content-Length.
 *
 * <p>A resource handler makes one per response, on the request thread, and writes
 * {@link #partHeader} then the file region for each range, then {@link #closingDelimiter}.
 * Immutable and safe to share. The {@code put} methods write into a buffer the caller owns;
 * the others return a new heap buffer, ready to read, that the caller then owns.
 */
public final class MultiPartByteRanges {

    private static final int MAX_BOUNDARY_LENGTH = 70;

    private final String boundary;
    private final long total;
    private final byte[] partStart;
    private final byte[] totalSuffix;
    private final byte[] closing;

    /**
     * @param boundary the boundary, 1 to 70 characters allowed by RFC 2046 ({@link #newBoundary()}
     *     makes one that no file will contain by chance)
     * @param contentType the representation's Content-Type value, or null to send parts without one
     * @param total the length of the whole representation
     * @throws IllegalArgumentException when the boundary is not a valid one, the content type
     *     holds a control character or a character beyond ASCII, or the total is negative
     */
    public MultiPartByteRanges(String boundary, String contentType, long total) {
        checkBoundary(boundary);
        if (total < 0) {
            throw new IllegalArgumentException("negative representation length: " + total);
        }
        StringBuilder start = new StringBuilder(64).append("\r\n--").append(boundary).append("\r\n");
        if (contentType != null) {
            checkContentType(contentType);
            start.append("Content-Type: ").append(contentType).append("\r\n");
        }
        start.append("Content-Range: bytes ");
        this.boundary = boundary;
        this.total = total;
        this.partStart = start.toString().getBytes(StandardCharsets.US_ASCII);
        this.totalSuffix = ("/" + total + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        this.closing = ("\r\n--" + boundary + "--\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /** @return a new boundary: {@code wharf} and 32 random hexadecimal digits from a secure source */
    public static String newBoundary() {
        byte[] random = new byte[16];
        RandomHolder.RANDOM.nextBytes(random);
        return "wharf" + HexFormat.of().formatHex(random);
    }

    /** @return the boundary */
    public String boundary() {
        return boundary;
    }

    /** @return the response's Content-Type value, {@code multipart/byteranges; boundary=...} */
    public String contentType() {
        boolean token = boundary.chars().allMatch(c -> c != ' ' && "()/,:=?".indexOf(c) < 0);
        return "multipart/byteranges; boundary=" + (token ? boundary : '"' + boundary + '"');
    }

    /** @return the number of bytes {@link #putPartHeader} writes for {@code range} */
    public int partHeaderLength(ByteRange range) {
        checkWithin(range);
        return partStart.length + digits(range.first()) + 1 + digits(range.last()) + totalSuffix.length;
    }

    /**
     * Writes the header of the part for {@code range} at the buffer's position.
     *
     * @throws IllegalArgumentException when the range lies beyond the total length
     * @throws BufferOverflowException when fewer than {@link #partHeaderLength} bytes remain,
     *     in which case nothing is written
     */
    public void putPartHeader(ByteBuffer target, ByteRange range) {
        if (target.remaining() < partHeaderLength(range)) {
            throw new BufferOverflowException();
        }
        target.put(partStart);
        putNumber(target, range.first());
        target.put((byte) '-');
        putNumber(target, range.last());
        target.put(totalSuffix);
    }

    /** @return a new buffer, ready to read, holding the header of the part for {@code range} */
    public ByteBuffer partHeader(ByteRange range) {
        ByteBuffer buffer = ByteBuffer.allocate(partHeaderLength(range));
        putPartHeader(buffer, range);
        return buffer.flip();
    }

    /** @return the number of bytes of the closing delimiter */
    public int closingDelimiterLength() {
        return closing.length;
    }

    /**
     * Writes the closing delimiter at the buffer's position.
     *
     * @throws BufferOverflowException when fewer than {@link #closingDelimiterLength} bytes remain
     */
    public void putClosingDelimiter(ByteBuffer target) {
        target.put(closing);
    }

    /** @return a new buffer, ready to read, holding the closing delimiter */
    public ByteBuffer closingDelimiter() {
        return ByteBuffer.wrap(closing.clone());
    }

    /**
     * @return the exact length of the body that sends {@code ranges} in order: every part header
     *     and range, and the closing delimiter
     * @throws IllegalArgumentException when a range lies beyond the total length
     */
    public long contentLength(List<ByteRange> ranges) {
        long length = closing.length;
        for (ByteRange range : ranges) {
            length += partHeaderLength(range) + range.length();
        }
        return length;
    }

    private void checkWithin(ByteRange range) {
        if (range.last() >= total) {
            throw new IllegalArgumentException("range " + range + " lies beyond a length of " + total);
        }
    }

    private static int digits(long number) {
        int digits = 1;
        while (number >= 10) {
            number /= 10;
            digits++;
        }
        return digits;
    }

    private static void putNumber(ByteBuffer target, long number) {
        int digits = digits(number);
        int start = target.position();
        for (int i = digits - 1; i >= 0; i--) {
            target.put(start + i, (byte) ('0' + number % 10));
            number /= 10;
        }
        target.position(start + digits);
    }

    private static void checkBoundary(String boundary) {
        if (boundary == null || boundary.isEmpty() || boundary.length() > MAX_BOUNDARY_LENGTH) {
            throw new IllegalArgumentException("a boundary must have 1 to " + MAX_BOUNDARY_LENGTH + " characters");
        }
        for (int i = 0; i < boundary.length(); i++) {
            char c = boundary.charAt(i);
            boolean alphanumeric = c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z';
            if (!alphanumeric && "'()+_,-./:=? ".indexOf(c) < 0) {
                throw new IllegalArgumentException(String.format(
                        "character 0x%02X at index %d is not allowed in a boundary", (int) c, i));
            }
        }
        if (boundary.endsWith(" ")) {
            throw new IllegalArgumentException("a boundary must not end with a space");
        }
    }

    private static void checkContentType(String contentType) {
        for (int i = 0; i < contentType.length(); i++) {
            char c = contentType.charAt(i);
            if ((c < 0x20 && c != '\t') || c >= 0x7F) {
                throw new IllegalArgumentException(String.format(
                        "character 0x%02X at index %d is not allowed in a part's Content-Type", (int) c, i));
            }
        }
    }

    /** Creates the secure random source on first use, not when the class loads. */
    private static final class RandomHolder {
        private static final SecureRandom RANDOM = new SecureRandom();
    }
}
