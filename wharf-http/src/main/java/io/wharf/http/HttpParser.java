package io.wharf.http;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.wharf.http.internal.BufferText;
import io.wharf.http.internal.ChunkParser;
import io.wharf.http.internal.ComplianceGate;
import io.wharf.http.internal.FieldCache;
import io.wharf.http.internal.FieldLineParser;
import io.wharf.http.internal.LineReader;
import io.wharf.http.internal.MessageFraming;
import io.wharf.http.internal.MessageFraming.Framing;
import io.wharf.http.internal.StartLineParser;

/**
 * The HTTP/1 parser of one connection: a byte-level state machine (RFC 9112) that reads
 * requests for a server or responses for a client, message after message, and tells an
 * {@link HttpParserListener} what it found.
 *
 * <pre>
 *  START ──► FIELDS ─┬─► CONTENT ─────────┐
 *    │         ▲     ├─► EOF_CONTENT ─────┼─► CONTENT_END ─► MESSAGE_END ─► COMPLETE ─► reset() ─► START
 *    ▼         │     ├─► (no content) ────┘                      ▲
 *  START_LINE ─┘     └─► CHUNKED_CONTENT ─► TRAILERS ────────────┘
 *  (a start line split between reads)
 *
 *  any state ─► CLOSED (bad message, end of input, close()): terminal
 * </pre>
 *
 * <p><b>Threads.</b> Not thread-safe: one connection owns it and calls it on the thread that
 * is reading that connection; every listener call comes on that thread, inside
 * {@link #parseNext}. <b>Buffers.</b> The caller owns the buffer it passes; the parser reads it
 * at absolute indexes, moves its position past what it consumed, and keeps no reference to it
 * after {@code parseNext} returns: the start of a line split between two reads is copied
 * into the parser, so every byte given is always consumed (unless a listener stops the
 * parse). Content is handed out as {@linkplain ByteBuffer#slice(int, int) slices} of the
 * caller's buffer, never copied.
 *
 * <p><b>Fast path.</b> The method is found with one trie walk ({@link HttpMethod#LOOK_AHEAD}),
 * the version with another; each field line is first looked up whole, straight from the
 * buffer, in the static {@link KnownFields#LINES} and then in a small per-connection cache
 * that learns the long lines a client repeats (User-Agent, Accept, Host...). A request made
 * only of such lines costs no allocation but its target String.
 *
 * <p><b>Safety.</b> Strict by default ({@link HttpCompliance#RFC9112}); every size is bounded
 * by {@link Limits}; time is linear in the bytes received. A bad message is reported once to
 * {@link HttpParserListener#badMessage} and leaves the parser {@link State#CLOSED}: it then
 * parses nothing more, so no byte after a bad message is ever taken as another request.
 */
public final class HttpParser {

    /**
     * The reason of the 400 for a first line that is not HTTP/1 at all: neither a standard
     * method nor a last word starting {@code HTTP/} (in any case), so the peer does not speak
     * HTTP/1 (a server that also speaks h2c answers it as a bad HTTP/2 preface). A line that is
     * HTTP/1 by either, however malformed, gets a 400 whose reason says what is wrong with it.
     */
    public static final String NOT_HTTP_1 = "not an HTTP/1 request line: neither a standard method nor an HTTP version";

