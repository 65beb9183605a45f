package io.wharf.http2.session;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.io.AbstractEndPoint;
import io.wharf.io.Content;
import io.wharf.io.EofException;
import io.wharf.util.Callback;
import io.wharf.util.Invocable;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;

/**
 * An {@link io.wharf.io.EndPoint} over one HTTP/2 stream: the two byte streams of a tunnel that
 * a CONNECT opened, such as the WebSocket of an extended CONNECT (RFC 8441). The same class
 * serves a server's stream (after its {@code 200}) and a client's (after the server's {@code 200}).
 *
 * <ul>
 * <li>{@link #fill} takes the stream's DATA; the stream credits the flow-control windows back as
 *     each chunk is taken. {@code fillInterested} is the stream's demand. The peer's END_STREAM
 *     is the end of input (-1); a reset fails the read.</li>
 * <li>{@link #write} sends DATA within the stream's and the session's send windows; the write
 *     completes once the frames are written to the network.</li>
 * <li>{@link #shutdownOutput()} sends END_STREAM. {@link #close()} sends END_STREAM if not sent
 *     yet and lets the peer end its side (what arrives meanwhile is dropped); if it has not within
 *     {@value #LINGER_MILLIS} ms, or on {@link #close(Throwable)} with a cause (a failure, an idle
 *     timeout), the stream is reset with CANCEL.</li>
 * <li>The stream's reset by the peer, or the session's end, closes the endpoint with the cause.</li>
 * </ul>
 *
 * <p><b>Threads.</b> Any thread may write, fill or close, as for every endpoint; the session tells
 * content, write completions and resets on its threads. A fill interest is completed inline when
 * its callback is NON_BLOCKING (never inside the registration itself), else on the executor.
 *
 * <p><b>Buffers.</b> The chunk being read (a slice of a network buffer, or a small copy) is held
 * between fills only while it has bytes left, and released at close. Buffers given to
 * {@code write} are sliced into DATA frames, not copied, and are the caller's again once the
 * write's callback completed.
 */
public final class Http2StreamEndPoint extends AbstractEndPoint implements Http2Stream.Listener {

    /** How long a closed endpoint waits for the peer's END_STREAM before resetting the stream. */
    static final long LINGER_MILLIS = 5_000;

    private final Http2Stream stream;
    private final Http2Session session;
    private final Invocable.Task readable = Invocable.task(InvocationType.NON_BLOCKING, this::onReadable);
    private final Sent sent = new Sent();
    /** The thread registering a demand, so that a demand met at once is not completed inside the registration. */
    private volatile Thread registering;
    // Guarded by this:
    private Content.Chunk chunk;
    private boolean inputEnded;
    private ByteBuffer[] sending;
    private int outstanding;
    private boolean writeWanted;
    private Throwable sendFailure;
    private boolean outputEnded;
    private volatile Consumer<Throwable> closeListener = cause -> { };

    /** Takes over {@code stream}: it becomes the stream's listener. Open it with {@link #onOpen()}. */
    public Http2StreamEndPoint(Http2Stream stream) {
        super(stream.getSession().invoker.scheduler(), stream.getSession().invoker::execute);
        this.stream = stream;
        this.session = stream.getSession();
        stream.setListener(this);
    }

    /** @return the stream beneath */
    public Http2Stream getStream() {
        return stream;
    }

    /** Sets what to tell, once, after this endpoint closed (the cause, or null for a normal close). */
    public void setCloseListener(Consumer<Throwable> listener) {
        this.closeListener = Objects.requireNonNull(listener, "listener");
    }

    @Override
    protected void onClosed(Throwable cause) {
        closeListener.accept(cause);
    }

    @Override
    public SocketAddress getLocalSocketAddress() {
        return session.getEndPoint().getLocalSocketAddress();
    }

    @Override
    public SocketAddress getRemoteSocketAddress() {
        return session.getEndPoint().getRemoteSocketAddress();
    }

    @Override
    public boolean isSecure() {
        return session.getEndPoint().isSecure();
    }

    @Override
    public Object getTransport() {
        return stream;
    }

    // ---- reading ----

    @Override
    public int fill(ByteBuffer buffer) throws IOException {
        if (isInputShutdown()) {
            return -1;
        }
        if (!isOpen()) {
            throw new EofException("closed: " + this, closeCause());
        }
        int filled = 0;
        while (buffer.limit() < buffer.capacity()) {
            Content.Chunk current;
            synchronized (this) {
                current = chunk;
                chunk = null;
                if (current == null && inputEnded) {
                    break;
                }
            }
            if (current == null) {
                current = stream.read();
                if (current == null) {
                    break;
                }
            }
            Throwable failure = current.getFailure();
            if (failure != null) {
                if (filled > 0) {
                    hold(current);
                    break;
                }
                // The stream was reset or its session ended: the endpoint closes with that cause, as a socket's reset does.
                IOException failed = new IOException("stream " + stream.getId() + " failed: " + failure.getMessage(), failure);
                close(failed);
                throw failed;
            }
            filled += ByteBuffers.append(buffer, current.getByteBuffer());
            if (current.hasRemaining()) {
                hold(current);
                break;
            }
            boolean last = current.isLast();
            current.release();
            if (last) {
                synchronized (this) {
                    inputEnded = true;
                }
            }
        }
        if (filled > 0) {
            notIdle();
            return filled;
        }
        synchronized (this) {
            if (!inputEnded) {
                return 0;
            }
        }
        onInputEnd();
        return -1;
    }

