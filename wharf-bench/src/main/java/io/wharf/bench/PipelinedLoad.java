package io.wharf.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Sends one request many times, pipelined, on one connection and reads every response: the
 * load of the {@code pipeline} macro. A writer thread (started here, ended before
 * {@link #run} returns) writes the requests in batches of {@link #BATCH}; the calling thread
 * reads the responses and counts them. The writer stays at most {@link #WINDOW} requests
 * ahead of the responses read, so neither side's buffers grow without bound.
 *
 * <p>All responses to the request are the same length (the Date field has a fixed width), so
 * response {@code i} starts at byte {@code i × length} of the stream: each is counted when its
 * last byte arrives, and each must start with {@code HTTP/1.1 200 }. A response of another
 * length, a wrong status, a close, or 30 s without progress fails the run.
 */
final class PipelinedLoad {

    /** Requests written with one write. */
    static final int BATCH = 1_000;
    /** The most requests written and not yet answered. */
    static final int WINDOW = 10_000;
    /** The longest wait for a response byte or for room in the window. */
    static final int STALL_SECONDS = 30;

    private static final byte[] STATUS = "HTTP/1.1 200 ".getBytes(StandardCharsets.US_ASCII);

    private final Socket socket;
    private final byte[] request;
    private final long responseLength;

    /**
     * @param socket a connected socket, owned by the caller; closed here only if the run fails
     * @param request the bytes of one request
     * @param responseLength the length of one response, head and body
     */
    PipelinedLoad(Socket socket, byte[] request, long responseLength) {
        this.socket = socket;
        this.request = request.clone();
        this.responseLength = responseLength;
    }

    /** Sends {@code count} requests and returns once all {@code count} responses have been read. */
    void run(long count) throws Exception {
        Semaphore window = new Semaphore(WINDOW);
        AtomicReference<Throwable> writerFailure = new AtomicReference<>();
        Thread writer = new Thread(() -> {
            try {
                write(count, window);
            } catch (Throwable x) {
                writerFailure.set(x);
            }
        }, "pipeline-writer");
        writer.setDaemon(true);
        boolean done = false;
        writer.start();
        try {
            read(count, window, writerFailure);
            done = true;
        } finally {
            if (!done) {
                socket.close();
            }
            writer.join(TimeUnit.SECONDS.toMillis(STALL_SECONDS));
        }
        if (writer.isAlive()) {
            throw new IllegalStateException("the pipeline writer did not end");
        }
        if (writerFailure.get() != null) {
            throw new IllegalStateException("the pipeline writer failed", writerFailure.get());
        }
    }

    private void write(long count, Semaphore window) throws IOException, InterruptedException {
        byte[] batch = new byte[request.length * BATCH];
        for (int i = 0; i < BATCH; i++) {
            System.arraycopy(request, 0, batch, i * request.length, request.length);
        }
        OutputStream out = socket.getOutputStream();
        long remaining = count;
        while (remaining > 0) {
            int n = (int) Math.min(BATCH, remaining);
            if (!window.tryAcquire(n, STALL_SECONDS, TimeUnit.SECONDS)) {
                throw new IOException("no response for " + STALL_SECONDS + " s with " + WINDOW + " requests in flight");
            }
            out.write(batch, 0, n * request.length);
            remaining -= n;
        }
        out.flush();
    }

    private void read(long count, Semaphore window, AtomicReference<Throwable> writerFailure) throws IOException {
        socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(STALL_SECONDS));
        InputStream in = socket.getInputStream();
        byte[] buffer = new byte[64 * 1024];
        long responses = 0;
        long offset = 0;
        while (responses < count) {
            int read = in.read(buffer);
            if (read < 0) {
                throw new IOException("connection closed after " + responses + " of " + count + " responses"
                    + (writerFailure.get() != null ? "; writer: " + writerFailure.get() : ""));
            }
            int completed = 0;
            int position = 0;
            while (position < read) {
                if (offset < STATUS.length) {
                    if (buffer[position] != STATUS[(int) offset]) {
                        throw new IOException("response " + (responses + completed) + " does not start with '"
                            + new String(STATUS, StandardCharsets.US_ASCII) + "' where expected (all responses must be "
                            + responseLength + " bytes)");
                    }
                    position++;
                    offset++;
                } else {
                    int step = (int) Math.min(read - position, responseLength - offset);
                    position += step;
                    offset += step;
                }
                if (offset == responseLength) {
                    completed++;
                    offset = 0;
                }
            }
            responses += completed;
            if (responses > count) {
                throw new IOException("more responses than requests: " + responses);
            }
            window.release(completed);
        }
        if (offset != 0) {
            throw new IOException(offset + " bytes after the last response");
        }
    }
}
