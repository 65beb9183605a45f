package io.wharf.http;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Supplier;

import io.wharf.http.internal.FramingFields;
import io.wharf.http.internal.FramingFields.ConnectionOption;
import io.wharf.http.internal.FramingFields.TransferCoding;
import io.wharf.http.internal.HeadEncoder;

/**
 * Writes HTTP/1.0 and HTTP/1.1 messages: the head of a response (server) or of a request
 * (client), and the framing of their content. One instance per connection, reused message
 * after message ({@link #reset()} between them), called by one thread at a time — the one
 * that writes the message.
 *
 * <p><b>Buffers.</b> The caller owns both buffers. The generator writes head bytes, chunk-size
 * lines and the last chunk into {@code header}, in fill mode at its position; it only reads
 * {@code content.remaining()} and never consumes nor changes {@code content}. The returned
 * {@link Result} says what to send: {@code header} (flipped) then {@code content}, as one
 * gathering write.
 *
 * <pre>{@code
 *   START --head written--> COMMITTED --last--> END
 *     ^  \__1xx interim head: stays START   \--last chunk with content--> COMPLETING --(null, last)--> END
 *     +--------------------------- reset() ------------------------------------------------------/
 * }</pre>
 *
 * <p><b>Calls.</b> The first call gives the head ({@code info}); later calls give null. A call
 * with {@code last} ends the message; when it leaves the state {@link State#COMPLETING}
 * (chunked content whose last chunk came with bytes: the terminating {@code 0\r\n\r\n} must
 * follow them), write what the result says and call again with no content and {@code last}.
 * A call that throws leaves both the generator and {@code header} as they were.
 *
 * <p><b>Overflow.</b> When {@code header} is too small the result is {@link Result#HEADER_OVERFLOW}:
 * nothing was written, the state did not change, and the caller repeats the same call with a
 * larger buffer (or the same one emptied), up to the limit it is willing to spend on a head.
 *
 * <p><b>Framing</b> (RFC 9112 section 6), decided when the head is written:
 * <ul>
 * <li>a declared length ({@code info.contentLength()}, else the Content-Length fields) is
 *     written and enforced: more content than declared, or less at {@code last}, throws
 *     {@link IllegalStateException};</li>
 * <li>unknown length and {@code last} on the first call: {@code Content-Length} of the content
 *     given (for a request without content, only when its method defines a meaning for content);</li>
 * <li>HTTP/1.1 with unknown length, or with trailers, or whose fields ask for
 *     {@code Transfer-Encoding: chunked}: chunked, trailers written after the last chunk;</li>
 * <li>HTTP/1.0 response of unknown length: delimited by closing the connection; an HTTP/1.0
 *     request of unknown length cannot be framed and throws {@link IllegalArgumentException};</li>
 * <li>no content in a 205, framed {@code Content-Length: 0};</li>
 * <li>no content at all for 1xx, 204 and 304 and for the response to a HEAD request (whose head
 *     keeps the length a GET would have had, when known); a 2xx answer to a CONNECT request
 *     ({@link #setConnectRequest}) opens a tunnel: no framing, content passed through raw.</li>
 * </ul>
 * The message's own Content-Length, Transfer-Encoding and Connection fields are reconciled
 * with that decision rather than copied: one Content-Length line is written by the generator,
 * a Transfer-Encoding is dropped from HTTP/1.0 and from a message that has no content.
 *
 * <p><b>Persistence.</b> The connection says whether it wants to keep the connection
 * ({@link #setPersistent}); the generator turns that off when a Connection field says
 * {@code close} or the framing needs the close, writes {@code Connection: close} on a
 * non-persistent HTTP/1.1 message and {@code Connection: keep-alive} on a persistent HTTP/1.0
 * one, and {@link #isPersistent()} then tells the connection what it decided.
 *
 * <p>Text from the message (reason phrases, field names and values) is sanitised so that it
 * cannot end a line: no field can split the message. Writing a message whose fields are
 * pre-encoded or known allocates nothing.
 */
public final class HttpGenerator {