    /**
     * The bounds of what one message may cost, each refusal naming the one passed.
     * {@code maxRequestLineBytes} bounds a request line with its line end; past it, 414 (a long
     * target is the usual cause). {@code maxHeaderBytes} bounds a request's field section apart
     * from its request line: every field line and the empty line that ends them, each counted
     * with its line end (blank lines before the request line count too); past it, 431. So a
     * request line within its limit never makes the fields' 431, nor fields the request line's
     * 414. In a response, {@code maxHeaderBytes} bounds the whole head, status line included.
     * {@code maxFields} and {@code maxTrailers} count fields (431 past them);
     * {@code maxTrailerBytes} bounds the trailer section like {@code maxHeaderBytes} the
     * head (431). {@code maxChunkExtensionBytes} bounds the extensions of one chunk-size
     * line (400 past it). {@code fieldCacheCapacity} bounds the connection's learning cache
     * in bytes of learned lines; 0 turns learning off.
     */
    public record Limits(int maxHeaderBytes, int maxRequestLineBytes, int maxFields, int maxChunkExtensionBytes,
                         int maxTrailerBytes, int maxTrailers, int fieldCacheCapacity) {

        /** 8 KiB heads and request lines, 100 fields, 1 KiB chunk extensions, 8 KiB and 100 trailers, a 1 KiB field cache. */
        public static final Limits DEFAULT = new Limits(8192, 8192, 100, 1024, 8192, 100,
                FieldCache.DEFAULT_CAPACITY);

        /** @throws IllegalArgumentException naming the limit that is not positive (or, for the cache, negative or too large) */
        public Limits {
            positive("maxHeaderBytes", maxHeaderBytes);
            positive("maxRequestLineBytes", maxRequestLineBytes);
            positive("maxFields", maxFields);
            positive("maxChunkExtensionBytes", maxChunkExtensionBytes);
            positive("maxTrailerBytes", maxTrailerBytes);
            positive("maxTrailers", maxTrailers);
            if (fieldCacheCapacity < 0) {
                throw new IllegalArgumentException("fieldCacheCapacity must not be negative: " + fieldCacheCapacity);
            }
            if (fieldCacheCapacity > 0) {
                FieldCache.requireCapacity(fieldCacheCapacity);
            }
        }

        private static void positive(String name, int value) {
            if (value <= 0) {
                throw new IllegalArgumentException(name + " must be positive: " + value);
            }
        }

        public Limits withMaxHeaderBytes(int bytes) {
            return new Limits(bytes, maxRequestLineBytes, maxFields, maxChunkExtensionBytes, maxTrailerBytes, maxTrailers, fieldCacheCapacity);
        }

        public Limits withMaxRequestLineBytes(int bytes) {
            return new Limits(maxHeaderBytes, bytes, maxFields, maxChunkExtensionBytes, maxTrailerBytes, maxTrailers, fieldCacheCapacity);
        }

        public Limits withMaxFields(int count) {
            return new Limits(maxHeaderBytes, maxRequestLineBytes, count, maxChunkExtensionBytes, maxTrailerBytes, maxTrailers, fieldCacheCapacity);
        }

        public Limits withMaxChunkExtensionBytes(int bytes) {
            return new Limits(maxHeaderBytes, maxRequestLineBytes, maxFields, bytes, maxTrailerBytes, maxTrailers, fieldCacheCapacity);
        }

        public Limits withMaxTrailerBytes(int bytes) {
            return new Limits(maxHeaderBytes, maxRequestLineBytes, maxFields, maxChunkExtensionBytes, bytes, maxTrailers, fieldCacheCapacity);
        }

        public Limits withMaxTrailers(int count) {
            return new Limits(maxHeaderBytes, maxRequestLineBytes, maxFields, maxChunkExtensionBytes, maxTrailerBytes, count, fieldCacheCapacity);
        }

        public Limits withFieldCacheCapacity(int bytes) {
            return new Limits(maxHeaderBytes, maxRequestLineBytes, maxFields, maxChunkExtensionBytes, maxTrailerBytes, maxTrailers, bytes);
        }
    }

    /**
     * The field lines one peer repeats, as a parser learned them (see {@link HttpParser}'s
     * fast path): the memory a connection keeps while it has no parser. A connection that
     * holds a parser only while a message is under way, and lends it out in between, keeps
     * its memory and hands it to each parser it borrows ({@link #useFieldMemory}), so the
     * lines learned on its first request are still found on its thousandth.
     *
     * <p>Used by one parser at a time, on that parser's thread; it copies the bytes it learns
     * and keeps no reference to any buffer.
     */
    public static final class FieldMemory {
        private final FieldCache cache;

        /** A memory bounded by {@code limits}' field cache capacity; a capacity of 0 makes one that learns nothing. */
        public FieldMemory(Limits limits) {
            this.cache = limits.fieldCacheCapacity() > 0 ? new FieldCache(limits.fieldCacheCapacity()) : null;
        }
    }