    /** Keeps a chunk with bytes (or a failure) left for the next fill; released if the endpoint closed meanwhile. */
    private void hold(Content.Chunk current) {
        synchronized (this) {
            if (isOpen()) {
                chunk = current;
                return;
            }
        }
        current.release();
    }

    @Override
    protected void needsFillInterest() {
        boolean ready;
        synchronized (this) {
            ready = chunk != null || inputEnded;
        }
        if (ready) {
            session.invoker.execute(fillInterest());
            return;
        }
        registering = Thread.currentThread();
        try {
            stream.demand(readable);
        } finally {
            registering = null;
        }
    }

    /**
     * The stream has content (or ended, or failed): complete the fill interest, or once closed
     * drop what came. One demand task for both, as a stream takes one at a time.
     */
    private void onReadable() {
        if (!isOpen()) {
            drain();
        } else if (registering == Thread.currentThread()) {
            session.invoker.execute(fillInterest());
        } else {
            session.invoker.invoke(fillInterest());
        }
    }

    // ---- writing ----

    @Override
    public boolean flush(ByteBuffer... buffers) throws IOException {
        synchronized (this) {
            if (sendFailure != null) {
                throw new IOException("stream " + stream.getId() + " could not send: " + sendFailure.getMessage(), sendFailure);
            }
            if (sending != null) {
                if (outstanding > 0) {
                    return false;
                }
                sentAll();
            }
            if (!ByteBuffers.hasRemaining(buffers)) {
                return true;
            }
            if (outputEnded) {
                throw new EofException("output shut: " + this);
            }
            sending = buffers.clone();
            for (ByteBuffer buffer : buffers) {
                if (buffer.hasRemaining()) {
                    outstanding++;
                }
            }
        }
        notIdle();
        // Queued in order on the stream: the session writes them one after the other, within the windows.
        for (ByteBuffer buffer : buffers) {
            if (buffer.hasRemaining()) {
                stream.data(buffer.slice(), false, sent);
            }
        }
        synchronized (this) {
            if (sendFailure != null || outstanding > 0) {
                return false;
            }
            sentAll();
            return true;
        }
    }

    /** Under the lock: every buffer in flight was written; move their positions past what was sent. */
    private void sentAll() {
        for (ByteBuffer buffer : sending) {
            buffer.position(buffer.limit());
        }
        sending = null;
    }

    @Override
    protected void onIncompleteFlush() {
        boolean now;
        synchronized (this) {
            now = outstanding == 0 || sendFailure != null;
            writeWanted = !now;
        }
        if (now) {
            session.invoker.invoke(writeFlusher());
        }
    }

    /** Completes each DATA send; when the last in flight is written, the pending write goes on. */
    private final class Sent implements Callback {
        @Override
        public void succeeded() {
            boolean wake;
            synchronized (Http2StreamEndPoint.this) {
                outstanding--;
                wake = outstanding == 0 && writeWanted;
                if (wake) {
                    writeWanted = false;
                }
            }
            notIdle();
            if (wake) {
                session.invoker.invoke(writeFlusher());
            }
        }

        @Override
        public void failed(Throwable cause) {
            synchronized (Http2StreamEndPoint.this) {
                outstanding--;
                if (sendFailure == null) {
                    sendFailure = cause;
                }
            }
            close(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    // ---- closing ----

    @Override
    protected void doShutdownOutput() {
        endOutput();
    }

    private void endOutput() {
        synchronized (this) {
            if (outputEnded) {
                return;
            }
            outputEnded = true;
        }
        if (stream.getState().canSend()) {
            stream.data(null, true, Callback.NOOP);
        }
    }

    @Override
    protected void doClose() {
        Content.Chunk held;
        boolean ended;
        synchronized (this) {
            held = chunk;
            chunk = null;
            ended = inputEnded;
        }
        if (held != null) {
            held.release();
        }
        if (closeCause() != null) {
            stream.reset(ErrorCode.CANCEL);
            return;
        }
        endOutput();
        if (ended || stream.getState() == StreamState.CLOSED) {
            return;
        }
        // The peer has yet to end its side: drop what it still sends, and reset if it never ends.
        drain();
        if (session.invoker.scheduler() == null) {
            stream.reset(ErrorCode.CANCEL);
        } else {
            session.invoker.scheduler().schedule(() -> {
                if (stream.getState() != StreamState.CLOSED) {
                    stream.reset(ErrorCode.CANCEL);
                }
            }, LINGER_MILLIS, TimeUnit.MILLISECONDS);
        }
    }

    /** Reads and drops what the peer sends after we closed, until its END_STREAM or a reset. */
    private void drain() {
        while (true) {
            Content.Chunk dropped = stream.read();
            if (dropped == null) {
                stream.demand(readable);
                return;
            }
            dropped.release();
            if (dropped.isLast()) {
                return;
            }
        }
    }

    // ---- Http2Stream.Listener, on the session's thread ----

    @Override
    public void onReset(Http2Stream stream, ErrorCode error, Throwable cause) {
        close(cause != null ? cause : new IOException("stream " + stream.getId() + " reset: " + error));
    }

    @Override
    public String toString() {
        return "Http2StreamEndPoint#" + stream.getId() + "@" + Integer.toHexString(hashCode()) + "{" + stream.getState()
                + "," + super.toString() + "}";
    }
}
