package io.wharf.io.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.Test;

class WriteFlusherTest {

    /** A transport that takes at most {@code budget} bytes per flush and records them. */
    private static final class Transport implements WriteFlusher.Flusher {
        final ByteArrayOutputStream written = new ByteArrayOutputStream();
        final AtomicInteger incomplete = new AtomicInteger();
        volatile int budget;
        volatile IOException failure;

        Transport(int budget) {
            this.budget = budget;
        }

        @Override
        public synchronized boolean flush(ByteBuffer... buffers) throws IOException {
            if (failure != null) {
                throw failure;
            }
            int left = budget;
            for (ByteBuffer buffer : buffers) {
                while (buffer.hasRemaining() && left > 0) {
                    written.write(buffer.get());
                    left--;
                }
            }
            for (ByteBuffer buffer : buffers) {
                if (buffer.hasRemaining()) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public void onIncompleteFlush() {
            incomplete.incrementAndGet();
        }

        String text() {
            return written.toString(StandardCharsets.UTF_8);
        }
    }

    private static ByteBuffer bytes(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void completeWriteSucceedsAtOnce() throws Exception {
        Transport transport = new Transport(1000);
        WriteFlusher flusher = new WriteFlusher(transport);
        Callback.Completable done = new Callback.Completable();
        flusher.write(done, bytes("hello "), bytes("world"));
        done.get(1, TimeUnit.SECONDS);
        assertEquals("hello world", transport.text());
        assertFalse(flusher.isPending());
        assertEquals(0, transport.incomplete.get());
    }

    @Test
    void incompleteWriteWaitsForWritability() throws Exception {
        Transport transport = new Transport(4);
        WriteFlusher flusher = new WriteFlusher(transport);
        Callback.Completable done = new Callback.Completable();
        flusher.write(done, bytes("hello "), bytes("world"));
        assertFalse(done.isDone());
        assertTrue(flusher.isPending());
        assertEquals(1, transport.incomplete.get());
        assertThrows(WritePendingException.class, () -> flusher.write(Callback.NOOP, bytes("x")));
        flusher.completeWrite();
        assertEquals(2, transport.incomplete.get());
        transport.budget = 100;
        flusher.completeWrite();
        done.get(1, TimeUnit.SECONDS);
        assertEquals("hello world", transport.text());
        assertFalse(flusher.isPending());
        Callback.Completable next = new Callback.Completable();
        flusher.write(next, bytes("!"));
        next.get(1, TimeUnit.SECONDS);
        assertEquals("hello world!", transport.text());
    }

    @Test
    void pendingInvocationTypeIsTheCallbacks() {
        Transport transport = new Transport(0);
        WriteFlusher flusher = new WriteFlusher(transport);
        assertEquals(InvocationType.NON_BLOCKING, flusher.invocationType());
        flusher.write(Callback.from(() -> { }, x -> { }), bytes("x"));
        assertEquals(InvocationType.BLOCKING, flusher.invocationType());
    }

    @Test
    void flushFailureFailsTheCallbackAndLaterWrites() {
        Transport transport = new Transport(10);
        transport.failure = new IOException("broken pipe");
        WriteFlusher flusher = new WriteFlusher(transport);
        Callback.Completable done = new Callback.Completable();
        flusher.write(done, bytes("x"));
        ExecutionException failure = assertThrows(ExecutionException.class, () -> done.get(1, TimeUnit.SECONDS));
        assertSame(transport.failure, failure.getCause());
        Callback.Completable later = new Callback.Completable();
        flusher.write(later, bytes("y"));
        ExecutionException laterFailure = assertThrows(ExecutionException.class, () -> later.get(1, TimeUnit.SECONDS));
        assertSame(transport.failure, laterFailure.getCause().getCause());
    }

    @Test
    void onFailFailsThePendingWrite() {
        Transport transport = new Transport(0);
        WriteFlusher flusher = new WriteFlusher(transport);
        Callback.Completable done = new Callback.Completable();
        flusher.write(done, bytes("x"));
        IOException cause = new IOException("timeout");
        assertTrue(flusher.onFail(cause));
        assertTrue(done.isCompletedExceptionally());
        assertFalse(flusher.onFail(cause), "fails once");
        flusher.completeWrite();
        assertTrue(flusher.isFailed());
    }

    @Test
    void onFailWhenIdleLeavesTheFlusherUsable() throws Exception {
        Transport transport = new Transport(10);
        WriteFlusher flusher = new WriteFlusher(transport);
        assertFalse(flusher.onFail(new IOException("nothing to fail")));
        Callback.Completable done = new Callback.Completable();
        flusher.write(done, bytes("ok"));
        done.get(1, TimeUnit.SECONDS);
    }

    @Test
    void onCloseFailsEveryLaterWrite() {
        Transport transport = new Transport(10);
        WriteFlusher flusher = new WriteFlusher(transport);
        flusher.onClose(new IOException("closed"));
        Callback.Completable done = new Callback.Completable();
        flusher.write(done, bytes("x"));
        assertTrue(done.isCompletedExceptionally());
        assertEquals("", transport.text());
    }

    @Test
    void failureWhileWritingIsReportedByTheWriter() throws Exception {
        // The flush itself triggers a concurrent close: the writer must see FAILED and fail its callback once.
        AtomicInteger failures = new AtomicInteger();
        AtomicInteger successes = new AtomicInteger();
        WriteFlusher[] holder = new WriteFlusher[1];
        WriteFlusher flusher = new WriteFlusher(new WriteFlusher.Flusher() {
            @Override
            public boolean flush(ByteBuffer... buffers) {
                holder[0].onClose(new IOException("closed while writing"));
                for (ByteBuffer buffer : buffers) {
                    buffer.position(buffer.limit());
                }
                return true;
            }

            @Override
            public void onIncompleteFlush() {
            }
        });
        holder[0] = flusher;
        flusher.write(Callback.from(InvocationType.NON_BLOCKING, successes::incrementAndGet, x -> {
            assertInstanceOf(IOException.class, x);
            failures.incrementAndGet();
        }), bytes("x"));
        assertEquals(1, failures.get());
        assertEquals(0, successes.get());
    }

    /**
     * A flusher that buffers (as TLS does: the bytes are taken, encrypted, and not yet all on
     * the network) returns false with every buffer drained: the write must stay pending until
     * a later flush says it is done, not complete at once.
     */
    @Test
    void drainedBuffersWithBytesStillHeldKeepTheWritePending() throws Exception {
        AtomicInteger held = new AtomicInteger();
        AtomicInteger incomplete = new AtomicInteger();
        WriteFlusher flusher = new WriteFlusher(new WriteFlusher.Flusher() {
            @Override
            public boolean flush(ByteBuffer... buffers) {
                for (ByteBuffer buffer : buffers) {
                    held.addAndGet(buffer.remaining());
                    buffer.position(buffer.limit());
                }
                // Half of what is held reaches the network per flush.
                held.set(held.get() / 2);
                return held.get() == 0;
            }

            @Override
            public void onIncompleteFlush() {
                incomplete.incrementAndGet();
            }
        });
        Callback.Completable done = new Callback.Completable();
        flusher.write(done, bytes("0123456789"));
        assertFalse(done.isDone(), "bytes still held by the flusher: not written yet");
        assertTrue(flusher.isPending());
        assertEquals(1, incomplete.get());
        while (!done.isDone()) {
            flusher.completeWrite();
        }
        done.get(1, TimeUnit.SECONDS);
        assertEquals(0, held.get());
        assertFalse(flusher.isPending());
    }
}
