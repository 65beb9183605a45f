package io.wharf.server.internal;

import java.nio.ByteBuffer;
import java.util.function.Function;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpVersion;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.server.ConnectionFactory;
import io.wharf.server.Connector;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * The hook by which another protocol takes over a cleartext HTTP/1.1 connection: a connection
 * factory that implements it and sits on the same connector (HTTP/2's h2c factory does) tells
 * the HTTP/1.1 connection what its clients' preface looks like, how it answers a broken one, and
 * which HTTP/1.1 {@code Upgrade} request it takes. The HTTP/1.1 connection asks its connector
 * for such a factory only when the first bytes are not a standard HTTP/1 request line, or a
 * request carries {@code Upgrade}, and so never names the protocol.
 *
 * <p>Called on the HTTP/1.1 connection's reading thread; implementations hold no state per
 * connection.
 */
public interface Http1Handover extends ConnectionFactory {

    /** What a connection's first bytes say about the preface of the protocol taking over. */
    enum Preface {
        /** The whole preface: the connection is this protocol's ({@link #newConnection}). */
        WHOLE,
        /** Too few bytes to tell, all matching the preface so far. */
        PARTIAL,
        /** The start of the preface, then other bytes: a client of this protocol with a broken preface. */
        BROKEN,
        /** Not the preface: HTTP/1. */
        NONE
    }

    /** @return what the bytes from {@code bytes}' position (left unchanged) say about the preface */
    Preface preface(ByteBuffer bytes);

    /** Answers a connection whose preface is {@link Preface#BROKEN} as the protocol would, then closes its output. */
    void refuseBrokenPreface(EndPoint endPoint, ByteBufferPool pool);

    /**
     * Answers a connection whose first line is no HTTP/1 request line at all, which a client of
     * this protocol with a broken preface is as likely to have sent as anything; then closes its output.
     */
    void refuseNotHttp1(EndPoint endPoint, ByteBufferPool pool);

    /**
     * @param length the request content's length, -1 when chunked
     * @return what makes the connection taking over after a 101 for this request, which offers
     *     a switch to this protocol; or null to serve the request as HTTP/1.1
     */
    Function<EndPoint, Connection> upgrade(Connector connector, String method, String target, HttpVersion version,
                                           HttpFields fields, long length);
}
