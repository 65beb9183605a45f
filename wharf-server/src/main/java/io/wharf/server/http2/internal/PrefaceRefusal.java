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
 * The answer, on a port that speaks both HTTP/1.1 and h2c, to a connection whose first line is
 * neither an HTTP/1 request line nor HTTP/2's connection preface: an HTTP/2 client with a
 * broken preface as likely as anything, so it gets what HTTP/2 answers a bad preface with
 * (RFC 9113 section 3.4), a GOAWAY with PROTOCOL_ERROR whose debug text names the problem,
 * and the connection closes. (An HTTP/1 400 would be no clearer to a peer that does not speak
 * HTTP/1, and an HTTP/2 peer could not read it.)
 */
public final class PrefaceRefusal {

    static final String REASON = "neither an HTTP/1 request line nor the HTTP/2 connection preface";

    private PrefaceRefusal() {
    }

    /** Writes the GOAWAY on {@code endPoint}, then closes it. */
    public static void write(EndPoint endPoint, ByteBufferPool pool) {
        FrameBuffers frames = new FrameBuffers(pool, false);
        new FrameGenerator(new HpackEncoder()).goAway(frames, 0, ErrorCode.PROTOCOL_ERROR, REASON);
        endPoint.write(Callback.from(InvocationType.NON_BLOCKING, () -> {
            frames.release();
            endPoint.shutdownOutput();
        }, cause -> {
            frames.release();
            endPoint.close(cause);
        }), frames.toArray());
    }
}
