package io.wharf.websocket.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.Buffer;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import io.wharf.util.Callback;

/**
 * The hand-over between the reading side of a session and the thread that reads one streamed
 * message ({@link MessageInputStream}, {@link MessageReader}): at most one piece (a frame's
 * payload) waits here at a time. The piece's {@code done} completes when the consumer has
 * taken all of it, and that is what lets the session read the next frame — so the message is
 * never held in memory beyond one frame, and a slow consumer slows the peer.
 *
 * <p>The last piece's {@code done} is held until {@link #finish()}, called when the consuming
 * method returns, so the next message's events come after it. Pieces offered after
 * {@link #finish()} (the method stopped reading early) are dropped at once.
 *
 * <p><b>Threads.</b> {@link #offer} and {@link #fail} from the session's threads, the reading
 * methods from the one consuming thread, which blocks (it is never a selector thread).
 * Callbacks are completed outside the lock. <b>Buffers.</b> A binary piece is the session's
 * buffer, valid until its {@code done}: it is read in place, not copied.
 *
 * @param <B> ByteBuffer for binary messages, CharBuffer for text
 */
final class StreamedPieces<B extends Buffer> {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private B piece;
    private Callback pieceDone;
    private boolean pieceLast;
    /** The last piece was taken: the consumer sees the end. */
    private boolean ended;
    /** The consuming method returned: nothing more is read. */
    private boolean finished;
    private Callback lastDone;
    private Throwable failure;

    /** Hands over the next piece; {@code done} completes once it was read (or dropped). */
    void offer(B next, boolean last, Callback done) {
        lock.lock();
        try {
            if (!finished) {
                piece = next;
                pieceDone = done;
                pieceLast = last;
                changed.signalAll();
                return;
            }
        } finally {
            lock.unlock();
        }
        done.succeeded();
    }

    /** The session failed or closed before the message ended: a waiting read fails. */
    void fail(Throwable cause) {
        lock.lock();
        try {
            if (failure == null) {
                failure = cause;
            }
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits for a piece with something left in it.
     *
     * @return the piece to read from (then call {@link #taken()}), or null at the end of the message
     * @throws IOException when the session failed, or after {@link #finish()}
     */
    B await() throws IOException {
        lock.lock();
        try {
            while (true) {
                if (finished) {
                    throw new IOException("the message's stream is closed");
                }
                if (piece != null && piece.hasRemaining()) {
                    return piece;
                }
                if (piece != null) {
                    Callback done = consume();
                    if (done != null) {
                        lock.unlock();
                        try {
                            done.succeeded();
                        } finally {
                            lock.lock();
                        }
                    }
                    continue;
                }
                if (ended) {
                    return null;
                }
                if (failure != null) {
                    throw new IOException("the session ended before the message did: " + failure, failure);
                }
                changed.await();
            }
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for the message's next frame");
        } finally {
            lock.unlock();
        }
    }

    /** Called after reading from the piece {@link #await()} gave: an emptied piece lets the next frame come. */
    void taken() {
        Callback done = null;
        lock.lock();
        try {
            if (piece != null && !piece.hasRemaining()) {
                done = consume();
            }
        } finally {
            lock.unlock();
        }
        if (done != null) {
            done.succeeded();
        }
    }

    /** Under the lock: drops the emptied piece; @return its callback to complete, null for the last (held) */
    private Callback consume() {
        Callback done = pieceDone;
        boolean last = pieceLast;
        piece = null;
        pieceDone = null;
        if (last) {
            ended = true;
            lastDone = done;
            return null;
        }
        return done;
    }

    /** The consuming method returned: completes what is held, drops what comes later. */
    void finish() {
        Callback pending;
        Callback last;
        lock.lock();
        try {
            finished = true;
            pending = pieceDone;
            last = lastDone;
            piece = null;
            pieceDone = null;
            lastDone = null;
        } finally {
            lock.unlock();
        }
        if (pending != null) {
            pending.succeeded();
        }
        if (last != null) {
            last.succeeded();
        }
    }
}