    /** Where the parser is in the current message. */
    public enum State {
        /** Waiting for a message: nothing of it received but blank lines. */
        START,
        /** Part of the request or status line received. */
        START_LINE,
        /** Receiving header field lines. */
        FIELDS,
        /** Receiving content of a known length. */
        CONTENT,
        /** Receiving chunked content. */
        CHUNKED_CONTENT,
        /** Receiving content that ends when the peer closes (responses only). */
        EOF_CONTENT,
        /** Receiving trailer field lines after the last chunk. */
        TRAILERS,
        /** All content received; the listener is told so next. */
        CONTENT_END,
        /** The listener is told the message is complete next. */
        MESSAGE_END,
        /** The message is complete; {@link #reset()} readies the parser for the next. */
        COMPLETE,
        /** Terminal: after a bad message, an end of input, or {@link #close()}. */
        CLOSED
    }

    /** What one step of the loop in {@link #parseNext} achieved. */
    private enum Progress {
        CONTINUE, NEED_MORE, STOP
    }

    private final HttpParserListener listener;
    private final HttpParserListener.Request requests;
    private final HttpParserListener.Response responses;
    private final Limits limits;
    private final ComplianceGate gate;
    private final LineReader lines = new LineReader();
    private final StartLineParser startLine;
    private final FieldLineParser fieldLines;
    private final MessageFraming framing;
    /** Made at the first chunked message, so that a connection that never sends one holds none. */
    private ChunkParser chunks;
    private State state = State.START;
    private Framing contentFraming;
    private boolean endOfInput;
    private boolean headResponse;
    private int headBytes;
    private int fields;
    private int trailerBytes;
    private int trailers;
    private long contentLength = -1;
    private long contentRead;

    /** A parser of requests, for a server connection. */
    public HttpParser(HttpParserListener.Request listener, Limits limits, HttpCompliance compliance,
                      ComplianceViolation.Listener violations) {
        this(listener, listener, null, limits, compliance, violations);
    }

    /** A parser of responses, for a client connection. */
    public HttpParser(HttpParserListener.Response listener, Limits limits, HttpCompliance compliance,
                      ComplianceViolation.Listener violations) {
        this(listener, null, listener, limits, compliance, violations);
    }

