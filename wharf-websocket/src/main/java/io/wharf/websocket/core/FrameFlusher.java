package io.wharf.websocket.core;

import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The one writer of a WebSocket connection: frames sent from any thread are queued here and
 * written in order, each {@link #process()} step taking what is queued (up to
 * {@value #MAX_GATHER} frames) into one gathering {@link EndPoint#write}. Concurrent sends queue
 * behind each other and never interleave.
 *
 * <p><b>Back-pressure.</b> The queue is bounded ({@code maxQueuedFrames}): a send that finds
 * it full fails its callback at once with a {@link WebSocketQueueFullException} rather than
 * let a fast sender grow the heap without end. Each send's callback completes when its frame
 * was written; a sender that waits for it (or for the future) before sending more never hits
 * the bound. Pongs answering pings and close frames count like any other frame.
 *
 * <p><b>Threads.</b> {@link #send} is called by any thread. The callbacks of written frames are
 * completed on the thread that finished the write, often a selector thread: they must not block.
 *
 * <p><b>Buffers.</b> The caller's payload buffers are read, never kept, and must stay untouched
 * until their callback completes. Headers (and a client's masked payloads) are written into
 * one buffer from the pool per step, released when the step completes or the flusher fails.
 * The extensions' output (compressed payloads) lives in pooled buffers they add to
 * {@code held}, released likewise. An idle flusher holds none.
 *
 * <p><b>Extensions.</b> Data frames pass through the agreed {@link Extension}s in
 * {@link #process()}, one step at a time, so their state (a deflater's context) follows the
 * order frames are written in. The outgoing halves are closed when the flusher fails or closes.
 */
public final class FrameFlusher extends IteratingCallback {

    /** The most frames written in one gathering write. */
    static final int MAX_GATHER = 32;

    private record Entry(Frame frame, Callback callback) {
    }

    private final EndPoint endPoint;
    private final ByteBufferPool pool;
    private final FrameGenerator generator;
    private final int maxQueued;
    private final boolean client;
    private final List<Extension> extensions;
    private final ArrayDeque<Entry> queue = new ArrayDeque<>();
    private final List<Entry> inFlight = new ArrayList<>(MAX_GATHER);
    /** The frames of {@link #inFlight} as the extensions made them. */
    private final List<Frame> encoded = new ArrayList<>(MAX_GATHER);
    /** Pooled buffers the extensions' output of this step lives in. */
    private final List<RetainableByteBuffer> held = new ArrayList<>();
    private Throwable closed;
    private RetainableByteBuffer scratch;

    /**
     * @param client whether this side is a client (frames are masked)
     * @param maxQueued the most frames queued and not yet being written
     */
    public FrameFlusher(EndPoint endPoint, ByteBufferPool pool, boolean client, int maxQueued) {
        this(endPoint, pool, client, maxQueued, List.of());
    }

    /**
     * @param client whether this side is a client (frames are masked)
     * @param maxQueued the most frames queued and not yet being written
     * @param extensions the extensions agreed, which encode each data frame in this order
     */
    public FrameFlusher(EndPoint endPoint, ByteBufferPool pool, boolean client, int maxQueued, List<Extension> extensions) {
        this.extensions = List.copyOf(extensions);
        this.endPoint = endPoint;
        this.pool = pool;
        this.generator = new FrameGenerator(client);
        this.maxQueued = maxQueued;
        this.client = client;
    }

    /**
     * Queues {@code frame}; {@code callback} completes when it was written, or fails when the
     * queue is full or the flusher was closed.
     */
    public void send(Frame frame, Callback callback) {
        Throwable refused = null;
        synchronized (queue) {
            if (closed != null) {
                refused = closed;
            } else if (queue.size() >= maxQueued && frame.opcode() != OpCode.CLOSE) {
                refused = new WebSocketQueueFullException(maxQueued);
            } else {
                queue.add(new Entry(frame, callback));
                if (frame.opcode() == OpCode.CLOSE) {
                    // Nothing may follow a close frame (RFC 6455 section 5.5.1).
                    closed = new ClosedChannelException();
                }
            }
        }
        if (refused != null) {
            callback.failed(refused);
            return;
        }
        iterate();
    }

    /** @return how many frames wait, not counting those being written */
    public int queued() {
        synchronized (queue) {
            return queue.size();
        }
    }

    @Override
    protected Action process() {
        int headerBytes = 0;
        synchronized (queue) {
            while (inFlight.size() < MAX_GATHER && !queue.isEmpty()) {
                inFlight.add(queue.poll());
            }
        }
        if (inFlight.isEmpty()) {
            return Action.IDLE;
        }
        for (Entry entry : inFlight) {
            Frame frame = encode(entry.frame());
            encoded.add(frame);
            headerBytes += FrameGenerator.MAX_HEADER_SIZE + (client ? frame.payload().remaining() : 0);
        }
        scratch = pool.acquire(headerBytes, true);
        ByteBuffer bytes = scratch.byteBuffer();
        bytes.clear();
        ByteBuffer[] buffers = new ByteBuffer[inFlight.size() * 2];
        int count = 0;
        for (Frame frame : encoded) {
            ByteBuffer payload = frame.payload();
            int start = bytes.position();
            if (client) {
                generator.generate(frame, bytes, bytes.duplicate().position(bytes.position() + FrameGenerator.MAX_HEADER_SIZE));
                int headerEnd = bytes.position();
                buffers[count++] = bytes.slice(start, headerEnd - start);
                buffers[count++] = bytes.slice(start + FrameGenerator.MAX_HEADER_SIZE, payload.remaining());
                bytes.position(start + FrameGenerator.MAX_HEADER_SIZE + payload.remaining());
            } else {
                generator.generate(frame, bytes, null);
                buffers[count++] = bytes.slice(start, bytes.position() - start);
                if (payload.hasRemaining()) {
                    buffers[count++] = payload.slice();
                }
            }
        }
        bytes.flip();
        endPoint.write(this, count == buffers.length ? buffers : java.util.Arrays.copyOf(buffers, count));
        return Action.SCHEDULED;
    }

    /** Control frames pass as they are; data frames through every extension, in order. */
    private Frame encode(Frame frame) {
        if (frame.isControl()) {
            return frame;
        }
        for (Extension extension : extensions) {
            frame = extension.encode(frame, held);
        }
        return frame;
    }

    @Override
    protected void onSuccess() {
        releaseScratch();
        for (Entry entry : inFlight) {
            complete(entry.callback(), null);
        }
        inFlight.clear();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        List<Entry> failed;
        synchronized (queue) {
            if (closed == null) {
                closed = cause;
            }
            failed = new ArrayList<>(inFlight);
            failed.addAll(queue);
            queue.clear();
        }
        inFlight.clear();
        releaseScratch();
        for (Extension extension : extensions) {
            extension.closeOutgoing();
        }
        for (Entry entry : failed) {
            complete(entry.callback(), cause);
        }
    }

    /** Refuses further sends with {@code cause} and fails what is queued; what is being written completes or fails on its own. */
    public void fail(Throwable cause) {
        synchronized (queue) {
            if (closed == null) {
                closed = cause == null ? new ClosedChannelException() : cause;
            }
        }
        if (!abort(closed)) {
            List<Entry> failed;
            synchronized (queue) {
                failed = new ArrayList<>(queue);
                queue.clear();
            }
            for (Entry entry : failed) {
                complete(entry.callback(), closed);
            }
        }
    }

    private void releaseScratch() {
        if (scratch != null) {
            scratch.release();
            scratch = null;
        }
        encoded.clear();
        for (RetainableByteBuffer buffer : held) {
            buffer.release();
        }
        held.clear();
    }

    private static void complete(Callback callback, Throwable failure) {
        try {
            if (failure == null) {
                callback.succeeded();
            } else {
                callback.failed(failure);
            }
        } catch (Throwable ignored) {
            // A callback's own failure must not stop the others from completing.
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }
}
