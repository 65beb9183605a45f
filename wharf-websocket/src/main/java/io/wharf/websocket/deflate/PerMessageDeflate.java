package io.wharf.websocket.deflate;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.websocket.core.CloseStatus;
import io.wharf.websocket.core.Extension;
import io.wharf.websocket.core.ExtensionConfig;
import io.wharf.websocket.core.Frame;
import io.wharf.websocket.core.OpCode;
import io.wharf.websocket.core.ProtocolException;

/**
 * permessage-deflate (RFC 7692) for one session, as {@link PerMessageDeflateFactory} agreed it:
 * every data message sent is compressed, a received message is inflated when its first frame
 * has RSV1 set, and control frames are left alone.
 *
 * <p><b>Sending</b> ({@link #encode}, the flusher's thread): each frame's payload is deflated
 * with a sync flush, so a fragmented message is compressed fragment by fragment in order; the
 * first frame of a message carries RSV1, its continuations none; the final frame drops the
 * {@code 00 00 ff ff} the flush ends with (an empty result is sent as one {@code 00} byte).
 * With no context takeover for our side the deflater is reset and given back to the pool
 * after each message; otherwise the session keeps it. A window smaller than 15 bits asked of
 * our side is honoured by Huffman-only coding: the output has no back-references at all, so
 * it fits any window (the JDK's deflater offers no smaller window).
 *
 * <p><b>Receiving</b> ({@link #decode}, the reading thread): a compressed message's frames are
 * inflated in chunks of at most {@value #CHUNK} bytes, and the final frame is followed by the
 * {@code 00 00 ff ff} tail. Each chunk goes to the sink (the message assembler) before the next
 * is made, so the message limits are checked on inflated bytes as they appear: a small frame
 * that would inflate to gigabytes stops at the limit with 1009, holding no more than the
 * limit and one chunk. Undecodable data closes with 1007.
 *
 * <p><b>Buffers.</b> Inflated chunks live in one pooled buffer per decoded frame, reused chunk
 * after chunk and released before {@code decode} returns. Deflated payloads live in pooled
 * buffers handed to the flusher in {@code held}. The codecs come from the factory's
 * {@link CodecPool}s and go back in {@link #closeIncoming()} and {@link #closeOutgoing()}.
 */
final class PerMessageDeflate implements Extension {

    static final int RSV1 = 0b100;
    /** The most inflated bytes made before the sink sees them. */
    static final int CHUNK = 16 * 1024;
    private static final byte[] TAIL = {0, 0, (byte) 0xFF, (byte) 0xFF};

    private final ExtensionConfig config;
    private final ByteBufferPool buffers;
    private final CodecPool<Inflater> inflaters;
    private final CodecPool<Deflater> deflaters;
    /** The peer resets its compressor after each message: so may our inflater. */
    private final boolean incomingNoContextTakeover;
    /** We promised to reset our compressor after each message. */
    private final boolean outgoingNoContextTakeover;

    // The reading thread's half.
    private CodecPool.Lease<Inflater> inflater;
    private boolean inflating;
    private byte incomingOpcode;
    private boolean incomingStarted;

    // The writing thread's half.
    private CodecPool.Lease<Deflater> deflater;

    PerMessageDeflate(ExtensionConfig config, ByteBufferPool buffers, CodecPool<Inflater> inflaters, CodecPool<Deflater> deflaters,
            boolean incomingNoContextTakeover, boolean outgoingNoContextTakeover) {
        this.config = config;
        this.buffers = buffers;
        this.inflaters = inflaters;
        this.deflaters = deflaters;
        this.incomingNoContextTakeover = incomingNoContextTakeover;
        this.outgoingNoContextTakeover = outgoingNoContextTakeover;
    }

    @Override
    public ExtensionConfig config() {
        return config;
    }

    @Override
    public int rsv() {
        return RSV1;
    }

