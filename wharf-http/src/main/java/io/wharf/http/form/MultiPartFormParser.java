package io.wharf.http.form;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpStatus;

/**
 * A push parser for {@code multipart/form-data} content (RFC 7578) in the framing of RFC 2046:
 * an ignored preamble, then parts each opened by a {@code --boundary} line, then a closing
 * {@code --boundary--} and an ignored epilogue. Each part has a header block with a
 * {@code Content-Disposition: form-data; name="..."} and optionally a {@code filename} and a
 * {@code Content-Type}; parts without a file name are fields.
 *
 * <pre>
 *   preamble  CRLF --boundary [blanks] CRLF  headers CRLF  content
 *             CRLF --boundary [blanks] CRLF  headers CRLF  content
 *             CRLF --boundary--  epilogue
 * </pre>
 *
 * <p>Strict framing: every line ends with CRLF; a bare LF, a CR without LF, or anything but
 * blanks, CRLF or {@code --} after a boundary is a 400, and so is content that ends before the
 * closing boundary. Boundaries are found in linear time however the content tries to
 * resemble them ({@link DelimiterSearch}), and may be split across chunks at any byte.
 *
 * <p>Threads and buffers: one request's content source calls {@link #parse(ByteBuffer, boolean)}
 * chunk by chunk, possibly from different threads one after another, never concurrently. The
 * parser reads each chunk from its position to its limit and keeps no reference to it once
 * {@code parse} returns: the caller owns and releases it. Part content is copied, into memory
 * up to {@link MultiPartLimits#spoolThresholdBytes()} and past that into a temporary file in
 * the spool directory; spooling does blocking file I/O on the parsing thread, so feed this
 * parser where blocking is allowed.
 *
 * <p>Limits ({@link MultiPartLimits}) fail as soon as they are passed, with a 413 naming the
 * limit. Any failure deletes every spool file made so far, and the parser then refuses more
 * input. The parser owns the parts until {@link #getForm()} hands them to the caller; calling
 * {@link #close()} before that deletes them.
 */
public final class MultiPartFormParser implements AutoCloseable {

    private static final String BOUNDARY_CHARACTERS = "'()+_,-./:=? ";
    private static final int MAX_BOUNDARY_LENGTH = 70;

    /** Where the parser is in the body. */
    private enum State {
        PREAMBLE,
        /** Just past {@code CRLF--boundary}: expecting {@code --}, blanks or CRLF. */
        DELIMITER_END,
        /** Past {@code --boundary-}: expecting the second {@code -}. */
        CLOSE_DELIMITER,
        /** Blanks after the boundary (RFC 2046 transport padding). */
        TRANSPORT_PADDING,
        /** Past the CR of a boundary line. */
        DELIMITER_LINE_FEED,
        PART_HEADERS,
        PART_CONTENT,
        EPILOGUE,
        /** The last chunk ended in the epilogue; the form is ready. */
        COMPLETE,
        /** Input broke the form or a limit; everything spooled was deleted. */
        FAILED,
        /** Closed before the form was taken; everything spooled was deleted. */
        CLOSED
    }

    private final MultiPartLimits limits;
    private final Path spoolDirectory;
    private final DelimiterSearch search;
    private final List<Part> parts = new ArrayList<>();
    private State state = State.PREAMBLE;
    private long totalBytes;
    private PartHeaderBlock headerBlock;
    private HttpFields partHeaders;
    private FormDisposition disposition;
    private PartContentWriter content;
    private MultiPartForm form;

