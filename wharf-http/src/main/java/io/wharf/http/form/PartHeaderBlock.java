package io.wharf.http.form;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpStatus;

/**
 * Reads the header block of one multipart part, up to and including its blank line, from
 * chunks: {@code Name: value} lines ended by CRLF. Strict: a bare LF, a CR without LF, a
 * folded line, a name that is not a token or a control character in a value is a 400. Values
 * are read as UTF-8, as browsers send file names (RFC 7578 section 5.1.3); bytes that are not
 * UTF-8 become U+FFFD. The whole block, line ends included, is bounded by
 * {@link MultiPartLimits#maxPartHeaderBytes()}: a 413 as soon as it is passed.
 *
 * <p>Used by one {@link MultiPartFormParser} on its parsing thread; copies the bytes of the
 * current line and keeps no chunk.
 */
final class PartHeaderBlock {

    private enum State {
        LINE,
        /** A CR ended the line's text; an LF must follow. */
        LINE_FEED,
        COMPLETE
    }

    private final int maxBytes;
    private final HttpFields.Mutable fields = HttpFields.build(4);
    private State state = State.LINE;
    private byte[] line = new byte[64];
    private int lineLength;
    private int blockBytes;

    /**
     * @param maxBytes the most bytes of the block
     */
    PartHeaderBlock(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    /**
     * Reads from the chunk's position until the blank line ends the block or the chunk ends.
     *
     * @return true when the block is complete, with the chunk's position just past it
     * @throws BadMessageException 400 for a malformed line, 413 when the block is too large
     */
    boolean parse(ByteBuffer chunk) {
        int limit = chunk.limit();
        for (int index = chunk.position(); index < limit; index++) {
            byte b = chunk.get(index);
            if (++blockBytes > maxBytes) {
                throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                        "multipart part headers exceed maxPartHeaderBytes " + maxBytes);
            }
            if (state == State.LINE) {
                if (b == '\r') {
                    state = State.LINE_FEED;
                } else if (b == '\n') {
                    throw new BadMessageException("bare LF in multipart part headers: lines must end with CRLF");
                } else {
                    append(b);
                }
            } else {
                if (b != '\n') {
                    throw new BadMessageException("CR not followed by LF in multipart part headers");
                }
                if (lineLength == 0) {
                    state = State.COMPLETE;
                    chunk.position(index + 1);
                    return true;
                }
                endLine();
                state = State.LINE;
            }
        }
        chunk.position(limit);
        return false;
    }

    /** @return the fields of the complete block, immutable */
    HttpFields fields() {
        if (state != State.COMPLETE) {
            throw new IllegalStateException("part header block not complete");
        }
        return fields.asImmutable();
    }

    private void append(byte b) {
        if (lineLength == line.length) {
            line = Arrays.copyOf(line, Math.min(line.length * 2, maxBytes));
        }
        line[lineLength++] = b;
    }

    private void endLine() {
        if (line[0] == ' ' || line[0] == '\t') {
            throw new BadMessageException("folded line in multipart part headers");
        }
        int colon = 0;
        while (colon < lineLength && line[colon] != ':') {
            if (!HeaderParameters.isTokenChar((char) (line[colon] & 0xFF))) {
                throw new BadMessageException("bad multipart part header name: not a token");
            }
            colon++;
        }
        if (colon == lineLength) {
            throw new BadMessageException("multipart part header line without ':'");
        }
        if (colon == 0) {
            throw new BadMessageException("bad multipart part header name: empty");
        }
        int start = colon + 1;
        int end = lineLength;
        while (start < end && (line[start] == ' ' || line[start] == '\t')) {
            start++;
        }
        while (end > start && (line[end - 1] == ' ' || line[end - 1] == '\t')) {
            end--;
        }
        for (int i = start; i < end; i++) {
            byte b = line[i];
            if ((b >= 0 && b < 0x20 && b != '\t') || b == 0x7F) {
                throw new BadMessageException("control character in a multipart part header value");
            }
        }
        String name = new String(line, 0, colon, StandardCharsets.US_ASCII);
        String value = new String(line, start, end - start, StandardCharsets.UTF_8);
        fields.add(new HttpField(name, value));
        lineLength = 0;
    }
}
