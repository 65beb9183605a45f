package io.wharf.server.http1.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;
import io.wharf.http.MimeTypes;
import io.wharf.server.internal.Http1Handover;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The steps that read one request head on an {@link HttpConnection}, which its request loop
 * runs while no exchange is under way, and the answer to a head that cannot be parsed.
 *
 * <pre>
 *  read ─► bytes buffered ─► a connection's first bytes, maybe a preface (Http1Handover):
 *   │                          WHOLE: hand the endpoint over ─► CLOSED
 *   │                          PARTIAL: read more ─► AGAIN, or WAITING
 *   │                          BROKEN: refused as that protocol refuses, then drained
 *   │                        else the parser ─► a head: READY (the connection's exchange)
 *   │                                        ─► no head yet: AGAIN
 *   └───► nothing buffered ─► fill ─► bytes: the slow-request guard (408 when too slow) ─► AGAIN
 *                                 ─► none now: WAITING (the codec goes back when idle)
 *                                 ─► the end of input: what is buffered is parsed ─► CLOSED
 * </pre>
 *
 * <p>It holds nothing: every step works on the connection it is given, on the thread that runs
 * that connection's request loop. <b>Buffers.</b> The connection's network buffer, borrowed by
 * {@link HttpConnection#fill()} and released by the step that finds it empty or the connection
 * done reading; a bad message's answer is written from a heap buffer.
 */
final class RequestHeadReader {

    private static final Logger LOG = LoggerFactory.getLogger(RequestHeadReader.class);

    /** Where reading a request head is, after one of its steps. */
    enum Head {
        /** A whole head was parsed: its exchange is ready to handle. */
        READY,
        /** The step is done; the next one goes on reading. */
        AGAIN,
        /**
         * No bytes now: the caller registers the connection's fill interest to wait for the
         * selector. The caller does it, not the step that found no bytes, to keep the
         * registration's compare-and-set shallow in the compiled request loop (see FillInterest).
         */
        WAITING,
        /** The connection is closed, or was handed to another protocol: the loop stops. */
        CLOSED
    }

    private RequestHeadReader() {
    }

    /**
     * Reads until a request head of {@code connection} is complete, one step at a time: parse
     * what is buffered (after a look for another protocol's preface), else read more (guarding
     * against slow clients), else wait, else end at the end of input.
     *
     * @return {@link Head#READY}, {@link Head#WAITING} or {@link Head#CLOSED}
     */
    static Head read(HttpConnection connection) {
        try {
            while (true) {
                Head step = connection.hasBufferedBytes() ? parseBuffered(connection) : fillForHead(connection);
                if (step != Head.AGAIN) {
                    return step;
                }
            }
        } catch (Throwable x) {
            LOG.debug("Reading requests failed on {}", connection, x);
            connection.releaseNetwork();
            connection.getEndPoint().close(x);
            return Head.CLOSED;
        }
    }

    /**
     * Parses the buffered bytes: the first bytes of a connection may be another protocol's
     * preface; after a bad message the bytes are drained, never parsed.
     */
    private static Head parseBuffered(HttpConnection connection) throws IOException {
        ByteBuffer bytes = connection.network().byteBuffer();
        HttpParser parser = connection.codec().parser;
        // The bytes first, the connector's (synchronized) factories only for what may be a preface.
        if (connection.requests() == 0 && parser.isStart() && mayBePreface(bytes)) {
            Http1Handover handover = connection.getConnector().getConnectionFactory(Http1Handover.class);
            Head step = handover == null ? null : takePreface(connection, handover, bytes);
            if (step != null) {
                return step;
            }
        }
        if (parser.isClosed()) {
            // After a bad message nothing more is parsed: drain until the client closes.
            bytes.position(bytes.limit());
            return Head.AGAIN;
        }
        parser.parseNext(bytes);
        if (connection.exchange() != null) {
            return Head.READY;
        }
        if (!connection.getEndPoint().isOpen()) {
            connection.releaseNetwork();
            return Head.CLOSED;
        }
        return Head.AGAIN;
    }

    /**
     * @return whether a connection's first bytes may be another protocol's preface: they do not
     *     start with a standard method's request line, or start with {@code PRI}, the method no
     *     HTTP/1 request uses (RFC 9113 section 3.4 reserves it for a preface)
     */
    private static boolean mayBePreface(ByteBuffer bytes) {
        HttpMethod method = HttpMethod.LOOK_AHEAD.getBest(bytes);
        return method == null || method == HttpMethod.PRI;
    }

    /**
     * Acts on what the first bytes say about the preface of the protocol of {@code handover}.
     *
     * @return the step's outcome, or null when the bytes are for the HTTP/1 parser
     */
    private static Head takePreface(HttpConnection connection, Http1Handover handover, ByteBuffer bytes) throws IOException {
        switch (handover.preface(bytes)) {
            case WHOLE -> {
                // The client sent the preface: the other protocol's connection takes the endpoint, with the bytes read.
                connection.giveBackCodec();
                connection.getEndPoint().upgrade(handover.newConnection(connection.getConnector(), connection.getEndPoint()));
                return Head.CLOSED;
            }
            case PARTIAL -> {
                int filled = connection.fill();
                if (filled > 0) {
                    return Head.AGAIN;
                }
                if (filled == 0) {
                    return Head.WAITING;
                }
                // The end of input: what came is parsed as HTTP/1.
                return null;
            }
            case BROKEN -> {
                // Answered as the other protocol answers a bad preface; nothing more is read as a request.
                connection.codec().parser.close();
                handover.refuseBrokenPreface(connection.getEndPoint(), connection.getConnector().getByteBufferPool());
                return Head.AGAIN;
            }
            default -> {
                return null;
            }
        }
    }

    /**
     * Nothing is buffered: reads (unless the last read found the socket empty), guards the head
     * against a slow client, and waits for the selector when nothing came.
     */
    private static Head fillForHead(HttpConnection connection) throws IOException {
        int filled;
        if (connection.takeDrained()) {
            // The last read found the socket empty before this request's bytes ran out.
            filled = 0;
        } else {
            filled = connection.fill();
            if (connection.getEndPoint().getConnection() != connection) {
                // The read completed a TLS handshake whose ALPN switched the endpoint to another protocol.
                connection.releaseNetwork();
                connection.giveBackCodec();
                return Head.CLOSED;
            }
        }
        if (filled > 0) {
            guardHeadBytes(connection, filled);
            return Head.AGAIN;
        }
        connection.releaseNetworkIfUnused();
        return filled == 0 ? waitForHead(connection) : endOfInput(connection);
    }

    /** Bytes of a head arrived: a client too slow is answered 408 and nothing more is parsed. */
    private static void guardHeadBytes(HttpConnection connection, int filled) {
        HttpCodec codec = connection.codec();
        try {
            codec.guard.headBytes(filled);
        } catch (BadMessageException tooSlow) {
            codec.parser.close();
            refuse(connection, tooSlow);
        }
    }

    /** No bytes now: the connection is to wait for the selector, holding no codec when nothing is under way. */
    private static Head waitForHead(HttpConnection connection) {
        if (connection.isShutdown()) {
            connection.getEndPoint().close();
            return Head.CLOSED;
        }
        connection.codec().guard.waitingForHead(connection);
        connection.giveBackCodecIfIdle();
        return Head.WAITING;
    }

    /** The client closed its output: what is buffered is parsed to the end, then the connection closes. */
    private static Head endOfInput(HttpConnection connection) {
        HttpParser parser = connection.codec().parser;
        parser.atEOF();
        if (connection.hasBufferedBytes()) {
            parser.parseNext(connection.network().byteBuffer());
        }
        // Bytes a closed parser left unread (after a bad message) go with the buffer.
        connection.releaseNetwork();
        connection.getEndPoint().close();
        return Head.CLOSED;
    }

    /**
     * Answers a request of {@code connection} whose head could not be parsed (or came too
     * slowly), then closes: nothing after a bad message is read. The reason names the problem
     * and never echoes the request's bytes. A connection's first bytes that are not HTTP/1 at
     * all are refused as the protocol of the connector's {@link Http1Handover} would refuse them.
     */
    static void refuse(HttpConnection connection, BadMessageException failure) {
        LOG.debug("Bad message on {}", connection, failure);
        if (connection.requests() == 0 && HttpParser.NOT_HTTP_1.equals(failure.getReason())) {
            Http1Handover handover = connection.getConnector().getConnectionFactory(Http1Handover.class);
            if (handover != null) {
                handover.refuseNotHttp1(connection.getEndPoint(), connection.getConnector().getByteBufferPool());
                return;
            }
        }
        String body = failure.getStatus() + " " + HttpStatus.getReason(failure.getStatus()) + "\n" + failure.getReason() + "\n";
        HttpFields.Mutable fields = HttpFields.build(4)
                .add(MimeTypes.Type.TEXT_PLAIN_UTF_8.getContentTypeField())
                .add(HttpHeader.CONNECTION, "close");
        HttpVersion version = connection.getHttpVersion() == HttpVersion.HTTP_1_0 ? HttpVersion.HTTP_1_0 : HttpVersion.HTTP_1_1;
        MetaData.Response info = new MetaData.Response(failure.getStatus(), null, version, fields, -1, null);
        HttpCodec codec = connection.codec();
        codec.generator.reset();
        codec.generator.setPersistent(false);
        Callback close = Callback.from(InvocationType.NON_BLOCKING,
                () -> connection.getEndPoint().shutdownOutput(), cause -> connection.getEndPoint().close(cause));
        codec.responseWrite.write(false, info, ByteBuffer.wrap(body.getBytes(StandardCharsets.UTF_8)), true, close);
    }
}