    /**
     * @param boundary the boundary, as {@link #boundaryOf(String)} returns it
     * @param limits the limits to enforce
     * @param spoolDirectory where parts larger than the spool threshold are written, or null
     *     to fail such parts with a 413
     * @throws IllegalArgumentException when the boundary is not 1 to 70 RFC 2046 characters
     */
    public MultiPartFormParser(String boundary, MultiPartLimits limits, Path spoolDirectory) {
        Objects.requireNonNull(boundary, "boundary");
        if (!isValidBoundary(boundary)) {
            throw new IllegalArgumentException("bad multipart boundary: must be 1 to 70 characters from the RFC 2046 set");
        }
        this.limits = Objects.requireNonNull(limits, "limits");
        this.spoolDirectory = spoolDirectory;
        this.search = new DelimiterSearch(("\r\n--" + boundary).getBytes(StandardCharsets.US_ASCII));
        // The first boundary may open the body with no CRLF before it.
        search.restart(2);
    }

    /**
     * Reads the boundary from a request's {@code Content-Type}, quoted or not.
     *
     * @param contentType the {@code Content-Type} value, or null when there is none
     * @return the boundary
     * @throws BadMessageException 415 when the type is not {@code multipart/form-data}; 400 when
     *     the value is malformed or the boundary is missing or not 1 to 70 RFC 2046 characters
     */
    public static String boundaryOf(String contentType) {
        if (contentType == null) {
            throw new BadMessageException(HttpStatus.UNSUPPORTED_MEDIA_TYPE_415, "no Content-Type: expected multipart/form-data");
        }
        HeaderParameters parameters = HeaderParameters.parse(contentType, "Content-Type");
        if (!parameters.type().equals("multipart/form-data")) {
            throw new BadMessageException(HttpStatus.UNSUPPORTED_MEDIA_TYPE_415, "Content-Type is not multipart/form-data");
        }
        String boundary = parameters.get("boundary");
        if (boundary == null) {
            throw new BadMessageException("multipart/form-data Content-Type has no boundary");
        }
        if (!isValidBoundary(boundary)) {
            throw new BadMessageException("bad multipart boundary: must be 1 to 70 characters from the RFC 2046 set");
        }
        return boundary;
    }

    /**
     * Parses the next chunk of the body.
     *
     * @param chunk the bytes from its position to its limit; read but not kept
     * @param last whether this is the end of the body
     * @throws BadMessageException 400 for malformed framing or part headers, 413 when a limit
     *     is passed; every spool file is deleted first
     * @throws java.io.UncheckedIOException when a part cannot be spooled; every spool file is
     *     deleted first
     * @throws IllegalStateException after the last chunk, a failure or {@link #close()}
     */
    public void parse(ByteBuffer chunk, boolean last) {
        if (state == State.COMPLETE || state == State.FAILED || state == State.CLOSED) {
            throw new IllegalStateException("multipart parser takes no more input: " + state);
        }
        try {
            countTotal(chunk.remaining());
            while (chunk.hasRemaining()) {
                step(chunk);
            }
            if (last) {
                finish();
            }
        } catch (RuntimeException failure) {
            state = State.FAILED;
            discardAll();
            throw failure;
        }
    }

    /**
     * Hands the parts to the caller, who must close the form.
     *
     * @return the form, the same one on every call
     * @throws IllegalStateException before the last chunk was parsed, or after a failure
     */
    public MultiPartForm getForm() {
        if (state != State.COMPLETE) {
            throw new IllegalStateException("multipart form not complete: " + state);
        }
        if (form == null) {
            form = new MultiPartForm(parts);
        }
        return form;
    }

    /**
     * Deletes every part and spool file unless {@link #getForm()} already handed them over,
     * and refuses more input. Idempotent; never fails.
     */
    @Override
    public void close() {
        if (form == null) {
            discardAll();
            if (state != State.FAILED) {
                state = State.CLOSED;
            }
        }
    }

