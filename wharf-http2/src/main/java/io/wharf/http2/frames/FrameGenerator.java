package io.wharf.http2.frames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.internal.Flags;
import io.wharf.http2.frames.internal.Preface;
import io.wharf.http2.hpack.HeaderListTooLargeException;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The HTTP/2 frame generator of one connection (RFC 9113 sections 4 and 6): writes every frame
 * type into a {@link FrameBuffers}, splitting a header block into HEADERS (or PUSH_PROMISE) and
 * CONTINUATION frames and content into DATA frames no larger than the peer's
 * SETTINGS_MAX_FRAME_SIZE, with optional padding.
 *
 * <p><b>Threads.</b> Not thread-safe: header blocks must reach the peer in the order the
 * connection's {@link HpackEncoder} encoded them, so one thread at a time generates — the
 * connection's flusher — and writes the frames in the order generated.
 *
 * <p><b>Buffers.</b> Frame headers, control payloads and header blocks go into pooled buffers
 * owned by the {@code FrameBuffers}; DATA payloads are added as slices of the caller's buffer,
 * not copied (see {@link #data}). Flow control is the caller's: DATA is framed as given.
 *
 * <p>Arguments that no peer could accept (a stream identifier of 0 where a stream is needed,
 * an increment of 0, padding over 255) are programming errors: {@link IllegalArgumentException}.
 */
public final class FrameGenerator {

    private static final int FRAME_HEADER_LENGTH = 9;
    /** Heap DATA content up to this size goes into the frame bytes by copy rather than as a slice of its own. */
    static final int COPY_BELOW = 4096;
    /** Zeros to add as padding: padding is at most 255 octets. */
    private static final ByteBuffer ZEROS = ByteBuffer.allocate(255).asReadOnlyBuffer();

    private final HpackEncoder encoder;
    private int maxFrameSize = FrameParser.DEFAULT_MAX_FRAME_SIZE;

    /** @param encoder the connection's HPACK encoder, used for every header block */
    public FrameGenerator(HpackEncoder encoder) {
        this.encoder = Objects.requireNonNull(encoder, "encoder");
    }

    /** @return the connection's HPACK encoder */
    public HpackEncoder getEncoder() {
        return encoder;
    }

    /**
     * Sets the peer's SETTINGS_MAX_FRAME_SIZE: no frame generated after this is larger.
     *
     * @throws IllegalArgumentException when not within 16,384..16,777,215
     */
    public void setMaxFrameSize(int maxFrameSize) {
        if (maxFrameSize < FrameParser.DEFAULT_MAX_FRAME_SIZE || maxFrameSize > FrameParser.MAX_FRAME_SIZE_LIMIT) {
            throw new IllegalArgumentException("SETTINGS_MAX_FRAME_SIZE must be 16384..16777215: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /** @return the largest frame payload generated */
    public int getMaxFrameSize() {
        return maxFrameSize;
    }

    /** Writes the client connection preface, {@code PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n} (a client sends it first). */
    public void preface(FrameBuffers out) {
        ByteBuffer buffer = out.beginWrite(Preface.LENGTH);
        buffer.put(Preface.bytes());
        out.endWrite(buffer);
    }

    /**
     * Frames all the remaining bytes of {@code data} as DATA frames of at most the peer's
     * maximum size, END_STREAM on the last one when {@code endStream}; an empty {@code data}
     * makes one empty frame. The frames refer to slices of {@code data}, whose position moves
     * to its limit: its bytes must not change until the frames are written (small heap content
     * for direct buffers, up to 4 KiB, is copied instead).
     *
     * @param padding 0 for none, else 1..255 padding octets added to every frame (each then
     *     carries 1 + padding octets fewer of data)
     */
    public void data(FrameBuffers out, int streamId, ByteBuffer data, boolean endStream, int padding) {
        requireStream(streamId, "DATA");
        requirePadding(padding);
        if (padding == 0 && !data.isDirect() && data.remaining() <= COPY_BELOW) {
            // A little heap content: copied after its frame header. For a socket, into the direct
            // bytes, as the JDK would copy it into a temporary direct buffer to write it; for TLS,
            // which reads every byte to encrypt it anyway, instead of two slices and a pooled
            // buffer for the header alone.
            ByteBuffer bytes = out.beginWrite(FRAME_HEADER_LENGTH + data.remaining());
            putHeader(bytes, data.remaining(), FrameType.DATA, endStream ? Flags.END_STREAM : 0, streamId);
            bytes.put(data);
            out.endWrite(bytes);
            return;
        }
        int overhead = padding > 0 ? 1 + padding : 0;
        int perFrame = maxFrameSize - overhead;
        int frames = (int) Math.max(1, ((long) data.remaining() + perFrame - 1) / perFrame);
        RetainableByteBuffer headers = out.acquire(frames * (FRAME_HEADER_LENGTH + 1));
        ByteBuffer headerBytes = headers.byteBuffer();
        do {
            int chunk = Math.min(data.remaining(), perFrame);
            boolean last = chunk == data.remaining();
            int flags = (last && endStream ? Flags.END_STREAM : 0) | (padding > 0 ? Flags.PADDED : 0);
            int start = headerBytes.limit();
            headerBytes.limit(start + FRAME_HEADER_LENGTH + (padding > 0 ? 1 : 0)).position(start);
            putHeader(headerBytes, chunk + overhead, FrameType.DATA, flags, streamId);
            if (padding > 0) {
                headerBytes.put((byte) padding);
            }
            out.add(headerBytes.slice(start, headerBytes.position() - start));
            headerBytes.position(0);
            if (chunk > 0) {
                out.add(data.slice(data.position(), chunk));
                data.position(data.position() + chunk);
            }
            if (padding > 0) {
                out.add(ZEROS.slice(0, padding));
            }
        } while (data.hasRemaining());
    }

    /**
     * Encodes {@code fields} (pseudo-headers first) and frames the block as a HEADERS frame
     * followed by as many CONTINUATION frames as the peer's maximum frame size needs.
     *
     * @param priority the priority to send, or null for none
     * @param padding 0 for none, else 1..255 padding octets in the HEADERS frame
     * @throws HeaderListTooLargeException when the fields exceed the peer's SETTINGS_MAX_HEADER_LIST_SIZE;
     *     nothing was written and the encoder's table did not change
     */
    public void headers(FrameBuffers out, int streamId, HttpFields fields, Priority priority, boolean endStream,
                        int padding) {
        requireStream(streamId, "HEADERS");
        requirePadding(padding);
        int flags = (endStream ? Flags.END_STREAM : 0) | (priority != null ? Flags.PRIORITY : 0);
        headerBlock(out, FrameType.HEADERS, streamId, flags, priority, 0, fields, padding);
    }

    /**
     * Encodes {@code fields} (the promised request's pseudo-headers first) as a PUSH_PROMISE
     * frame followed by CONTINUATION frames as needed.
     *
     * @throws HeaderListTooLargeException as {@link #headers} does
     */
    public void pushPromise(FrameBuffers out, int streamId, int promisedStreamId, HttpFields fields, int padding) {
        requireStream(streamId, "PUSH_PROMISE");
        requireStream(promisedStreamId, "a promised");
        requirePadding(padding);
        headerBlock(out, FrameType.PUSH_PROMISE, streamId, 0, null, promisedStreamId, fields, padding);
    }

    /**
     * Writes the first frame's header, its Pad Length, priority or promised stream, the block
     * straight after them, then its padding; when the block is larger than one frame, moves
     * the rest into CONTINUATION frames.
     */
    private void headerBlock(FrameBuffers out, FrameType type, int streamId, int flags, Priority priority,
                             int promisedStreamId, HttpFields fields, int padding) {
        int bound = encoder.maxEncodedLength(fields);
        if (bound > Integer.MAX_VALUE - 2 * FRAME_HEADER_LENGTH - 255) {
            throw new IllegalArgumentException("a header block of " + bound + " octets is too large to frame");
        }
        int extras = (padding > 0 ? 1 + padding : 0) + (priority != null ? 5 : 0) + (promisedStreamId != 0 ? 4 : 0);
        int prefix = FRAME_HEADER_LENGTH + (padding > 0 ? 1 : 0) + (priority != null ? 5 : 0) + (promisedStreamId != 0 ? 4 : 0);
        ByteBuffer buffer = out.beginWrite(prefix + bound + padding);
        int frameStart = buffer.position();
        buffer.position(frameStart + prefix);
        encoder.encode(fields, buffer);
        int blockEnd = buffer.position();
        int blockLength = blockEnd - frameStart - prefix;
        int firstFragment = Math.min(blockLength, maxFrameSize - extras);
        boolean single = firstFragment == blockLength;

        ByteBuffer rest = null;
        if (!single) {
            rest = continuations(out, streamId, buffer, frameStart + prefix + firstFragment, blockEnd);
        }
        buffer.position(frameStart);
        putHeader(buffer, firstFragment + extras, type,
            flags | (single ? Flags.END_HEADERS : 0) | (padding > 0 ? Flags.PADDED : 0), streamId);
        if (padding > 0) {
            buffer.put((byte) padding);
        }
        if (priority != null) {
            buffer.putInt(priority.dependency() | (priority.exclusive() ? 0x8000_0000 : 0));
            buffer.put((byte) (priority.weight() - 1));
        }
        if (promisedStreamId != 0) {
            buffer.putInt(promisedStreamId);
        }
        buffer.position(frameStart + prefix + firstFragment);
        for (int i = 0; i < padding; i++) {
            buffer.put((byte) 0);
        }
        out.endWrite(buffer);
        if (rest != null) {
            out.add(rest);
        }
    }

    /** Copies the block's octets {@code [from, to)} into CONTINUATION frames in a buffer of their own. */
    private ByteBuffer continuations(FrameBuffers out, int streamId, ByteBuffer block, int from, int to) {
        int octets = to - from;
        int frames = (octets + maxFrameSize - 1) / maxFrameSize;
        RetainableByteBuffer continuation = out.acquire(octets + frames * FRAME_HEADER_LENGTH);
        ByteBuffer target = continuation.byteBuffer();
        target.limit(target.capacity());
        for (int at = from; at < to; at += maxFrameSize) {
            int fragment = Math.min(maxFrameSize, to - at);
            putHeader(target, fragment, FrameType.CONTINUATION, at + fragment == to ? Flags.END_HEADERS : 0, streamId);
            target.put(target.position(), block, at, fragment);
            target.position(target.position() + fragment);
        }
        return target.flip();
    }

    /** Writes a PRIORITY frame. */
    public void priority(FrameBuffers out, int streamId, Priority priority) {
        requireStream(streamId, "PRIORITY");
        ByteBuffer buffer = out.beginWrite(FRAME_HEADER_LENGTH + 5);
        putHeader(buffer, 5, FrameType.PRIORITY, 0, streamId);
        buffer.putInt(priority.dependency() | (priority.exclusive() ? 0x8000_0000 : 0));
        buffer.put((byte) (priority.weight() - 1));
        out.endWrite(buffer);
    }

    /** Writes a RST_STREAM frame. */
    public void rstStream(FrameBuffers out, int streamId, ErrorCode error) {
        requireStream(streamId, "RST_STREAM");
        ByteBuffer buffer = out.beginWrite(FRAME_HEADER_LENGTH + 4);
        putHeader(buffer, 4, FrameType.RST_STREAM, 0, streamId);
        buffer.putInt(error.code());
        out.endWrite(buffer);
    }

    /** Writes a SETTINGS frame naming each setting {@code settings} holds, in {@link Setting} order. */
    public void settings(FrameBuffers out, Settings settings) {
        int length = 6 * settings.size();
        ByteBuffer buffer = out.beginWrite(FRAME_HEADER_LENGTH + length);
        putHeader(buffer, length, FrameType.SETTINGS, 0, 0);
        for (Setting setting : Setting.values()) {
            if (settings.contains(setting)) {
                buffer.putShort((short) setting.id());
                buffer.putInt((int) settings.get(setting));
            }
        }
        out.endWrite(buffer);
    }

    /** Writes the acknowledgement of the peer's SETTINGS. */
    public void settingsAck(FrameBuffers out) {
        ByteBuffer buffer = out.beginWrite(FRAME_HEADER_LENGTH);
        putHeader(buffer, 0, FrameType.SETTINGS, Flags.ACK, 0);
        out.endWrite(buffer);
    }

    /** Writes a PING frame, or its acknowledgement when {@code ack}. */
    public void ping(FrameBuffers out, long payload, boolean ack) {
        ByteBuffer buffer = out.beginWrite(FRAME_HEADER_LENGTH + 8);
        putHeader(buffer, 8, FrameType.PING, ack ? Flags.ACK : 0, 0);
        buffer.putLong(payload);
        out.endWrite(buffer);
    }

    /**
     * Writes a GOAWAY frame.
     *
     * @param debug text for the peer's logs, sent as UTF-8 and cut to fit one frame; may be null
     */
    public void goAway(FrameBuffers out, int lastStreamId, ErrorCode error, String debug) {
        if (lastStreamId < 0) {
            throw new IllegalArgumentException("last stream identifier must not be negative: " + lastStreamId);
        }
        byte[] debugData = debug == null ? new byte[0] : debug.getBytes(StandardCharsets.UTF_8);
        int debugLength = Math.min(debugData.length, maxFrameSize - 8);
        ByteBuffer buffer = out.beginWrite(FRAME_HEADER_LENGTH + 8 + debugLength);
        putHeader(buffer, 8 + debugLength, FrameType.GOAWAY, 0, 0);
        buffer.putInt(lastStreamId);
        buffer.putInt(error.code());
        buffer.put(debugData, 0, debugLength);
        out.endWrite(buffer);
    }

    /**
     * Writes a WINDOW_UPDATE frame ({@code streamId} 0 for the connection's window).
     *
     * @param increment 1 to 2^31 - 1
     */
    public void windowUpdate(FrameBuffers out, int streamId, int increment) {
        if (streamId < 0) {
            throw new IllegalArgumentException("stream identifier must not be negative: " + streamId);
        }
        if (increment < 1) {
            throw new IllegalArgumentException("window increment must be 1..2^31-1: " + increment);
        }
        ByteBuffer buffer = out.beginWrite(FRAME_HEADER_LENGTH + 4);
        putHeader(buffer, 4, FrameType.WINDOW_UPDATE, 0, streamId);
        buffer.putInt(increment);
        out.endWrite(buffer);
    }

    private static void putHeader(ByteBuffer buffer, int length, FrameType type, int flags, int streamId) {
        buffer.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length);
        buffer.put((byte) type.code()).put((byte) flags);
        buffer.putInt(streamId);
    }

    private static void requireStream(int streamId, String frame) {
        if (streamId <= 0) {
            throw new IllegalArgumentException(frame + " stream identifier must be positive: " + streamId);
        }
    }

    private static void requirePadding(int padding) {
        if (padding < 0 || padding > 255) {
            throw new IllegalArgumentException("padding must be 0..255 octets: " + padding);
        }
    }

    @Override
    public String toString() {
        return "FrameGenerator[max frame " + maxFrameSize + ", " + encoder + "]";
    }
}