    @Override
    public void decode(Frame frame, Consumer<Frame> sink) {
        if (frame.opcode() != OpCode.CONTINUATION) {
            inflating = (frame.rsv() & RSV1) != 0;
            incomingOpcode = frame.opcode();
            incomingStarted = false;
        }
        if (!inflating) {
            sink.accept(frame);
            return;
        }
        if (inflater == null) {
            inflater = inflaters.lend();
        }
        Inflater codec = inflater.codec();
        RetainableByteBuffer chunk = buffers.acquire(CHUNK, false);
        try {
            codec.setInput(frame.payload());
            inflate(codec, chunk.byteBuffer(), sink);
            if (frame.fin()) {
                if (!codec.finished()) {
                    codec.setInput(TAIL);
                    inflate(codec, chunk.byteBuffer(), sink);
                }
                emit(sink, true, chunk.byteBuffer().clear().limit(0));
                endIncomingMessage(codec);
            }
        } finally {
            chunk.release();
        }
    }

    /** Inflates what the inflater's input holds, chunk by chunk, each handed to the sink at once. */
    private void inflate(Inflater codec, ByteBuffer chunk, Consumer<Frame> sink) {
        while (true) {
            chunk.clear();
            int inflated;
            try {
                inflated = codec.inflate(chunk);
            } catch (DataFormatException x) {
                throw new ProtocolException(CloseStatus.BAD_DATA, "bad permessage-deflate data: " + x.getMessage());
            }
            if (inflated > 0) {
                emit(sink, false, chunk.flip());
            } else if (codec.needsDictionary()) {
                throw new ProtocolException(CloseStatus.BAD_DATA, "permessage-deflate data asks for a preset dictionary");
            } else if (codec.needsInput() || codec.finished()) {
                return;
            }
        }
    }

    private void emit(Consumer<Frame> sink, boolean fin, ByteBuffer payload) {
        byte opcode = incomingStarted ? OpCode.CONTINUATION : incomingOpcode;
        incomingStarted = true;
        sink.accept(new Frame(fin, 0, opcode, payload));
    }

    private void endIncomingMessage(Inflater codec) {
        inflating = false;
        // A peer may end its stream with a final block (RFC 7692 section 7.2.3.3): the next message starts afresh.
        if (incomingNoContextTakeover || codec.finished()) {
            inflaters.giveBack(inflater);
            inflater = null;
        }
    }

    @Override
    public Frame encode(Frame frame, List<RetainableByteBuffer> held) {
        if (frame.isControl()) {
            return frame;
        }
        if (deflater == null) {
            deflater = deflaters.lend();
        }
        Deflater codec = deflater.codec();
        ByteBuffer input = frame.payload().duplicate();
        RetainableByteBuffer output = buffers.acquire(input.remaining() / 2 + 64, false);
        ByteBuffer target = output.byteBuffer().clear();
        codec.setInput(input);
        while (true) {
            codec.deflate(target, Deflater.SYNC_FLUSH);
            if (!target.hasRemaining()) {
                RetainableByteBuffer bigger = buffers.acquire(target.capacity() * 2, false);
                ByteBuffer larger = bigger.byteBuffer().clear();
                larger.put(target.flip());
                output.release();
                output = bigger;
                target = larger;
            } else if (codec.needsInput()) {
                break;
            }
        }
        target.flip();
        held.add(output);
        if (frame.fin()) {
            dropTail(target);
            if (outgoingNoContextTakeover) {
                deflaters.giveBack(deflater);
                deflater = null;
            }
        }
        return new Frame(frame.fin(), frame.opcode() == OpCode.CONTINUATION ? 0 : RSV1, frame.opcode(), target);
    }

    /** Removes the {@code 00 00 ff ff} a sync flush ends with; what is left empty becomes one {@code 00} byte. */
    private static void dropTail(ByteBuffer compressed) {
        int end = compressed.limit();
        if (end >= 4 && compressed.get(end - 4) == 0 && compressed.get(end - 3) == 0
                && compressed.get(end - 2) == (byte) 0xFF && compressed.get(end - 1) == (byte) 0xFF) {
            compressed.limit(end - 4);
        }
        if (!compressed.hasRemaining()) {
            compressed.limit(1).put(0, (byte) 0);
        }
    }

    @Override
    public void closeIncoming() {
        if (inflater != null) {
            inflaters.giveBack(inflater);
            inflater = null;
        }
    }

    @Override
    public void closeOutgoing() {
        if (deflater != null) {
            deflaters.giveBack(deflater);
            deflater = null;
        }
    }

    @Override
    public String toString() {
        return "PerMessageDeflate[" + config + "]";
    }
}