    private void step(ByteBuffer chunk) {
        switch (state) {
            case PREAMBLE -> {
                if (search.find(chunk, DelimiterSearch.DISCARD)) {
                    state = State.DELIMITER_END;
                }
            }
            case DELIMITER_END -> {
                byte b = chunk.get();
                state = switch (b) {
                    case '-' -> State.CLOSE_DELIMITER;
                    case ' ', '\t' -> State.TRANSPORT_PADDING;
                    case '\r' -> State.DELIMITER_LINE_FEED;
                    case '\n' -> throw new BadMessageException("bare LF after a multipart boundary: lines must end with CRLF");
                    default -> throw new BadMessageException("multipart boundary followed by text other than CRLF or '--'");
                };
            }
            case CLOSE_DELIMITER -> {
                if (chunk.get() != '-') {
                    throw new BadMessageException("multipart boundary followed by a single '-'");
                }
                state = State.EPILOGUE;
            }
            case TRANSPORT_PADDING -> {
                byte b = chunk.get();
                if (b == '\r') {
                    state = State.DELIMITER_LINE_FEED;
                } else if (b != ' ' && b != '\t') {
                    throw new BadMessageException("multipart boundary followed by text other than blanks and CRLF");
                }
            }
            case DELIMITER_LINE_FEED -> {
                if (chunk.get() != '\n') {
                    throw new BadMessageException("CR not followed by LF after a multipart boundary");
                }
                startPart();
            }
            case PART_HEADERS -> {
                if (headerBlock.parse(chunk)) {
                    startContent();
                }
            }
            case PART_CONTENT -> {
                if (search.find(chunk, content)) {
                    endPart();
                }
            }
            case EPILOGUE -> chunk.position(chunk.limit());
            default -> throw new IllegalStateException("multipart parser in state " + state);
        }
    }

    private void countTotal(int bytes) {
        long max = limits.maxTotalBytes();
        if (max >= 0 && totalBytes + bytes > max) {
            throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                    "multipart content exceeds maxTotalBytes " + max);
        }
        totalBytes += bytes;
    }

    private void startPart() {
        if (parts.size() >= limits.maxParts()) {
            throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                    "multipart form has more parts than maxParts " + limits.maxParts());
        }
        headerBlock = new PartHeaderBlock(limits.maxPartHeaderBytes());
        state = State.PART_HEADERS;
    }

    private void startContent() {
        partHeaders = headerBlock.fields();
        headerBlock = null;
        disposition = FormDisposition.of(partHeaders);
        long maxBytes = limits.maxPartBytes();
        String limitName = "maxPartBytes";
        long maxFieldBytes = limits.maxFieldBytes();
        if (disposition.fileName() == null && maxFieldBytes >= 0 && (maxBytes < 0 || maxFieldBytes < maxBytes)) {
            maxBytes = maxFieldBytes;
            limitName = "maxFieldBytes";
        }
        content = new PartContentWriter(limits.spoolThresholdBytes(), spoolDirectory, maxBytes, limitName);
        search.restart(0);
        state = State.PART_CONTENT;
    }

    private void endPart() {
        long length = content.length();
        PartContent finished = content.finish();
        parts.add(new Part(disposition.name(), disposition.fileName(), partHeaders, length, finished));
        content = null;
        partHeaders = null;
        disposition = null;
        state = State.DELIMITER_END;
    }

    private void finish() {
        String where = switch (state) {
            case EPILOGUE -> null;
            case PREAMBLE -> "no boundary found";
            case PART_HEADERS -> "content ends inside part headers";
            case PART_CONTENT -> "content ends inside a part";
            default -> "content ends inside a boundary line";
        };
        if (where != null) {
            throw new BadMessageException("missing final multipart boundary: " + where);
        }
        state = State.COMPLETE;
    }

    private void discardAll() {
        if (content != null) {
            content.discard();
            content = null;
        }
        for (Part part : parts) {
            part.close();
        }
        parts.clear();
        headerBlock = null;
    }

    private static boolean isValidBoundary(String boundary) {
        int length = boundary.length();
        if (length == 0 || length > MAX_BOUNDARY_LENGTH || boundary.charAt(length - 1) == ' ') {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = boundary.charAt(i);
            boolean alphanumeric = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9';
            if (!alphanumeric && BOUNDARY_CHARACTERS.indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }
}