    private HttpParser(HttpParserListener listener, HttpParserListener.Request requests,
                       HttpParserListener.Response responses, Limits limits, HttpCompliance compliance,
                       ComplianceViolation.Listener violations) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.requests = requests;
        this.responses = responses;
        this.limits = Objects.requireNonNull(limits, "limits");
        this.gate = new ComplianceGate(compliance, violations);
        BufferText text = new BufferText();
        this.startLine = new StartLineParser(gate, text);
        this.fieldLines = new FieldLineParser(gate, text, new FieldMemory(limits).cache);
        this.framing = new MessageFraming(requests != null, gate);
    }

    /**
     * Parses from the buffer's position, moving it past what was consumed, until a message
     * is complete, a listener call returns true, or the buffer is empty. After
     * {@link #atEOF()}, running out of bytes ends the input: quietly at the start of a
     * message, completing a close-delimited response, otherwise with
     * {@link HttpParserListener#earlyEOF()}.
     *
     * @return true when a listener call returned true (the rest of the buffer is left
     *     unparsed), when a message completed (call {@link #reset()} before the next), or when
     *     a bad message or an early end of input was reported (the parser is closed); false
     *     when every byte was consumed and more are needed, or when the parser is complete
     *     or closed
     */
    public boolean parseNext(ByteBuffer buffer) {
        try {
            while (true) {
                Progress progress = switch (state) {
                    case START, START_LINE, FIELDS, TRAILERS -> parseLine(buffer);
                    case CONTENT -> parseContent(buffer);
                    case CHUNKED_CONTENT -> parseChunks(buffer);
                    case EOF_CONTENT -> parseUntilClose(buffer);
                    case CONTENT_END -> endContent();
                    case MESSAGE_END -> endMessage();
                    case COMPLETE -> Progress.NEED_MORE;
                    case CLOSED -> discard(buffer);
                };
                if (progress == Progress.STOP) {
                    return true;
                }
                if (progress == Progress.NEED_MORE) {
                    if (!endOfInput || buffer.hasRemaining()) {
                        return false;
                    }
                    if (state != State.EOF_CONTENT) {
                        return endInput();
                    }
                    state = State.CONTENT_END;
                }
            }
        } catch (BadMessageException failure) {
            state = State.CLOSED;
            lines.release();
            buffer.position(buffer.limit());
            listener.badMessage(failure);
            return true;
        } catch (RuntimeException | Error failure) {
            state = State.CLOSED;
            throw failure;
        }
    }

    private boolean endInput() {
        switch (state) {
            case START -> state = State.CLOSED;
            case COMPLETE, CLOSED -> {
            }
            default -> {
                state = State.CLOSED;
                lines.release();
                listener.earlyEOF();
                return true;
            }
        }
        return false;
    }

    private Progress discard(ByteBuffer buffer) {
        buffer.position(buffer.limit());
        return Progress.NEED_MORE;
    }

    // ---- the head and the trailers, line by line ----

    private Progress parseLine(ByteBuffer buffer) {
        int position = buffer.position();
        int limit = buffer.limit();
        if (position == limit) {
            return Progress.NEED_MORE;
        }
        if (state == State.FIELDS && lines.pendingLength() == 0) {
            HttpField cached = fieldLines.cached(buffer, position, limit);
            if (cached != null) {
                int length = KnownFields.lineLength(cached) + 2;
                if (length <= lineAllowance()) {
                    headBytes += length;
                    buffer.position(position + length);
                    passHeader(fieldLines.hold(cached));
                    return Progress.CONTINUE;
                }
            }
        }
        LineReader.Outcome outcome = lines.read(buffer, lineAllowance());
        countLineBytes(lines.taken());
        return switch (outcome) {
            case TOO_LONG -> throw lineTooLong();
            case NEED_MORE -> {
                if (state == State.START) {
                    state = State.START_LINE;
                }
                yield Progress.NEED_MORE;
            }
            case LINE -> {
                Progress progress = line(lines.source(), lines.start(), lines.lineFeed());
                lines.release();
                yield progress;
            }
        };
    }

    /** @return how many more bytes the current line may take, its line feed included */
    private int lineAllowance() {
        return switch (state) {
            case START, START_LINE -> requests == null ? limits.maxHeaderBytes() - headBytes
                    : limits.maxRequestLineBytes() - lines.pendingLength();
            case TRAILERS -> limits.maxTrailerBytes() - trailerBytes;
            default -> limits.maxHeaderBytes() - headBytes;
        };
    }

    private void countLineBytes(int count) {
        if (requests != null && (state == State.START || state == State.START_LINE)) {
            // A request line counts against its own limit, a blank line before it once complete (see line).
            return;
        }
        if (state == State.TRAILERS) {
            trailerBytes += count;
        } else {
            headBytes += count;
        }
    }

    /** Counts a blank line before a request line against the field section's limit, which bounds how many may come. */
    private void countBlankLineBeforeRequest(int length) {
        headBytes += length;
        if (headBytes > limits.maxHeaderBytes()) {
            throw new BadMessageException(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
                    "blank lines before the request line longer than " + limits.maxHeaderBytes() + " bytes");
        }
    }

    /** @return the refusal of a line past its allowance, naming the limit it passed */
    private BadMessageException lineTooLong() {
        if (requests == null && state != State.TRAILERS) {
            return new BadMessageException(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
                    "response head longer than " + limits.maxHeaderBytes() + " bytes");
        }
        return switch (state) {
            case START, START_LINE -> new BadMessageException(HttpStatus.URI_TOO_LONG_414,
                    "request line longer than " + limits.maxRequestLineBytes() + " bytes");
            case TRAILERS -> new BadMessageException(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
                    "trailer section longer than " + limits.maxTrailerBytes() + " bytes");
            default -> new BadMessageException(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
                    "header fields longer than " + limits.maxHeaderBytes() + " bytes");
        };
    }

    /** Handles one complete line at absolute indexes {@code [start, lineFeed)} of {@code source}. */
    private Progress line(ByteBuffer source, int start, int lineFeed) {
        int end = lineFeed;
        boolean crlf = end > start && source.get(end - 1) == '\r';
        if (crlf) {
            end--;
        } else {
            gate.check(HttpCompliance.Violation.LF_HEADER_TERMINATION, "bare LF", "line ended by a bare LF");
        }
        return switch (state) {
            case START, START_LINE -> {
                if (requests != null && end == start) {
                    countBlankLineBeforeRequest(lineFeed - start + 1);
                }
                yield startLine(source, start, end);
            }
            case FIELDS -> {
                if (end == start) {
                    passHeader(fieldLines.flush());
                    yield completeHead();
                }
                passHeader(fieldLines.parse(source, start, end, crlf, true));
                yield Progress.CONTINUE;
            }
            case TRAILERS -> {
                if (end == start) {
                    passTrailer(fieldLines.flush());
                    state = State.MESSAGE_END;
                } else {
                    passTrailer(fieldLines.parse(source, start, end, crlf, false));
                }
                yield Progress.CONTINUE;
            }
            default -> throw new IllegalStateException("no line expected in state " + state);
        };
    }

    private Progress startLine(ByteBuffer source, int start, int end) {
        if (end == start) {
            state = State.START;
            return Progress.CONTINUE;
        }
        state = State.FIELDS;
        if (requests == null) {
            startLine.parseResponse(source, start, end, responses);
            return Progress.CONTINUE;
        }
        if (startLine.parseRequest(source, start, end, requests) == HttpVersion.HTTP_0_9) {
            contentFraming = Framing.NO_CONTENT;
            contentLength = 0;
            state = State.CONTENT_END;
            return listener.headerComplete() ? Progress.STOP : Progress.CONTINUE;
        }
        return Progress.CONTINUE;
    }

    private void passHeader(HttpField field) {
        if (field == null) {
            return;
        }
        if (++fields > limits.maxFields()) {
            throw new BadMessageException(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
                    "more than " + limits.maxFields() + " header fields");
        }
        listener.parsedHeader(framing.accept(field));
    }

    private void passTrailer(HttpField field) {
        if (field == null) {
            return;
        }
        if (++trailers > limits.maxTrailers()) {
            throw new BadMessageException(HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431,
                    "more than " + limits.maxTrailers() + " trailer fields");
        }
        listener.parsedTrailer(field);
    }

    private Progress completeHead() {
        contentFraming = framing.decide(startLine.version(), startLine.status(), headResponse);
        contentLength = framing.contentLength();
        state = switch (contentFraming) {
            case NO_CONTENT -> State.CONTENT_END;
            case CONTENT_LENGTH -> State.CONTENT;
            case CHUNKED -> {
                if (chunks == null) {
                    chunks = new ChunkParser(limits.maxChunkExtensionBytes(), gate);
                }
                yield State.CHUNKED_CONTENT;
            }
            case UNTIL_CLOSE -> State.EOF_CONTENT;
        };
        return listener.headerComplete() ? Progress.STOP : Progress.CONTINUE;
    }

    // ---- the content ----

    private Progress parseContent(ByteBuffer buffer) {
        long left = contentLength - contentRead;
        if (left == 0) {
            state = State.CONTENT_END;
            return Progress.CONTINUE;
        }
        if (!buffer.hasRemaining()) {
            return Progress.NEED_MORE;
        }
        int count = (int) Math.min(buffer.remaining(), left);
        if (count == left) {
            state = State.CONTENT_END;
        }
        return content(buffer, count);
    }

    private Progress parseChunks(ByteBuffer buffer) {
        int available = chunks.advance(buffer);
        if (available == ChunkParser.NEED_MORE) {
            return Progress.NEED_MORE;
        }
        if (available == ChunkParser.LAST_CHUNK) {
            state = State.TRAILERS;
            fieldLines.reset();
            return listener.contentComplete() ? Progress.STOP : Progress.CONTINUE;
        }
        chunks.consumed(available);
        return content(buffer, available);
    }

    private Progress parseUntilClose(ByteBuffer buffer) {
        return buffer.hasRemaining() ? content(buffer, buffer.remaining()) : Progress.NEED_MORE;
    }

    private Progress content(ByteBuffer buffer, int count) {
        int position = buffer.position();
        ByteBuffer slice = buffer.slice(position, count);
        buffer.position(position + count);
        contentRead += count;
        return listener.content(slice) ? Progress.STOP : Progress.CONTINUE;
    }

    private Progress endContent() {
        state = State.MESSAGE_END;
        return listener.contentComplete() ? Progress.STOP : Progress.CONTINUE;
    }

    private Progress endMessage() {
        state = State.COMPLETE;
        listener.messageComplete();
        return Progress.STOP;
    }

    // ---- the connection's controls ----

    /**
     * Readies the parser for the next message once the current one is complete (the
     * connection calls it when it has answered). Does nothing once {@linkplain #isClosed()
     * closed}: a closed parser stays closed.
     *
     * @throws IllegalStateException when a message is under way: the bytes that follow would
     *     be misread, so a connection that gives up on a message must close instead
     */
    public void reset() {
        if (state == State.CLOSED) {
            return;
        }
        if (state != State.START && state != State.COMPLETE) {
            throw new IllegalStateException("reset in state " + state + " would misread the rest of the message");
        }
        state = State.START;
        lines.release();
        startLine.reset();
        fieldLines.reset();
        framing.reset();
        if (chunks != null) {
            chunks.reset();
        }
        contentFraming = null;
        headResponse = false;
        headBytes = 0;
        fields = 0;
        trailerBytes = 0;
        trailers = 0;
        contentLength = -1;
        contentRead = 0;
    }

    /**
     * Makes the parser look lines up in {@code memory}, and learn into it, from the next
     * message on; null makes it learn nothing. A parser starts with a memory of its own.
     *
     * @throws IllegalStateException when a message is under way
     */
    public void useFieldMemory(FieldMemory memory) {
        if (state != State.START && state != State.CLOSED) {
            throw new IllegalStateException("field memory changed in state " + state);
        }
        fieldLines.useCache(memory == null ? null : memory.cache);
    }

    /**
     * Tells the parser the peer closed its side: no byte follows those already given. The
     * next {@link #parseNext} acts on it once the buffer is empty.
     */
    public void atEOF() {
        endOfInput = true;
    }

    /** Closes the parser for good: it parses nothing more. */
    public void close() {
        state = State.CLOSED;
        lines.release();
    }

    /**
     * Says that the response about to be parsed answers a HEAD request, so it has no
     * content whatever its fields say. Call it after {@link #reset()}, before the response's
     * bytes; reset clears it.
     *
     * @throws IllegalStateException on a parser of requests
     */
    public void setHeadResponse(boolean headResponse) {
        if (responses == null) {
            throw new IllegalStateException("a request parser has no HEAD responses");
        }
        this.headResponse = headResponse;
    }

    /** @return where the parser is in the current message */
    public State getState() {
        return state;
    }

    /** @return whether the parser waits for a message and has received nothing of it */
    public boolean isStart() {
        return state == State.START;
    }

    /** @return whether the current message is complete and the parser waits for {@link #reset()} */
    public boolean isComplete() {
        return state == State.COMPLETE;
    }

    /** @return whether the parser is closed for good */
    public boolean isClosed() {
        return state == State.CLOSED;
    }

    /**
     * @return the number of content bytes of the current message when known once the header
     *     is complete (0 when it has none), or -1 when chunked, delimited by close, or not yet known
     */
    public long getContentLength() {
        return contentLength;
    }

    /** @return the number of content bytes of the current message handed to the listener so far */
    public long getContentRead() {
        return contentRead;
    }

    /** @return whether the current message's content is chunked */
    public boolean isChunking() {
        return contentFraming == Framing.CHUNKED;
    }

    @Override
    public String toString() {
        return "HttpParser[" + (requests != null ? "request" : "response") + ", " + state + ", " +
                gate.mode().getName() + ", content " + contentRead + "/" + contentLength + "]";
    }
}
