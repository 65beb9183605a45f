package io.wharf.http2.frames;

import java.nio.ByteBuffer;
import java.util.Objects;

import io.wharf.http2.frames.internal.ControlFrameReader;
import io.wharf.http2.frames.internal.Flags;
import io.wharf.http2.frames.internal.FrameRules;
import io.wharf.http2.frames.internal.HeaderBlockAssembler;
import io.wharf.http2.frames.internal.PayloadBuffer;
import io.wharf.http2.frames.internal.Preface;
import io.wharf.http2.frames.internal.Violation;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackException;
import io.wharf.io.Content;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The HTTP/2 frame parser of one connection (RFC 9113 sections 3.4, 4 and 6): reads frames
 * from network buffers split anywhere — a frame may arrive one byte at a time — checks each
 * one, decodes header blocks with the connection's {@link HpackDecoder}, and tells a
 * {@link FrameListener}.
 *
 * <pre>
 *  PREFACE (server only) ──► HEADER ─┬─► PAYLOAD (control frames, header blocks) ─┐
 *                              ▲     ├─► DATA (content handed out as it arrives) ──┤
 *                              │     └─► SKIP (unknown types, stream errors) ──────┤
 *                              └──────────────────────────────────────────────────┘
 *  any state ─► FAILED (a connection error): terminal, every later byte ignored
 * </pre>
 *
 * <p><b>Threads.</b> Not thread-safe: the connection calls {@link #parse} on the thread that
 * reads it, and every listener call comes from inside {@code parse} on that thread.
 *
 * <p><b>Buffers.</b> The caller owns the network buffer. {@code parse} consumes all of its
 * bytes (its position ends at its limit) and keeps no reference to it, except through the DATA
 * chunks it hands out: each is a slice that retains the network buffer once and belongs to the
 * listener, which releases it — so the caller must not compact or refill the buffer while a
 * chunk of it lives (the rule of Wharf's HTTP/1 connection). What must outlive a call — a frame
 * header or control payload split between reads, the fragments of a header block — is copied
 * into buffers borrowed from the pool for just that long; {@link #close()} gives them back if
 * the connection ends mid-frame. A complete header block in one HEADERS frame is decoded
 * straight from the network buffer, without a copy.
 *
 * <p><b>Bounds.</b> A frame longer than our SETTINGS_MAX_FRAME_SIZE is a FRAME_SIZE_ERROR before
 * any of its payload is read. A header block may take at most {@link #setMaxHeaderBlockBytes}
 * octets counting every frame of it with its 9-octet header, so a flood of CONTINUATION frames —
 * even empty ones — ends with ENHANCE_YOUR_CALM as soon as it passes the bound, having buffered
 * at most the bound. The decoder bounds the decoded header list ({@link HeaderBlock#tooLarge()}).
 * A server's parser first checks the client's connection preface; both sides' parsers require
 * the peer's first frame to be SETTINGS.
 */
public final class FrameParser {

    /** The initial SETTINGS_MAX_FRAME_SIZE of RFC 9113: 16,384 octets. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 16_384;
    /** The largest SETTINGS_MAX_FRAME_SIZE RFC 9113 allows: 2^24 - 1 octets. */
    public static final int MAX_FRAME_SIZE_LIMIT = 0xFF_FFFF;
    /** The default bound on one header block, frame headers included: 32 KiB. */
    public static final int DEFAULT_MAX_HEADER_BLOCK_BYTES = 32 * 1024;

    private static final int FRAME_HEADER_LENGTH = 9;

    /** Where the parser is in the byte stream. */
    public enum State {
        /** Matching the client connection preface (a server's parser only). */
        PREFACE,
        /** Reading a 9-octet frame header. */
        HEADER,
        /** Reading the payload of a frame that is handled whole. */
        PAYLOAD,
        /** Handing out the content of a DATA frame as it arrives. */
        DATA,
        /** Passing over the payload of a frame that is ignored. */
        SKIP,
        /** A connection error was told: every later byte is ignored. */
        FAILED
    }

    private final FrameListener listener;
    private final HpackDecoder decoder;
    private final boolean server;
    private final PayloadBuffer payload;
    private final HeaderBlockAssembler headerBlock;
    /** A frame header split between reads, gathered here. */
    private final byte[] header = new byte[FRAME_HEADER_LENGTH];
    private final ByteBuffer headerView = ByteBuffer.wrap(header);
    /** The payload of empty frames: this parser's own, as decoding moves its position. */
    private final ByteBuffer noBytes = ByteBuffer.allocate(0);
    private int maxFrameSize = DEFAULT_MAX_FRAME_SIZE;
    private int maxHeaderBlockBytes = DEFAULT_MAX_HEADER_BLOCK_BYTES;
    private State state;
    private int prefaceMatched;
    private boolean settingsExpected = true;
    private long headerBlockBytes;

    // The frame being read.
    private int headerFilled;
    private FrameType type;
    private int flags;
    private int streamId;
    private int length;
    /** Payload octets not read yet (PAYLOAD, SKIP). */
    private int remaining;
    // DATA: the Pad Length octet is pending until read; then data octets, then padding octets.
    private boolean padLengthPending;
    private int dataRemaining;
    private int paddingRemaining;
    private int paddingTotal;

    private FrameParser(FrameListener listener, HpackDecoder decoder, ByteBufferPool pool, boolean server) {
        this.listener = Objects.requireNonNull(listener, "listener");
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.payload = new PayloadBuffer(pool);
        this.headerBlock = new HeaderBlockAssembler(pool);
        this.server = server;
        this.state = server ? State.PREFACE : State.HEADER;
    }

    /** @return a parser for a server: the client's connection preface comes first, then its SETTINGS */
    public static FrameParser server(FrameListener listener, HpackDecoder decoder, ByteBufferPool pool) {
        return new FrameParser(listener, decoder, pool, true);
    }

    /** @return a parser for a client: the server's SETTINGS comes first */
    public static FrameParser client(FrameListener listener, HpackDecoder decoder, ByteBufferPool pool) {
        return new FrameParser(listener, decoder, pool, false);
    }

    /**
     * Sets our SETTINGS_MAX_FRAME_SIZE, once the peer acknowledged it (16,384 until then).
     *
     * @throws IllegalArgumentException when not within 16,384..16,777,215
     */
    public void setMaxFrameSize(int maxFrameSize) {
        if (maxFrameSize < DEFAULT_MAX_FRAME_SIZE || maxFrameSize > MAX_FRAME_SIZE_LIMIT) {
            throw new IllegalArgumentException("SETTINGS_MAX_FRAME_SIZE must be 16384..16777215: " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /** @return the largest frame payload accepted */
    public int getMaxFrameSize() {
        return maxFrameSize;
    }

    /** Sets the bound on one header block, each of its frames counted with its 9-octet header. */
    public void setMaxHeaderBlockBytes(int maxHeaderBlockBytes) {
        if (maxHeaderBlockBytes < FRAME_HEADER_LENGTH) {
            throw new IllegalArgumentException("header block bound too small: " + maxHeaderBlockBytes);
        }
        this.maxHeaderBlockBytes = maxHeaderBlockBytes;
    }

    /** @return the bound on one header block */
    public int getMaxHeaderBlockBytes() {
        return maxHeaderBlockBytes;
    }

    /** @return where the parser is */
    public State getState() {
        return state;
    }

    /**
     * Parses every byte of {@code network} from its position to its limit, telling the listener
     * what it finds; the position ends at the limit.
     *
     * @return false once a connection error was told (then and later, the bytes are ignored)
     */
    public boolean parse(RetainableByteBuffer network) {
        ByteBuffer buffer = network.byteBuffer();
        while (buffer.hasRemaining() && state != State.FAILED) {
            switch (state) {
                case PREFACE -> parsePreface(buffer);
                case HEADER -> parseHeader(buffer);
                case PAYLOAD -> parsePayload(buffer);
                case DATA -> parseData(buffer, network);
                case SKIP -> skip(buffer);
                default -> throw new IllegalStateException(state.toString());
            }
        }
        if (state == State.FAILED) {
            buffer.position(buffer.limit());
            return false;
        }
        return true;
    }

    /** Gives back the buffers of a frame or header block left unfinished; the parser parses nothing more. */
    public void close() {
        payload.release();
        headerBlock.close();
        state = State.FAILED;
    }

    private void parsePreface(ByteBuffer buffer) {
        while (buffer.hasRemaining() && prefaceMatched < Preface.LENGTH) {
            if (buffer.get() != Preface.at(prefaceMatched)) {
                fail(ErrorCode.PROTOCOL_ERROR, "not the HTTP/2 connection preface (RFC 9113 section 3.4)");
                return;
            }
            prefaceMatched++;
        }
        if (prefaceMatched == Preface.LENGTH) {
            state = State.HEADER;
        }
    }

    private void parseHeader(ByteBuffer buffer) {
        if (headerFilled == 0 && buffer.remaining() >= FRAME_HEADER_LENGTH) {
            int at = buffer.position();
            buffer.position(at + FRAME_HEADER_LENGTH);
            startFrame((buffer.get(at) & 0xFF) << 16 | (buffer.get(at + 1) & 0xFF) << 8 | buffer.get(at + 2) & 0xFF,
                buffer.get(at + 3) & 0xFF, buffer.get(at + 4) & 0xFF, ControlFrameReader.int32(buffer, at + 5));
            return;
        }
        int copied = Math.min(FRAME_HEADER_LENGTH - headerFilled, buffer.remaining());
        buffer.get(header, headerFilled, copied);
        headerFilled += copied;
        if (headerFilled == FRAME_HEADER_LENGTH) {
            headerFilled = 0;
            startFrame((header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF,
                header[3] & 0xFF, header[4] & 0xFF, ControlFrameReader.int32(headerView, 5));
        }
    }

    /** Checks a frame header before any of the payload is read, and picks the state that reads it. */
    private void startFrame(int frameLength, int typeCode, int frameFlags, int stream) {
        length = frameLength;
        type = FrameType.from(typeCode);
        flags = frameFlags;
        streamId = stream & 0x7FFF_FFFF;
        if (length > maxFrameSize) {
            fail(ErrorCode.FRAME_SIZE_ERROR, "frame of " + length + " octets exceeds SETTINGS_MAX_FRAME_SIZE "
                + maxFrameSize + " (RFC 9113 section 4.2)");
            return;
        }
        if (settingsExpected) {
            if (type != FrameType.SETTINGS || Flags.has(flags, Flags.ACK)) {
                fail(ErrorCode.PROTOCOL_ERROR, "the peer's first frame is a " + describe(typeCode)
                    + ", not SETTINGS (RFC 9113 section 3.4)");
                return;
            }
            settingsExpected = false;
        }
        if (headerBlock.isOpen() && (type != FrameType.CONTINUATION || streamId != headerBlock.streamId())) {
            fail(ErrorCode.PROTOCOL_ERROR, describe(typeCode) + " on stream " + streamId + " inside the header block of stream "
                + headerBlock.streamId() + " (RFC 9113 section 6.10)");
            return;
        }
        if (type == null) {
            listener.onUnknownFrame(typeCode, streamId, length);
            skipPayload();
            return;
        }
        Violation violation = FrameRules.check(type, flags, streamId, length);
        if (violation == null && type == FrameType.CONTINUATION && !headerBlock.isOpen()) {
            violation = Violation.connection(ErrorCode.PROTOCOL_ERROR,
                "CONTINUATION frame without a HEADERS or PUSH_PROMISE frame before it (RFC 9113 section 6.10)");
        }
        if (violation == null && type == FrameType.PUSH_PROMISE && server) {
            violation = Violation.connection(ErrorCode.PROTOCOL_ERROR, "PUSH_PROMISE frame sent by a client (RFC 9113 section 8.4)");
        }
        if (violation != null) {
            if (violation.connection()) {
                fail(violation.error(), violation.reason());
            } else {
                listener.onStreamError(streamId, violation.error(), violation.reason());
                skipPayload();
            }
            return;
        }
        switch (type) {
            case DATA -> startData();
            case HEADERS, PUSH_PROMISE, CONTINUATION -> {
                headerBlockBytes = (type == FrameType.CONTINUATION ? headerBlockBytes : 0) + FRAME_HEADER_LENGTH + length;
                if (headerBlockBytes > maxHeaderBlockBytes) {
                    fail(ErrorCode.ENHANCE_YOUR_CALM, "header block of stream " + streamId + " passes "
                        + maxHeaderBlockBytes + " octets with its frame headers (RFC 9113 section 10.5.1)");
                    return;
                }
                startPayload();
            }
            default -> startPayload();
        }
    }

    /** @return {@code "PING frame"}, or {@code "frame of unknown type 42"} */
    private static String describe(int typeCode) {
        FrameType known = FrameType.from(typeCode);
        return known != null ? known + " frame" : "frame of unknown type " + typeCode;
    }

    private void startPayload() {
        remaining = length;
        state = State.PAYLOAD;
        if (length == 0) {
            endPayload(noBytes, 0);
        }
    }

    private void skipPayload() {
        remaining = length;
        state = remaining == 0 ? State.HEADER : State.SKIP;
    }

    private void skip(ByteBuffer buffer) {
        int skipped = Math.min(remaining, buffer.remaining());
        buffer.position(buffer.position() + skipped);
        remaining -= skipped;
        if (remaining == 0) {
            state = State.HEADER;
        }
    }

    /** Reads a payload handled whole: straight from the network buffer when it is all there, else copied. */
    private void parsePayload(ByteBuffer buffer) {
        if (payload.isEmpty() && buffer.remaining() >= remaining) {
            int at = buffer.position();
            buffer.position(at + remaining);
            remaining = 0;
            endPayload(buffer, at);
            return;
        }
        payload.reserve(length);
        int copied = Math.min(remaining, buffer.remaining());
        payload.append(buffer, buffer.position(), copied);
        buffer.position(buffer.position() + copied);
        remaining -= copied;
        if (remaining == 0) {
            ByteBuffer bytes = payload.bytes();
            try {
                endPayload(bytes, bytes.position());
            } finally {
                payload.release();
            }
        }
    }

    /** Handles a whole payload found at absolute index {@code offset} of {@code bytes}. */
    private void endPayload(ByteBuffer bytes, int offset) {
        state = State.HEADER;
        switch (type) {
            case HEADERS, PUSH_PROMISE -> startHeaderBlock(bytes, offset);
            case CONTINUATION -> {
                headerBlock.append(bytes, offset, length);
                if (Flags.has(flags, Flags.END_HEADERS)) {
                    endHeaderBlock();
                }
            }
            default -> {
                Violation violation = ControlFrameReader.read(type, flags, streamId, bytes, offset, length, !server, listener);
                if (violation != null && violation.connection()) {
                    fail(violation.error(), violation.reason());
                } else if (violation != null) {
                    listener.onStreamError(streamId, violation.error(), violation.reason());
                }
            }
        }
    }

    /** A HEADERS or PUSH_PROMISE payload: padding, priority or promised stream, then the first fragment. */
    private void startHeaderBlock(ByteBuffer bytes, int offset) {
        int at = offset;
        int end = offset + length;
        int padLength = 0;
        if (Flags.has(flags, Flags.PADDED)) {
            padLength = bytes.get(at++) & 0xFF;
        }
        Priority priority = null;
        int promisedStreamId = 0;
        if (type == FrameType.HEADERS && Flags.has(flags, Flags.PRIORITY)) {
            priority = ControlFrameReader.priority(bytes, at);
            at += 5;
        } else if (type == FrameType.PUSH_PROMISE) {
            promisedStreamId = ControlFrameReader.int32(bytes, at) & 0x7FFF_FFFF;
            at += 4;
        }
        if (padLength > end - at) {
            fail(ErrorCode.PROTOCOL_ERROR, type + " padding of " + padLength + " octets exceeds the " + (end - at)
                + " left in the frame (RFC 9113 section 6.2)");
            return;
        }
        end -= padLength;
        boolean endStream = type == FrameType.HEADERS && Flags.has(flags, Flags.END_STREAM);
        if (Flags.has(flags, Flags.END_HEADERS)) {
            HeaderBlock block = decode(bytes, at, end - at);
            if (block != null) {
                deliver(type, streamId, block, endStream, priority, promisedStreamId);
            }
        } else {
            headerBlock.open(type, streamId, endStream, priority, promisedStreamId, bytes, at, end - at);
        }
    }

    private void endHeaderBlock() {
        ByteBuffer block = headerBlock.block();
        HeaderBlock decoded = decode(block, block.position(), block.remaining());
        FrameType blockType = headerBlock.type();
        int blockStream = headerBlock.streamId();
        boolean endStream = headerBlock.endStream();
        Priority priority = headerBlock.priority();
        int promisedStreamId = headerBlock.promisedStreamId();
        headerBlock.close();
        if (decoded != null) {
            deliver(blockType, blockStream, decoded, endStream, priority, promisedStreamId);
        }
    }

    private void deliver(FrameType blockType, int stream, HeaderBlock block, boolean endStream, Priority priority,
                         int promisedStreamId) {
        if (blockType == FrameType.PUSH_PROMISE) {
            listener.onPushPromise(stream, promisedStreamId, block);
        } else if (priority != null && priority.dependency() == stream) {
            listener.onStreamError(stream, ErrorCode.PROTOCOL_ERROR, "stream " + stream
                + " depends on itself (RFC 9113 section 5.3.1)");
        } else {
            listener.onHeaders(stream, block, priority, endStream);
        }
    }

    /**
     * Decodes the block at {@code [offset, offset + blockLength)} of {@code bytes}, restoring the
     * buffer's position and limit before anything else happens (failing releases the buffer).
     *
     * @return the decoded block, or null after telling the COMPRESSION_ERROR
     */
    private HeaderBlock decode(ByteBuffer bytes, int offset, int blockLength) {
        int position = bytes.position();
        int limit = bytes.limit();
        bytes.limit(offset + blockLength).position(offset);
        HpackException failure = null;
        HeaderBlock block = null;
        try {
            block = decoder.decode(bytes);
        } catch (HpackException x) {
            failure = x;
        } finally {
            bytes.limit(limit).position(position);
        }
        if (failure != null) {
            fail(ErrorCode.COMPRESSION_ERROR, failure.getReason() + " (RFC 7541)");
        }
        return block;
    }

    private void startData() {
        state = State.DATA;
        padLengthPending = Flags.has(flags, Flags.PADDED);
        dataRemaining = padLengthPending ? 0 : length;
        paddingRemaining = 0;
        paddingTotal = 0;
        if (length == 0) {
            endData(null, null);
        }
    }

    /**
     * Hands out the DATA octets in this buffer as one chunk, passes over padding, and tells the
     * listener when there were octets or the frame ended.
     */
    private void parseData(ByteBuffer buffer, RetainableByteBuffer network) {
        if (padLengthPending) {
            padLengthPending = false;
            int padLength = buffer.get() & 0xFF;
            if (padLength > length - 1) {
                fail(ErrorCode.PROTOCOL_ERROR, "DATA padding of " + padLength + " octets exceeds the " + (length - 1)
                    + " left in the frame (RFC 9113 section 6.1)");
                return;
            }
            dataRemaining = length - 1 - padLength;
            paddingRemaining = padLength;
            paddingTotal = 1 + padLength;
        }
        int taken = Math.min(dataRemaining, buffer.remaining());
        ByteBuffer data = null;
        if (taken > 0) {
            data = buffer.slice(buffer.position(), taken);
            buffer.position(buffer.position() + taken);
            dataRemaining -= taken;
        }
        if (dataRemaining == 0) {
            int skipped = Math.min(paddingRemaining, buffer.remaining());
            buffer.position(buffer.position() + skipped);
            paddingRemaining -= skipped;
        }
        if (data != null || dataRemaining == 0 && paddingRemaining == 0) {
            endData(data, network);
        }
    }

    /** Tells the listener of {@code data} (a slice of {@code network}), or of no octets when null. */
    private void endData(ByteBuffer data, RetainableByteBuffer network) {
        boolean frameDone = dataRemaining == 0 && paddingRemaining == 0 && !padLengthPending;
        boolean last = frameDone && Flags.has(flags, Flags.END_STREAM);
        Content.Chunk chunk;
        if (data == null) {
            chunk = last ? Content.Chunk.EOF : Content.Chunk.EMPTY;
        } else {
            network.retain();
            chunk = Content.Chunk.from(data, last, network);
        }
        if (frameDone) {
            state = State.HEADER;
        }
        listener.onData(streamId, chunk, frameDone ? paddingTotal : 0);
    }

    private void fail(ErrorCode error, String reason) {
        state = State.FAILED;
        payload.release();
        headerBlock.close();
        listener.onConnectionError(error, reason);
    }

    @Override
    public String toString() {
        return "FrameParser[" + state + (type != null ? ", " + type + " on stream " + streamId : "")
            + ", max frame " + maxFrameSize + "]";
    }
}