    /**
     * What a server adds to every response head.
     *
     * @param serverField the {@code Server} field written unless the response has one, e.g. a
     *     {@link PreEncodedHttpField}; null for none
     * @param dateField asked for the {@code Date} field of each response that has none (the
     *     server passes its cached, pre-encoded field); null, or a null answer, for none
     */
    public record Options(HttpField serverField, Supplier<HttpField> dateField) {

        /** Neither Server nor Date. */
        public static final Options DEFAULT = new Options(null, null);

        public Options {
            if (serverField != null && serverField.getHeader() != HttpHeader.SERVER) {
                throw new IllegalArgumentException("serverField must be a Server field, not " + serverField.getName());
            }
        }
    }

    /** Where the generator is in the current message. */
    public enum State {
        /** Nothing of the message written (an interim 1xx head may have been). */
        START,
        /** The head is written; content may follow. */
        COMMITTED,
        /** The last content was framed; one more call with no content and last ends the message. */
        COMPLETING,
        /** The message is complete; {@link #reset()} before the next one. */
        END
    }

    /** What the caller sends after a call: the header buffer, the content, both or neither. */
    public enum Result {
        /** Nothing to send: no framing bytes and no content. */
        NOTHING(false, false, false),
        /** Send the header buffer only. */
        HEADER(true, false, false),
        /** Send the content only. */
        CONTENT(false, true, false),
        /** Send the header buffer, then the content. */
        HEADER_AND_CONTENT(true, true, false),
        /**
         * Send the header buffer only: the content given is not part of the message (HEAD
         * request, 1xx, 204, 304) and must be dropped.
         */
        HEADER_CONTENT_DROPPED(true, false, true),
        /** Send nothing: the content given is not part of the message and must be dropped. */
        CONTENT_DROPPED(false, false, true),
        /**
         * The header buffer is too small: nothing was written and nothing changed; repeat the
         * call with a larger one.
         */
        HEADER_OVERFLOW(false, false, false);

        private final boolean header;
        private final boolean content;
        private final boolean contentDropped;

        Result(boolean header, boolean content, boolean contentDropped) {
            this.header = header;
            this.content = content;
            this.contentDropped = contentDropped;
        }

        /** @return whether the header buffer is to be sent */
        public boolean writesHeader() {
            return header;
        }

        /** @return whether the content is to be sent (after the header buffer, if that is too) */
        public boolean writesContent() {
            return content;
        }

        /** @return whether content was given that must not be sent */
        public boolean dropsContent() {
            return contentDropped;
        }
    }

    /** How the content of the current message is delimited. */
    private enum Framing {
        /** The message has no content: what is given is dropped. */
        NO_CONTENT,
        /** Exactly the declared length follows. */
        CONTENT_LENGTH,
        /** Chunked, no chunk open. */
        CHUNKED,
        /** Chunked, and the last chunk's data was sent without its CRLF, owed before the next line. */
        CHUNK_OPEN,
        /** Content runs until the connection closes (HTTP/1.0 response of unknown length). */
        CLOSE_DELIMITED,
        /** After a 2xx answer to CONNECT: raw bytes of a tunnel. */
        TUNNEL
    }

    /** Whether the connection stays open after the message. */
    private enum Persistence {
        /** Not set: derived from the version and the Connection fields. */
        UNDECIDED, KEEP, CLOSE
    }

    private final Options options;
    private final FramingFields framingFields = new FramingFields();
    private State state = State.START;
    private Framing framing = Framing.NO_CONTENT;
    private Persistence persistence = Persistence.UNDECIDED;
    private boolean connectRequest;
    /** The content length to enforce, or -1. */
    private long declaredLength = -1;
    private long contentWritten;
    private Supplier<HttpFields> trailers;
    /** The trailers once asked for (so a retried call does not ask twice), or null. */
    private HttpFields trailerFields;

    /** A generator without Server and Date fields (a client's, or a test's). */
    public HttpGenerator() {
        this(Options.DEFAULT);
    }

