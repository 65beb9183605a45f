package io.wharf.server.internal;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpField;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpVersion;
import io.wharf.io.EndPoint;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * The blocking client side of a local connection: writes raw bytes and reads whole
 * responses, using Wharf's own HTTP/1 parser to find where each response ends. For tests and
 * in-process callers; used by one thread at a time.
 */
public final class ResponseReader {

    private final EndPoint endPoint;
    private final Semaphore readable = new Semaphore(0);
    private final Callback onReadable = Callback.from(InvocationType.NON_BLOCKING, this::readable, failure -> readable());
    /** Whether a fill interest is registered: a read that timed out leaves it, and the next waits on it rather than registering again. */
    private volatile boolean interested;
    private final Listener listener = new Listener();
    private final HttpParser parser;
    private final ByteBuffer scratch = ByteBuffer.allocate(16384);
    private ByteBuffer bytes = ByteBuffer.allocate(16384).limit(0);
    private int messageStart;

    public ResponseReader(EndPoint endPoint) {
        this.endPoint = endPoint;
        this.parser = new HttpParser(listener, HttpParser.Limits.DEFAULT, HttpCompliance.LEGACY, io.wharf.http.ComplianceViolation.Listener.NONE);
    }

    /** Writes every byte of {@code buffer}, waiting until they are gone. */
    public void write(ByteBuffer buffer) throws IOException {
        CompletableFuture<Void> done = new CompletableFuture<>();
        endPoint.write(Callback.from(done), buffer);
        try {
            done.get();
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException();
        } catch (ExecutionException x) {
            throw new IOException("write failed", x.getCause());
        }
    }

    /** @return the next whole response, or what arrived before the server closed (null if nothing) */
    public String readResponse(Duration timeout, boolean headResponse) throws IOException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (parser.isComplete()) {
            parser.reset();
        }
        parser.setHeadResponse(headResponse);
        listener.complete = false;
        while (true) {
            if (bytes.hasRemaining()) {
                parser.parseNext(bytes);
                if (listener.failure != null) {
                    BadMessageException failure = listener.failure;
                    listener.failure = null;
                    throw new IOException("bad response: " + failure.getReason(), failure);
                }
                if (listener.complete) {
                    return takeMessage();
                }
                continue;
            }
            int filled = fill(deadline);
            if (filled < 0) {
                parser.atEOF();
                parser.parseNext(bytes);
                if (listener.complete || bytes.position() > messageStart) {
                    return takeMessage();
                }
                return null;
            }
        }
    }

    /** @return every byte until the server closes */
    public String readUntilClosed(Duration timeout) throws IOException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (fill(deadline) >= 0) {
            bytes.position(bytes.limit());
        }
        bytes.position(bytes.limit());
        return takeMessage();
    }

    /**
     * For protocols other than HTTP/1 (HTTP/2 frames): @return the bytes not read yet, waiting
     * for at least one; null when the server closed and nothing is left
     */
    public ByteBuffer readAvailable(Duration timeout) throws IOException, TimeoutException {
        long deadline = System.nanoTime() + timeout.toNanos();
        if (!bytes.hasRemaining() && fill(deadline) < 0) {
            return null;
        }
        ByteBuffer available = ByteBuffer.allocate(bytes.remaining());
        available.put(bytes).flip();
        messageStart = bytes.position();
        return available;
    }

    private String takeMessage() {
        String text = new String(bytes.array(), messageStart, bytes.position() - messageStart, StandardCharsets.ISO_8859_1);
        messageStart = bytes.position();
        return text;
    }

    /** Reads more bytes and appends them after the limit, waiting for them; @return the count or -1 at the end. */
    private int fill(long deadline) throws IOException, TimeoutException {
        while (true) {
            scratch.clear().limit(0);
            int filled = endPoint.fill(scratch);
            if (filled > 0) {
                append(scratch);
                return filled;
            }
            if (filled < 0) {
                return filled;
            }
            if (!interested) {
                interested = true;
                endPoint.fillInterested(onReadable);
            }
            long left = deadline - System.nanoTime();
            try {
                if (left <= 0 || !readable.tryAcquire(left, TimeUnit.NANOSECONDS)) {
                    throw new TimeoutException("no complete response from the server in time; got so far: "
                            + new String(bytes.array(), messageStart, bytes.limit() - messageStart, StandardCharsets.ISO_8859_1));
                }
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException();
            }
        }
    }

    private void readable() {
        interested = false;
        readable.release();
    }

    /** Appends {@code more} after the limit, growing or compacting (dropping what precedes the current message). */
    private void append(ByteBuffer more) {
        int count = more.remaining();
        if (bytes.capacity() - bytes.limit() < count) {
            int kept = bytes.limit() - messageStart;
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(bytes.capacity(), (kept + count) * 2));
            bigger.put(bytes.array(), messageStart, kept).flip();
            bigger.position(bytes.position() - messageStart);
            bytes = bigger;
            messageStart = 0;
        }
        int limit = bytes.limit();
        bytes.limit(limit + count);
        bytes.put(limit, more, more.position(), count);
        more.position(more.limit());
    }

    private static final class Listener implements HttpParserListener.Response {
        private boolean complete;
        private BadMessageException failure;

        @Override
        public void startResponse(HttpVersion version, int status, String reason) {
        }

        @Override
        public void parsedHeader(HttpField field) {
        }

        @Override
        public boolean headerComplete() {
            return false;
        }

        @Override
        public boolean content(ByteBuffer content) {
            return false;
        }

        @Override
        public boolean messageComplete() {
            complete = true;
            return true;
        }

        @Override
        public void badMessage(BadMessageException failure) {
            this.failure = failure;
        }

        @Override
        public void earlyEOF() {
        }
    }
}
