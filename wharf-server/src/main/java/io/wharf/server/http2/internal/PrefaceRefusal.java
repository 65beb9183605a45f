package io.wharf.server.http2.internal;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * The answer, on a port that speaks both HTTP/1.1 and h2c, to a connection that starts with
 * something neither HTTP/1 nor HTTP/2: a first line that is no HTTP/1 request line at all
 * (neither a standard method nor an HTTP version: {@link #NOT_HTTP}), or HTTP/2's preface
 * request line {@code PRI * HTTP/2.0} followed by other bytes than the preface's
 * ({@link #INVALID_PREFACE}). Either is an HTTP/2 client with a broken preface as likely as
 * anything, so it gets what HTTP/2 answers a bad preface with (RFC 9113 section 3.4), a GOAWAY
 * with PROTOCOL_ERROR whose debug text names the problem, and the connection closes. (An HTTP/1
 * 400 would be no clearer to a peer that does not speak HTTP/1, and an HTTP/2 peer could not
 * read it.) A line that is HTTP/1 by its method or its version, however malformed, gets
 * HTTP/1's 400 instead. Called on the HTTP/1.1 connection's reading thread, through the h2c
 * factory's {@link io.wharf.server.internal.Http1Handover} methods.
 */
public final class PrefaceRefusal {

    /** The debug text for a first line that is not HTTP/1 at all. */
    public static final String NOT_HTTP = "neither an HTTP/1 request line nor the HTTP/2 connection preface";
    /** The debug text for {@code PRI * HTTP/2.0} not followed by the rest of the preface, as an h2c connection words it. */
    public static final String INVALID_PREFACE = "not the HTTP/2 connection preface (RFC 9113 section 3.4)";

    private PrefaceRefusal() {
    }

    /** Writes the GOAWAY, with {@code reason} as its debug text, on {@code endPoint}, then closes its output. */
    public static void write(EndPoint endPoint, ByteBufferPool pool, String reason) {
        FrameBuffers frames = new FrameBuffers(pool, false);
        new FrameGenerator(new HpackEncoder()).goAway(frames, 0, ErrorCode.PROTOCOL_ERROR, reason);
        endPoint.write(Callback.from(InvocationType.NON_BLOCKING, () -> {
            frames.release();
            endPoint.shutdownOutput();
        }, cause -> {
            frames.release();
            endPoint.close(cause);
        }), frames.toArray());
    }
}