    public HttpGenerator(Options options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    /**
     * Writes (part of) a response.
     *
     * @param info the head on the first call (state START), null afterwards
     * @param head whether the request was HEAD: the head is written, the content never
     *     (read on the first call only)
     * @param content content to send, or null; never consumed nor changed
     * @param last whether this ends the message
     * @param header where head and framing bytes are written, at its position
     * @return what to send
     * @throws IllegalArgumentException when the head cannot be written (version other than
     *     HTTP/1.0 or 1.1, Content-Length not a number, a Transfer-Encoding not ending with chunked)
     * @throws IllegalStateException when called out of order, or the content breaks the declared length
     */
    public Result generateResponse(MetaData.Response info, boolean head, ByteBuffer content, boolean last,
                                   ByteBuffer header) {
        if (state == State.START) {
            if (info == null) {
                throw new IllegalStateException("the first call of a response needs its head");
            }
            return HttpStatus.isInformational(info.status())
                    ? writeInterim(info, content, header)
                    : commit(info, head, content, last, header);
        }
        return generateContent(info, content, last, header);
    }

    /**
     * Writes (part of) a request. An HTTP/1.1 request must carry a {@code Host} field.
     *
     * @param info the head on the first call (state START), null afterwards
     * @param content content to send, or null; never consumed nor changed
     * @param last whether this ends the message
     * @param header where head and framing bytes are written, at its position
     * @return what to send
     * @throws IllegalArgumentException when the head cannot be written (see
     *     {@link #generateResponse}; also a missing Host, a method that is not a token, a target
     *     with a character outside visible ASCII, HTTP/1.0 content of unknown length)
     * @throws IllegalStateException when called out of order, or the content breaks the declared length
     */
    public Result generateRequest(MetaData.Request info, ByteBuffer content, boolean last, ByteBuffer header) {
        if (state == State.START) {
            if (info == null) {
                throw new IllegalStateException("the first call of a request needs its head");
            }
            return commit(info, false, content, last, header);
        }
        return generateContent(info, content, last, header);
    }

    /**
     * Says whether the connection should stay open after this message, before its head is
     * written. Unset, it is on for HTTP/1.1 and, for HTTP/1.0, only when the message's own
     * Connection field says keep-alive.
     *
     * @throws IllegalStateException once the head is written
     */
    public void setPersistent(boolean persistent) {
        if (state != State.START) {
            throw new IllegalStateException("persistence is decided once the head is written");
        }
        persistence = persistent ? Persistence.KEEP : Persistence.CLOSE;
    }

    /**
     * @return whether the connection may carry another message after this one: after the head
     *     is written, the generator's decision; before, what {@link #setPersistent} said (false
     *     when unset)
     */
    public boolean isPersistent() {
        return persistence == Persistence.KEEP;
    }

    /**
     * Says that the response answers a CONNECT request, before its head is written: a 2xx
     * answer then has no framing and the connection becomes a tunnel (not persistent).
     */
    public void setConnectRequest(boolean connectRequest) {
        if (state != State.START) {
            throw new IllegalStateException("the request method must be known before the head is written");
        }
        this.connectRequest = connectRequest;
    }

    /** @return where the generator is in the current message */
    public State getState() {
        return state;
    }

    /** @return whether the head of the current message is written */
    public boolean isCommitted() {
        return state != State.START;
    }

    /** @return whether the current message is complete */
    public boolean isEnd() {
        return state == State.END;
    }

    /** Forgets the current message, ready for the next one; persistence and CONNECT unset. */
    public void reset() {
        state = State.START;
        framing = Framing.NO_CONTENT;
        persistence = Persistence.UNDECIDED;
        connectRequest = false;
        declaredLength = -1;
        contentWritten = 0;
        trailers = null;
        trailerFields = null;
    }

    @Override
    public String toString() {
        return "HttpGenerator[" + state + ", " + framing + ", " + persistence + ", " + contentWritten + " bytes]";
    }

    /** Writes a 100, 102 or 103 head (state stays START) or a 101 head (state END). */
    private Result writeInterim(MetaData.Response info, ByteBuffer content, ByteBuffer header) {
        HttpVersion version = checkVersion(info.version());
        boolean hasContent = remaining(content) > 0;
        if (version == HttpVersion.HTTP_1_0) {
            if (info.status() == HttpStatus.SWITCHING_PROTOCOLS_101) {
                throw new IllegalArgumentException("HTTP/1.0 has no protocol upgrade: cannot write 101");
            }
            // RFC 9110 section 15.2: no interim response to an HTTP/1.0 peer.
            return hasContent ? Result.CONTENT_DROPPED : Result.NOTHING;
        }
        int start = header.position();
        try {
            HeadEncoder.putStatusLine(header, version, info.status(), info.reason());
            HeadEncoder.putMessageFields(header, info.fields(), false, false);
            header.put(HeadEncoder.CRLF);
        } catch (BufferOverflowException e) {
            header.position(start);
            return Result.HEADER_OVERFLOW;
        } catch (RuntimeException e) {
            header.position(start);
            throw e;
        }
        if (info.status() == HttpStatus.SWITCHING_PROTOCOLS_101) {
            state = State.END;
        }
        return hasContent ? Result.HEADER_CONTENT_DROPPED : Result.HEADER;
    }

    /** Decides the framing and persistence of a message and writes its head. */
    private Result commit(MetaData info, boolean head, ByteBuffer content, boolean last, ByteBuffer header) {
        HttpVersion version = checkVersion(info.version());
        boolean http11 = version == HttpVersion.HTTP_1_1;
        MetaData.Response response = info instanceof MetaData.Response r ? r : null;
        framingFields.scan(info.fields());
        if (response == null && http11 && !framingFields.hasHost()) {
            throw new IllegalArgumentException("an HTTP/1.1 request needs a Host field");
        }
        long remaining = remaining(content);
        long declared = info.contentLength() >= 0 ? info.contentLength() : framingFields.contentLength();
        Supplier<HttpFields> messageTrailers = http11 ? info.trailers() : null;
        TransferCoding coding = http11 ? framingFields.transferCoding() : TransferCoding.NONE;

        Framing newFraming;
        long lengthLine = -1;
        boolean chunkedLine = false;
        if (response != null && connectRequest && HttpStatus.isSuccess(response.status())) {
            newFraming = Framing.TUNNEL;
            declared = -1;
        } else if (response != null && HttpStatus.hasNoBody(response.status())) {
            newFraming = Framing.NO_CONTENT;
        } else if (response != null && response.status() == HttpStatus.RESET_CONTENT_205) {
            // RFC 9110 section 15.3.6: no content in a 205; framed as empty, or it would read until close.
            newFraming = Framing.NO_CONTENT;
            lengthLine = 0;
        } else if (head) {
            newFraming = Framing.NO_CONTENT;
            if (declared >= 0) {
                lengthLine = declared;
            } else if (last && remaining > 0) {
                lengthLine = remaining;
            } else {
                chunkedLine = coding != TransferCoding.NONE;
            }
        } else if (coding != TransferCoding.NONE || messageTrailers != null) {
            newFraming = Framing.CHUNKED;
            chunkedLine = true;
        } else if (declared >= 0) {
            newFraming = Framing.CONTENT_LENGTH;
            lengthLine = declared;
        } else if (last) {
            newFraming = Framing.CONTENT_LENGTH;
            declared = remaining;
            boolean sendLength = response != null || remaining > 0 || methodDefinesContent(((MetaData.Request) info).method());
            lengthLine = sendLength ? remaining : -1;
        } else if (http11) {
            newFraming = Framing.CHUNKED;
            chunkedLine = true;
        } else if (response != null) {
            newFraming = Framing.CLOSE_DELIMITED;
        } else {
            throw new IllegalArgumentException("an HTTP/1.0 request with content of unknown length cannot be framed:"
                    + " give its length, or all of it with last");
        }
        if (newFraming == Framing.NO_CONTENT || newFraming == Framing.TUNNEL) {
            declared = -1;
        }
        checkLength(declared, 0, remaining, last);
        Persistence newPersistence = decidePersistence(http11, newFraming);

        HttpFields fieldsOfTrailer = null;
        boolean terminate = last && remaining == 0 && newFraming == Framing.CHUNKED;
        if (terminate) {
            fieldsOfTrailer = askTrailers(messageTrailers);
        }

        int start = header.position();
        Framing framingAfter = newFraming;
        State stateAfter = last ? State.END : State.COMMITTED;
        try {
            if (response != null) {
                HeadEncoder.putStatusLine(header, version, response.status(), response.reason());
                putServerFields(header);
            } else {
                MetaData.Request request = (MetaData.Request) info;
                HeadEncoder.putRequestLine(header, request.method(), request.target(), version);
            }
            HeadEncoder.putMessageFields(header, info.fields(), newPersistence == Persistence.CLOSE,
                    chunkedLine && coding == TransferCoding.CODINGS_THEN_CHUNKED);
            putConnection(header, http11, newPersistence, newFraming);
            if (lengthLine >= 0) {
                HeadEncoder.putLongField(header, HttpHeader.CONTENT_LENGTH, lengthLine);
            } else if (chunkedLine && coding != TransferCoding.CODINGS_THEN_CHUNKED) {
                header.put(HeadEncoder.TRANSFER_ENCODING_CHUNKED);
            }
            header.put(HeadEncoder.CRLF);
            if (newFraming == Framing.CHUNKED) {
                if (remaining > 0) {
                    HeadEncoder.putChunkSize(header, remaining);
                    framingAfter = Framing.CHUNK_OPEN;
                    stateAfter = last ? State.COMPLETING : State.COMMITTED;
                } else if (terminate) {
                    HeadEncoder.putLastChunk(header, fieldsOfTrailer);
                }
            }
        } catch (BufferOverflowException e) {
            header.position(start);
            return Result.HEADER_OVERFLOW;
        } catch (RuntimeException e) {
            header.position(start);
            throw e;
        }
        framing = framingAfter;
        state = stateAfter;
        persistence = newPersistence;
        declaredLength = declared;
        trailers = messageTrailers;
        if (remaining == 0) {
            return Result.HEADER;
        }
        if (newFraming == Framing.NO_CONTENT) {
            return Result.HEADER_CONTENT_DROPPED;
        }
        contentWritten = remaining;
        return Result.HEADER_AND_CONTENT;
    }

    /** Frames content after the head. */
    private Result generateContent(MetaData info, ByteBuffer content, boolean last, ByteBuffer header) {
        if (info != null) {
            throw new IllegalStateException("the head is already written (" + state + "); later calls give null");
        }
        long remaining = remaining(content);
        switch (state) {
            case END -> throw new IllegalStateException("the message is complete; reset() before the next one");
            case COMPLETING -> {
                if (remaining > 0 || !last) {
                    throw new IllegalStateException("the last content was given; call with no content and last to end");
                }
            }
            default -> {
            }
        }
        return switch (framing) {
            case NO_CONTENT -> {
                if (last) {
                    state = State.END;
                }
                yield remaining > 0 ? Result.CONTENT_DROPPED : Result.NOTHING;
            }
            case CONTENT_LENGTH, CLOSE_DELIMITED, TUNNEL -> {
                checkLength(declaredLength, contentWritten, remaining, last);
                contentWritten += remaining;
                if (last) {
                    state = State.END;
                }
                yield remaining > 0 ? Result.CONTENT : Result.NOTHING;
            }
            case CHUNKED, CHUNK_OPEN -> generateChunk(remaining, last, header);
        };
    }

    private Result generateChunk(long remaining, boolean last, ByteBuffer header) {
        checkLength(declaredLength, contentWritten, remaining, last);
        if (remaining == 0 && !last) {
            return Result.NOTHING;
        }
        HttpFields fieldsOfTrailer = last && remaining == 0 ? askTrailers(trailers) : null;
        int start = header.position();
        Framing framingAfter = Framing.CHUNKED;
        State stateAfter = state;
        try {
            if (framing == Framing.CHUNK_OPEN) {
                header.put(HeadEncoder.CRLF);
            }
            if (remaining > 0) {
                HeadEncoder.putChunkSize(header, remaining);
                framingAfter = Framing.CHUNK_OPEN;
                if (last) {
                    stateAfter = State.COMPLETING;
                }
            } else {
                HeadEncoder.putLastChunk(header, fieldsOfTrailer);
                stateAfter = State.END;
            }
        } catch (BufferOverflowException e) {
            header.position(start);
            return Result.HEADER_OVERFLOW;
        } catch (RuntimeException e) {
            header.position(start);
            throw e;
        }
        framing = framingAfter;
        state = stateAfter;
        contentWritten += remaining;
        return remaining > 0 ? Result.HEADER_AND_CONTENT : Result.HEADER;
    }

    private Persistence decidePersistence(boolean http11, Framing newFraming) {
        if (newFraming == Framing.CLOSE_DELIMITED || newFraming == Framing.TUNNEL
                || framingFields.connectionOption() == ConnectionOption.CLOSE) {
            return Persistence.CLOSE;
        }
        if (persistence != Persistence.UNDECIDED) {
            return persistence;
        }
        return http11 || framingFields.connectionOption() == ConnectionOption.KEEP_ALIVE
                ? Persistence.KEEP
                : Persistence.CLOSE;
    }

    /** Writes the options' Date and Server fields that the response lacks. */
    private void putServerFields(ByteBuffer header) {
        Supplier<HttpField> date = options.dateField();
        if (date != null && !framingFields.hasDate()) {
            HttpField field = date.get();
            if (field != null) {
                HeadEncoder.putField(header, field);
            }
        }
        HttpField server = options.serverField();
        if (server != null && !framingFields.hasServer()) {
            HeadEncoder.putField(header, server);
        }
    }

    /** Writes the Connection line the message's own fields do not already say. */
    private void putConnection(ByteBuffer header, boolean http11, Persistence newPersistence, Framing newFraming) {
        ConnectionOption said = framingFields.connectionOption();
        if (newFraming == Framing.TUNNEL) {
            return;
        }
        if (http11 && newPersistence == Persistence.CLOSE && said != ConnectionOption.CLOSE) {
            header.put(HeadEncoder.CONNECTION_CLOSE);
        } else if (!http11 && newPersistence == Persistence.KEEP && said != ConnectionOption.KEEP_ALIVE) {
            header.put(HeadEncoder.CONNECTION_KEEP_ALIVE);
        }
    }

    /** @return the trailers, asking the supplier only the first time */
    private HttpFields askTrailers(Supplier<HttpFields> supplier) {
        if (trailerFields == null) {
            HttpFields fields = supplier == null ? null : supplier.get();
            trailerFields = fields == null ? HttpFields.EMPTY : fields;
        }
        return trailerFields;
    }

    private static void checkLength(long declared, long written, long adding, boolean last) {
        if (declared < 0) {
            return;
        }
        long total = written + adding;
        if (total > declared) {
            throw new IllegalStateException("content length " + declared + " exceeded: " + total + " bytes given");
        }
        if (last && total < declared) {
            throw new IllegalStateException("content length " + declared + " not reached: " + total
                    + " bytes given at the last");
        }
    }

    private static HttpVersion checkVersion(HttpVersion version) {
        if (version != HttpVersion.HTTP_1_0 && version != HttpVersion.HTTP_1_1) {
            throw new IllegalArgumentException("an HTTP/1 generator cannot write " + version);
        }
        return version;
    }

    /** @return whether a request with this method and no content still says Content-Length: 0 */
    private static boolean methodDefinesContent(String method) {
        return switch (method) {
            case "GET", "HEAD", "DELETE", "OPTIONS", "TRACE", "CONNECT" -> false;
            default -> true;
        };
    }

    private static long remaining(ByteBuffer content) {
        return content == null ? 0 : content.remaining();
    }
}
