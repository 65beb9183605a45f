package io.wharf.client.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.client.Response;
import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;
import io.wharf.http.compression.ContentDecoder;
import io.wharf.http.compression.DecoderLimits;
import io.wharf.http.compression.GzipDecoder;
import io.wharf.http.compression.InflaterPool;
import io.wharf.io.Content;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Inflates the gzip content of one response for the application's listeners, keeping the
 * demand contract on both sides: each compressed chunk from the connection is inflated into
 * pooled buffers told one by one to the listeners, the next only once they demanded, and the
 * connection's demand runs only when the compressed chunk is used up and the listeners
 * demanded the last piece of it. The {@link GzipDecoder} enforces the {@link DecoderLimits}:
 * content inflating past them (a zip bomb) or corrupt fails the exchange with an
 * {@link IOException} naming the problem.
 *
 * <pre>
 *  IDLE ──chunk──► RUNNING ──piece──► DELIVERING ──demand──► DEMANDED ──listener returns──► RUNNING
 *   ▲                 │                   └──listener returns──► STALLED ──demand──► RUNNING
 *   └─chunk used up───┘ (connection's demand)     IDLE, STALLED ──failure──► CLOSED (else the loop closes)
 * </pre>
 *
 * <p><b>Threads.</b> Chunks come on the connection's reading thread; the loop then runs on
 * the thread that holds it (RUNNING), which is the reading thread or the thread whose demand
 * resumed it; only that thread uses the decoder. A failure may come from any thread: it
 * closes an idle or stalled inflater at once, or leaves the loop to close itself.
 *
 * <p><b>Buffers.</b> The compressed chunk is retained from its arrival until it is used up
 * (or the inflater closes). Each inflated piece is a buffer of the client's response buffer
 * size from the client's pool, owned by the chunk told to the listeners: valid during the
 * call, retained by a listener that keeps it, released when the last holder releases it.
 */
final class ResponseInflater {

    /** Where the loop is; see the class comment. */
    private enum State {
        IDLE, RUNNING, DELIVERING, DEMANDED, STALLED, CLOSED
    }

    private final ResponseEvents application;
    private final Response response;
    private final ContentDecoder decoder;
    private final ByteBufferPool pool;
    private final int bufferSize;
    private final long maxInflatedBytes;
    private final AtomicReference<State> state = new AtomicReference<>(State.IDLE);
    private final Runnable demand = this::demand;
    /** The compressed chunk being inflated; the loop's thread only. */
    private Content.Chunk input;
    private Runnable networkDemand;
    private boolean sawBytes;
    private volatile Throwable failure;

    ResponseInflater(ResponseEvents application, Response response, InflaterPool inflaters, DecoderLimits limits,
            ByteBufferPool pool, int bufferSize) {
        this.application = application;
        this.response = response;
        this.decoder = new GzipDecoder(inflaters, limits);
        this.pool = pool;
        this.bufferSize = bufferSize;
        this.maxInflatedBytes = limits.maxInflatedBytes();
    }

    /** A compressed chunk arrived; {@code connectionDemand} asks for the next. On the reading thread. */
    void content(Content.Chunk chunk, Runnable connectionDemand) {
        if (!state.compareAndSet(State.IDLE, State.RUNNING)) {
            // Closed by a failure: the exchange is ending; nothing more is read.
            return;
        }
        chunk.retain();
        input = chunk;
        networkDemand = connectionDemand;
        sawBytes |= chunk.hasRemaining();
        inflate();
    }

    /** The listeners' demand: lets a delivering loop go on, or resumes a stalled one. Any thread. */
    private void demand() {
        while (true) {
            State current = state.get();
            if (current == State.DELIVERING) {
                if (state.compareAndSet(current, State.DEMANDED)) {
                    return;
                }
            } else if (current == State.STALLED) {
                if (state.compareAndSet(current, State.RUNNING)) {
                    inflate();
                    return;
                }
            } else {
                return;
            }
        }
    }

    /** The loop; the calling thread holds it (RUNNING) until it returns. */
    private void inflate() {
        while (true) {
            if (failure != null) {
                close();
                return;
            }
            if (input == null) {
                Runnable next = networkDemand;
                if (park(State.IDLE)) {
                    next.run();
                }
                return;
            }
            RetainableByteBuffer output = pool.acquire(bufferSize, false);
            ContentDecoder.Progress progress;
            try {
                progress = decoder.decode(input.getByteBuffer(), false, output.byteBuffer());
            } catch (RuntimeException x) {
                output.release();
                IOException bad = failure(x);
                failure = bad;
                close();
                response.abort(bad);
                return;
            }
            if (progress != ContentDecoder.Progress.OUTPUT_FULL) {
                releaseInput();
            }
            if (!output.hasRemaining()) {
                output.release();
                continue;
            }
            Content.Chunk piece = Content.Chunk.from(output.byteBuffer(), false, output);
            state.set(State.DELIVERING);
            try {
                application.content(response, piece, demand);
            } finally {
                piece.release();
            }
            if (state.compareAndSet(State.DELIVERING, State.STALLED)) {
                if (failure != null && state.compareAndSet(State.STALLED, State.RUNNING)) {
                    // A failure came while the listeners had the piece: take the loop back to close.
                    continue;
                }
                return;
            }
            state.set(State.RUNNING);
        }
    }

    /**
     * Leaves the loop in {@code parked} (IDLE or STALLED), unless a failure came, in which case
     * the loop closes.
     *
     * @return whether the loop was parked
     */
    private boolean park(State parked) {
        state.set(parked);
        if (failure != null && state.compareAndSet(parked, State.CLOSED)) {
            cleanUp();
            return false;
        }
        return true;
    }

    /**
     * The response ended: checks that the gzip content ended too. On the reading thread, after
     * the listeners demanded the last piece.
     *
     * @return the failure when the content was truncated or corrupt at its end, else null
     */
    Throwable finish() {
        if (!state.compareAndSet(State.IDLE, State.CLOSED)) {
            return failure;
        }
        if (!sawBytes) {
            // No content at all (a HEAD, an empty body): nothing to inflate.
            decoder.abort();
            return null;
        }
        RetainableByteBuffer output = pool.acquire(bufferSize, false);
        try {
            decoder.decode(ByteBuffers.EMPTY, true, output.byteBuffer());
            if (output.hasRemaining()) {
                // The previous call took all the input with room to spare: nothing can be left.
                return new IOException("gzip content of the response to " + response.getRequest()
                        + " inflated further after its last byte");
            }
            return null;
        } catch (RuntimeException x) {
            return failure(x);
        } finally {
            output.release();
            decoder.abort();
        }
    }

    /** The exchange failed: the inflater closes now, or as soon as its loop notices. Any thread. */
    void fail(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        while (true) {
            State current = state.get();
            if (current != State.IDLE && current != State.STALLED) {
                return;
            }
            if (state.compareAndSet(current, State.CLOSED)) {
                cleanUp();
                return;
            }
        }
    }

    private void close() {
        state.set(State.CLOSED);
        cleanUp();
    }

    private void cleanUp() {
        releaseInput();
        decoder.abort();
    }

    private void releaseInput() {
        Content.Chunk held = input;
        input = null;
        if (held != null) {
            held.release();
        }
    }

    private IOException failure(RuntimeException x) {
        if (x instanceof BadMessageException bad && bad.getStatus() == HttpStatus.CONTENT_TOO_LARGE_413) {
            return new IOException("gzip content of the response to " + response.getRequest() + " refused: "
                    + bad.getReason() + " (the limit is " + maxInflatedBytes + " bytes or the ratio of "
                    + "HttpClient.setResponseDecoderLimits)", x);
        }
        String reason = x instanceof BadMessageException bad ? bad.getReason() : String.valueOf(x.getMessage());
        return new IOException("bad gzip content in the response to " + response.getRequest() + ": " + reason, x);
    }

    @Override
    public String toString() {
        return "ResponseInflater[" + state.get() + ", " + decoder + "]";
    }
}
