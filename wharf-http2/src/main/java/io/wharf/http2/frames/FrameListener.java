package io.wharf.http2.frames;

import java.nio.ByteBuffer;

import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.io.Content;

/**
 * What a {@link FrameParser} found in the bytes of a connection: one call per frame (several
 * for a DATA frame that arrives in pieces), in the order the frames came, then at most one
 * connection error after which nothing more is told.
 *
 * <p><b>Threads.</b> Called on the thread that called {@link FrameParser#parse}, from inside
 * it; a listener must not call back into the parser. <b>Buffers.</b> A DATA chunk belongs to
 * the listener, which releases it (see {@link #onData}); every other buffer handed over is
 * valid only during the call.
 *
 * <p><b>What is checked.</b> The parser checks each frame on its own (RFC 9113 sections 4 and 6):
 * its size against SETTINGS_MAX_FRAME_SIZE, the fixed sizes, the stream identifiers, padding,
 * setting values, that a header block is not interleaved with other frames, and the header
 * block's bounds; frames of unknown types are skipped. It knows nothing of stream states,
 * flow-control windows or budgets: those are the session's.
 */
public interface FrameListener {

    /**
     * Content of a DATA frame on {@code streamId}: all of it, or the piece that arrived (a
     * frame split between reads comes in several calls, the last one {@code last} when the frame
     * ends the stream). Every DATA frame makes at least one call, even an empty one.
     *
     * <p>The chunk is a slice of the network buffer that retains it, so the listener owns one
     * reference and must release it once it is done with the bytes — the network buffer goes
     * back to its pool only then (the Content.Chunk convention of Wharf's HTTP/1 server).
     *
     * @param data the bytes, empty when only padding or END_STREAM arrived; its
     *     {@link Content.Chunk#isLast()} is true on the call that ends a frame with END_STREAM
     * @param padding the padding octets (the Pad Length octet included) accounted in this call,
     *     which for flow control count like the data: over all calls for one frame, the data and
     *     padding sum to the frame's payload length
     */
    void onData(int streamId, Content.Chunk data, int padding);

    /**
     * A HEADERS frame with its CONTINUATION frames, decoded.
     *
     * @param headers the fields; {@link HeaderBlock#tooLarge()} when the list passed our limit
     * @param priority the priority the frame carried, or null when it had none
     * @param endStream whether the frame ends the stream
     */
    void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream);

    /** A PRIORITY frame. */
    void onPriority(int streamId, Priority priority);

    /**
     * A RST_STREAM frame.
     *
     * @param errorCode the code as sent, 32 bits unsigned; {@link ErrorCode#from(long)} names it
     */
    void onRstStream(int streamId, long errorCode);

    /**
     * A SETTINGS frame, its values already checked against RFC 9113's ranges.
     *
     * @param settings the values the frame names; empty for an acknowledgement
     * @param ack whether it acknowledges our settings
     */
    void onSettings(Settings settings, boolean ack);

    /** A PUSH_PROMISE frame with its CONTINUATION frames, decoded. */
    void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers);

    /**
     * A PING frame.
     *
     * @param payload the 8 octets, big-endian
     * @param ack whether it answers our PING
     */
    void onPing(long payload, boolean ack);

    /**
     * A GOAWAY frame.
     *
     * @param errorCode the code as sent, 32 bits unsigned
     * @param debugData the debug data, read-only and valid only during the call
     */
    void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData);

    /**
     * A WINDOW_UPDATE frame with a non-zero increment ({@code streamId} 0 for the connection).
     *
     * @param increment 1 to 2^31 - 1
     */
    void onWindowUpdate(int streamId, int increment);

    /**
     * A frame that is an error on one stream only (RFC 9113 section 5.4.2): the session resets
     * the stream with {@code error}; parsing goes on.
     *
     * @param reason names the problem and the RFC rule; safe to send as debug data
     */
    void onStreamError(int streamId, ErrorCode error, String reason);

    /**
     * A connection error (RFC 9113 section 5.4.1): the session sends GOAWAY with {@code error}
     * and closes. The parser has failed: it ignores every later byte and tells nothing more.
     *
     * @param reason names the problem and the RFC rule; safe to send as debug data
     */
    void onConnectionError(ErrorCode error, String reason);

    /**
     * A frame of a type this parser does not know, about to be skipped (RFC 9113 section 4.1
     * asks to ignore it). Told so that a session can bound a flood of them; by default nothing.
     *
     * @param type the frame's type octet
     * @param length its payload length, which is skipped
     */
    default void onUnknownFrame(int type, int streamId, int length) {
    }
}
