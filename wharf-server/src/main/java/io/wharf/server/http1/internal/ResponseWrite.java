package io.wharf.server.http1.internal;

import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.util.concurrent.atomic.AtomicBoolean;

import io.wharf.http.HttpGenerator;
import io.wharf.http.MetaData;
import io.wharf.server.internal.ExchangeResponse;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The response writes of an {@link HttpConnection}, one at a time, part of the
 * {@link HttpCodec} the connection has borrowed: each asks the generator
 * what to send, into the writer's own head buffer (or, for a head that does not fit, a
 * borrowed one, larger on overflow, up to a limit), writes head and content to the endpoint,
 * and repeats while the generator owes bytes (the terminating chunk). Then it frees itself
 * for the next write and completes the caller's callback.
 *
 * <p>A multi-step loop, so an {@link IteratingCallback}: each {@code process()} is one
 * generate-and-write. The common write needs no loop: its first generation ends the message
 * and the endpoint takes every byte at once, so {@link #start} does that step itself and
 * completes the callback without the loop's state changes; whatever else is left over goes
 * to the loop. One instance serves every response of the connections that borrow its
 * codec, one after another (it is {@link #reset()} when a write succeeds), so a steady stream
 * of responses allocates nothing here. {@link #begin()} claims it; a second writer meanwhile gets a
 * {@link WritePendingException}. Runs on the writer's thread, then on the endpoint's
 * completion thread.
 */
final class ResponseWrite extends IteratingCallback {

    private static final int MAX_HEADER_BUFFER = 64 * 1024;
    /**
     * The size of the writer's own head buffer. Most heads (and the content of most small
     * responses, copied after them) fit, so a response borrows nothing from the pool; a larger
     * head is generated again into a borrowed buffer.
     */
    static final int OWN_HEAD_BYTES = 1024;
    /** Says that the generator refused the committing head and nothing was sent. */
    private static final ByteBuffer[] NOTHING_SENT = new ByteBuffer[0];

    private final HttpCodec codec;
    private final AtomicBoolean writing = new AtomicBoolean();
    /** A direct content buffer no longer than this is copied after the head rather than written beside it. */
    static final int COPY_DIRECT_BELOW = 2048;

    /** Reused for the endpoint's gathering writes; the endpoint only reads it until the write completes. */
    private final ByteBuffer[] headerAndBody = new ByteBuffer[2];
    /** Reused for the writes of one buffer: the head with the content copied after it, or content alone. */
    private final ByteBuffer[] single = new ByteBuffer[1];
    /** See {@link #OWN_HEAD_BYTES}: free whenever a step generates, since the previous step's write has ended. */
    private final ByteBuffer ownHead = ByteBuffer.allocateDirect(OWN_HEAD_BYTES);
    private boolean head;
    private Callback callback;
    /** The response whose head this write commits, told when the head could not be generated; or null. */
    private ExchangeResponse committing;
    /** Why the generator refused the head of the committing write, which then sent nothing. */
    private RuntimeException headRefused;
    private MetaData.Response info;
    private ByteBuffer content;
    private boolean last;
    private RetainableByteBuffer header;
    private HttpGenerator.Result result;
    private boolean finished;
    /** Buffers the first flush of {@link #doneAtOnce()} left partly written, for process() to write; or null. */
    private ByteBuffer[] unflushed;
    /** What {@link #doneAtOnce()} caught, for process() to raise; or null. */
    private Throwable failure;

    ResponseWrite(HttpCodec codec) {
        this.codec = codec;
    }

    /** @return whether this call claimed the write; false while another write is in progress */
    boolean begin() {
        return writing.compareAndSet(false, true);
    }

    /**
     * Starts a write claimed by {@link #begin()}; {@code callback} completes when it is over.
     *
     * @param head whether the request was a HEAD: the head is written, content is not
     * @param committing the response whose head {@code info} is, or null for an interim head or later content
     */
    void start(boolean head, MetaData.Response info, ByteBuffer content, boolean last, Callback callback, ExchangeResponse committing) {
        if (!reset()) {
            // A write failed after sending bytes: the response cannot go on.
            writing.set(false);
            callback.failed(new java.nio.channels.ClosedChannelException());
            return;
        }
        this.head = head;
        this.info = info;
        this.content = content;
        this.last = last;
        this.callback = callback;
        this.committing = committing;
        this.finished = false;
        if (!doneAtOnce()) {
            iterate();
        }
    }

    /**
     * Tries the common write without the iterating machinery: generates the first (for most
     * responses the only) write and flushes it without waiting. When that ends the message
     * and the endpoint took every byte, the write is over and the callback is told here.
     * Otherwise what is left (the unflushed buffers, the rest of the message, or a failure
     * to raise) is kept for {@link #process()}, which {@link #iterate()} then runs: the
     * same bytes go out in the same order either way.
     *
     * @return whether the write is over
     */
    private boolean doneAtOnce() {
        ByteBuffer[] buffers;
        try {
            buffers = nextWrite();
            if (buffers == NOTHING_SENT || buffers == null) {
                return false;
            }
            if (!codec.owner().getEndPoint().flush(buffers)) {
                unflushed = buffers;
                return false;
            }
        } catch (Throwable x) {
            failure = x;
            return false;
        }
        if (!finished) {
            return false;
        }
        releaseHeader();
        end().succeeded();
        return true;
    }

    /** Claims and starts a write, or fails {@code callback} when another is in progress. */
    void write(boolean head, MetaData.Response info, ByteBuffer content, boolean last, Callback callback) {
        if (!begin()) {
            callback.failed(new WritePendingException());
            return;
        }
        start(head, info, content, last, callback, null);
    }

    @Override
    protected Action process() throws Throwable {
        Throwable thrown = failure;
        if (thrown != null) {
            failure = null;
            throw thrown;
        }
        ByteBuffer[] left = unflushed;
        if (left != null) {
            unflushed = null;
            codec.owner().getEndPoint().write(this, left);
            return Action.SCHEDULED;
        }
        releaseHeader();
        while (!finished) {
            ByteBuffer[] buffers = nextWrite();
            if (buffers == NOTHING_SENT) {
                return Action.SUCCEEDED;
            }
            if (buffers != null) {
                codec.owner().getEndPoint().write(this, buffers);
                return Action.SCHEDULED;
            }
            releaseHeader();
        }
        return Action.SUCCEEDED;
    }

    /**
     * Generates the next write (see {@link #generate}; a borrowed buffer stays held until the
     * next step); sets {@link #finished} when the generator owes nothing more.
     *
     * @return the buffers to write; null when this step sends nothing; {@link #NOTHING_SENT}
     *     when the generator refused the committing head (kept in {@link #headRefused}), which
     *     ends this write with nothing sent
     */
    private ByteBuffer[] nextWrite() {
        HttpGenerator generator = codec.generator;
        ByteBuffer buffer;
        try {
            buffer = generate(generator);
        } catch (RuntimeException refused) {
            if (committing == null || generator.isCommitted()) {
                throw refused;
            }
            // Nothing was sent: this write ends, the writer stays usable for the error page.
            headRefused = refused;
            releaseHeader();
            finished = true;
            return NOTHING_SENT;
        }
        HttpGenerator.Result result = this.result;
        ByteBuffer body = result.writesContent() ? content : null;
        info = null;
        content = null;
        finished = generator.getState() != HttpGenerator.State.COMPLETING;
        if (body != null && result.writesHeader() && appended(buffer, body)) {
            body = null;
        }
        if (body != null && result.writesHeader()) {
            headerAndBody[0] = buffer;
            headerAndBody[1] = body;
            return headerAndBody;
        }
        if (body != null || result.writesHeader()) {
            single[0] = result.writesHeader() ? buffer : body;
            return single;
        }
        return null;
    }

    /**
     * Copies {@code body} after the head in {@code buffer} (flush mode) when it fits in the
     * room left and is a heap buffer (which the JDK would copy to a direct one anyway) or a short
     * direct one: one plain write instead of a gathering one. The bytes sent are the same, in
     * the same order; {@code body} is consumed as a write would consume it.
     *
     * @return whether it was copied
     */
    private static boolean appended(ByteBuffer buffer, ByteBuffer body) {
        int length = body.remaining();
        int end = buffer.limit();
        if (length > buffer.capacity() - end || body.isDirect() && length > COPY_DIRECT_BELOW) {
            return false;
        }
        buffer.limit(end + length);
        buffer.put(end, body, body.position(), length);
        body.position(body.limit());
        return true;
    }

    /**
     * Generates into this writer's own head buffer, or, when the head does not fit there,
     * into a borrowed one, growing it on overflow; @return it, in flush mode.
     */
    private ByteBuffer generate(HttpGenerator generator) {
        ByteBuffer own = ownHead.clear();
        result = generator.generateResponse(info, head, content, last, own);
        own.flip();
        if (result != HttpGenerator.Result.HEADER_OVERFLOW) {
            return own;
        }
        HttpConnection connection = codec.owner();
        int size = Math.max(codec.configuration.getResponseHeaderSize(), 2 * OWN_HEAD_BYTES);
        while (true) {
            header = connection.getConnector().getByteBufferPool().acquire(size, true);
            ByteBuffer buffer = header.byteBuffer();
            int position = ByteBuffers.flipToFill(buffer);
            try {
                result = generator.generateResponse(info, head, content, last, buffer);
            } finally {
                ByteBuffers.flipToFlush(buffer, position);
            }
            if (result != HttpGenerator.Result.HEADER_OVERFLOW) {
                return buffer;
            }
            releaseHeader();
            if (size >= MAX_HEADER_BUFFER) {
                throw new IllegalStateException("response head larger than " + MAX_HEADER_BUFFER + " bytes");
            }
            size *= 2;
        }
    }

    private void releaseHeader() {
        if (header != null) {
            header.release();
            header = null;
        }
    }

    @Override
    protected void onCompleteSuccess() {
        releaseHeader();
        reset();
        RuntimeException refused = headRefused;
        if (refused != null) {
            headRefused = null;
            codec.generator.reset();
            committing.headNotSent();
            end().failed(refused);
            return;
        }
        end().succeeded();
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        releaseHeader();
        end().failed(cause);
    }

    /** Frees this for the next write; @return the callback of the write that ended. */
    private Callback end() {
        Callback done = callback;
        callback = null;
        committing = null;
        info = null;
        content = null;
        headerAndBody[0] = null;
        headerAndBody[1] = null;
        single[0] = null;
        unflushed = null;
        failure = null;
        writing.set(false);
        return done;
    }

    @Override
    public InvocationType invocationType() {
        Callback current = callback;
        return current == null ? InvocationType.NON_BLOCKING : current.invocationType();
    }
}
