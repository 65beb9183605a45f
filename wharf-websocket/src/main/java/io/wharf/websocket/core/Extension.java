package io.wharf.websocket.core;

import java.util.List;
import java.util.function.Consumer;

import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * One extension agreed for one session (RFC 6455 section 9), made by its
 * {@link ExtensionFactory} during the handshake: it transforms data frames on their way in and
 * out. Control frames never pass through an extension.
 *
 * <pre>
 *  reader: parser ─► frame ─► decode (last agreed first) ─► frames ─► MessageAssembler
 *  writer: send(frame) ─► FrameFlusher.process(): encode (first agreed first) ─► generator ─► write
 * </pre>
 *
 * <p><b>Threads.</b> {@link #decode} and {@link #closeIncoming()} are called by the
 * connection's reading loop, one at a time; {@link #encode} and {@link #closeOutgoing()} by its
 * {@link FrameFlusher}, one at a time, in the order frames are written. The two halves may run
 * at the same time on different threads and must share no mutable state.
 *
 * <p><b>Buffers.</b> {@code decode} hands its output frames to the sink one by one; a frame's
 * payload is valid only during the sink's call (the sink copies what it keeps). {@code encode}
 * returns a frame whose payload may be in a pooled buffer it acquired: it adds that buffer to
 * {@code held}, and the flusher releases it once the frame was written. A new extension holds
 * nothing until it is first used, so one agreed in a handshake that then fails costs nothing.
 */
public interface Extension {

    /** @return the extension as agreed, for the handshake response */
    ExtensionConfig config();

    /** @return the reserved bits the extension gives a meaning to, RSV1 as {@code 0b100} */
    int rsv();

    /**
     * Transforms one incoming data frame into zero or more frames for the next stage.
     *
     * @throws ProtocolException with the close status when the frame breaks the extension's rules
     *     or the sink refuses a frame (a message limit: the sink's exception passes through)
     */
    void decode(Frame frame, Consumer<Frame> sink);

    /**
     * Transforms one outgoing data frame (whole message or fragment, in the order written).
     *
     * @param held where to put pooled buffers the returned frame's payload lives in
     */
    Frame encode(Frame frame, List<RetainableByteBuffer> held);

    /** Lets the incoming half's resources go; called once, when reading is over. */
    void closeIncoming();

    /** Lets the outgoing half's resources go; called once, when writing is over. */
    void closeOutgoing();
}
