package io.wharf.http;

import java.nio.ByteBuffer;

/**
 * What an HTTP/1 parser tells its owner, in order: a start line, the header fields, that the
 * header is complete, the content in pieces, the trailers, and that the message is complete
 * — or that the message is bad, or that the peer closed early.
 *
 * <p><b>Threads.</b> Every call comes on the thread that called {@code parseNext}, inside
 * that call. <b>Buffers.</b> A content buffer is a slice of the buffer being parsed: valid
 * only during the call and until the parser's caller releases or refills its buffer; the
 * listener must copy or retain (through its own reference to the pooled buffer) what it
 * keeps. <b>Stopping.</b> Calls that return boolean return true to make {@code parseNext}
 * return at once, leaving the rest of the buffer unparsed — a server returns true from
 * {@link #headerComplete()} to handle the request before reading further, and from
 * {@link #messageComplete()} so a pipelined next request is not parsed before this one is
 * answered.
 */
public interface HttpParserListener {

    /** The header is complete; the content, if any, follows. @return true to stop parsing */
    boolean headerComplete();

    /** A piece of content, never empty. @return true to stop parsing */
    boolean content(ByteBuffer content);

    /** All content was received; trailers (if any) follow. @return true to stop parsing */
    default boolean contentComplete() {
        return false;
    }

    /** A header field (before {@link #headerComplete()}). */
    void parsedHeader(HttpField field);

    /** A trailer field (after {@link #contentComplete()}). */
    default void parsedTrailer(HttpField field) {
    }

    /** The whole message was received. @return true to stop parsing */
    boolean messageComplete();

    /**
     * The message is bad; the parser is now in a terminal state and will parse nothing more
     * on this connection (nothing after a bad message is ever taken as the start of another).
     */
    void badMessage(BadMessageException failure);

    /** The peer closed before the message was complete. */
    void earlyEOF();

    /** The parser of a server: told a request line. */
    interface Request extends HttpParserListener {

        /**
         * @param method the method: an {@link HttpMethod} token or any other legal token
         * @param target the request-target as sent, not yet decoded
         * @param version the version
         */
        void startRequest(String method, String target, HttpVersion version);
    }

    /** The parser of a client: told a status line. */
    interface Response extends HttpParserListener {

        /**
         * @param version the version
         * @param status the status code
         * @param reason the reason phrase, possibly empty
         */
        void startResponse(HttpVersion version, int status, String reason);
    }
}
