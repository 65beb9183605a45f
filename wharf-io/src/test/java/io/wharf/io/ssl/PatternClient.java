package io.wharf.io.ssl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;

import io.wharf.io.AbstractConnection;
import io.wharf.io.EndPoint;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * Test client connection: writes {@code total} bytes of {@link SslTesting#pattern} in chunks
 * while it reads the echo back and checks every byte; {@code done} completes with the count
 * read once all came back, or with the first mismatch or failure.
 */
final class PatternClient extends AbstractConnection {

    private final ByteBufferPool pool;
    private final long total;
    private final int chunk;
    private final CompletableFuture<Long> done;
    private final Sender sender;
    private long received;

    PatternClient(EndPoint endPoint, ByteBufferPool pool, long total, int chunk, CompletableFuture<Long> done) {
        super(endPoint, Runnable::run);
        this.pool = pool;
        this.total = total;
        this.chunk = chunk;
        this.done = done;
        this.sender = new Sender();
    }

    @Override
    public void onOpen() {
        fillInterested();
        sender.iterate();
    }

    @Override
    public void onFillable() {
        RetainableByteBuffer buffer = pool.acquire(8192, false);
        try {
            while (true) {
                int filled = getEndPoint().fill(buffer.byteBuffer());
                if (filled < 0) {
                    done.completeExceptionally(new IOException("end of input after " + received + " of " + total + " bytes"));
                    return;
                }
                ByteBuffer bytes = buffer.byteBuffer();
                while (bytes.hasRemaining()) {
                    byte b = bytes.get();
                    if (b != SslTesting.pattern(received)) {
                        throw new IOException("wrong byte at offset " + received);
                    }
                    received++;
                }
                buffer.clear();
                if (received == total) {
                    done.complete(received);
                    return;
                }
                if (filled == 0) {
                    fillInterested();
                    return;
                }
            }
        } catch (Throwable x) {
            done.completeExceptionally(x);
            getEndPoint().close(x);
        } finally {
            buffer.release();
        }
    }

    @Override
    public void onClose(Throwable cause) {
        if (cause != null) {
            done.completeExceptionally(cause);
        }
    }

    @Override
    public InvocationType invocationType() {
        return InvocationType.NON_BLOCKING;
    }

    private final class Sender extends IteratingCallback {
        private final ByteBuffer bytes = ByteBuffer.allocate(chunk);
        private long sent;

        @Override
        protected Action process() {
            if (sent == total) {
                return Action.SUCCEEDED;
            }
            int length = (int) Math.min(chunk, total - sent);
            bytes.clear();
            for (int i = 0; i < length; i++) {
                bytes.put(SslTesting.pattern(sent + i));
            }
            bytes.flip();
            sent += length;
            getEndPoint().write(this, bytes);
            return Action.SCHEDULED;
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            done.completeExceptionally(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
