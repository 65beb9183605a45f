package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;
import io.wharf.util.thread.TimerScheduler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The shared endpoint state machine, driven through a minimal in-memory subclass. */
class AbstractEndPointTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final TimerScheduler scheduler = new TimerScheduler();

    @AfterEach
    void stop() throws Exception {
        scheduler.stop();
    }

    /** Records what the endpoint asks of its transport; flushes take at most {@code budget} bytes. */
    private static final class TestEndPoint extends AbstractEndPoint {
        final List<String> calls = new CopyOnWriteArrayList<>();
        volatile int budget = Integer.MAX_VALUE;
        volatile boolean inputEnded;

        TestEndPoint(TimerScheduler scheduler) {
            super(scheduler, Runnable::run);
        }

        @Override
        public SocketAddress getLocalSocketAddress() {
            return null;
        }

        @Override
        public SocketAddress getRemoteSocketAddress() {
            return null;
        }

        @Override
        public Object getTransport() {
            return this;
        }

        @Override
        public int fill(ByteBuffer buffer) {
            if (inputEnded) {
                onInputEnd();
                return -1;
            }
            return 0;
        }

        @Override
        public boolean flush(ByteBuffer... buffers) throws IOException {
            if (isOutputShutdown()) {
                throw new EofException("output shut");
            }
            int left = budget;
            for (ByteBuffer buffer : buffers) {
                int take = Math.min(left, buffer.remaining());
                buffer.position(buffer.position() + take);
                left -= take;
            }
            if (left < budget) {
                notIdle();
            }
            return !ByteBuffers.hasRemaining(buffers);
        }

        @Override
        protected void needsFillInterest() {
            calls.add("needsFillInterest");
        }

        @Override
        protected void onIncompleteFlush() {
            calls.add("onIncompleteFlush");
        }

        @Override
        protected void doShutdownOutput() {
            calls.add("doShutdownOutput");
        }

        @Override
        protected void doClose() {
            calls.add("doClose");
        }

        void readable() {
            fillable();
        }

        void writable() {
            completeWrite();
        }
    }

    /** Records the events a connection is told. */
    private static final class Events extends IdleTestConnection {
        final List<String> events = new CopyOnWriteArrayList<>();
        final AtomicInteger closes = new AtomicInteger();
        volatile Throwable closeCause;
        volatile boolean agreeToIdleClose = true;

        Events(EndPoint endPoint) {
            super(endPoint);
        }

        @Override
        public void onInputShutdown() {
            events.add("inputShutdown");
        }

        @Override
        public boolean onIdleExpired(TimeoutException timeout) {
            events.add("idleExpired");
            return agreeToIdleClose;
        }

        @Override
        public void onClose(Throwable cause) {
            closes.incrementAndGet();
            closeCause = cause;
            events.add("close");
        }
    }

    private TestEndPoint open(Events[] connection) {
        TestEndPoint endPoint = new TestEndPoint(scheduler);
        connection[0] = new Events(endPoint);
        endPoint.setConnection(connection[0]);
        endPoint.onOpen();
        return endPoint;
    }

    @Test
    void endOfInputThenShutdownOutputCloses() throws Exception {
        Events[] connection = new Events[1];
        TestEndPoint endPoint = open(connection);
        endPoint.inputEnded = true;
        assertEquals(-1, endPoint.fill(ByteBuffer.allocate(8).limit(0)));
        assertTrue(endPoint.isInputShutdown());
        assertFalse(endPoint.isOutputShutdown());
        assertTrue(endPoint.isOpen());
        assertEquals(List.of("inputShutdown"), connection[0].events, "half-close is an event");
        endPoint.shutdownOutput();
        assertFalse(endPoint.isOpen(), "both halves shut: closed");
        assertEquals(List.of("doClose"), endPoint.calls, "no separate output shutdown once input is shut");
        assertEquals(List.of("inputShutdown", "close"), connection[0].events);
        assertNull(connection[0].closeCause, "a normal close");
    }

    @Test
    void shutdownOutputThenEndOfInputCloses() throws Exception {
        Events[] connection = new Events[1];
        TestEndPoint endPoint = open(connection);
        endPoint.shutdownOutput();
        assertTrue(endPoint.isOutputShutdown());
        assertTrue(endPoint.isOpen());
        endPoint.shutdownOutput();
        assertEquals(List.of("doShutdownOutput"), endPoint.calls, "shut once");
        endPoint.inputEnded = true;
        assertEquals(-1, endPoint.fill(ByteBuffer.allocate(8).limit(0)));
        assertFalse(endPoint.isOpen());
        assertEquals(List.of("close"), connection[0].events, "no input-shutdown event when the output is already shut");
    }

    @Test
    void closeFailsPendingReadAndWriteOnceAndTellsTheConnectionOnce() {
        Events[] connection = new Events[1];
        TestEndPoint endPoint = open(connection);
        Callback.Completable read = new Callback.Completable();
        endPoint.fillInterested(read);
        endPoint.budget = 2;
        Callback.Completable write = new Callback.Completable();
        endPoint.write(write, ByteBuffers.utf8("hello"));
        assertTrue(endPoint.isWritePending());
        IOException cause = new IOException("reset by peer");
        endPoint.close(cause);
        endPoint.close(new IOException("again"));
        assertSame(cause, assertFailedWith(read));
        assertSame(cause, assertFailedWith(write));
        assertEquals(1, connection[0].closes.get());
        assertSame(cause, connection[0].closeCause);
        assertEquals(List.of("needsFillInterest", "onIncompleteFlush", "doClose"), endPoint.calls);
        Callback.Completable late = new Callback.Completable();
        endPoint.write(late, ByteBuffers.utf8("late"));
        assertInstanceOf(IOException.class, assertFailedWith(late), "writes after close fail");
    }

    @Test
    void normalCloseFailsAPendingReadWithEof() {
        Events[] connection = new Events[1];
        TestEndPoint endPoint = open(connection);
        Callback.Completable read = new Callback.Completable();
        endPoint.fillInterested(read);
        endPoint.close();
        assertInstanceOf(EofException.class, assertFailedWith(read));
        Callback.Completable write = new Callback.Completable();
        endPoint.write(write, ByteBuffers.utf8("x"));
        assertInstanceOf(ClosedChannelException.class, assertFailedWith(write).getCause());
    }

    @Test
    void pendingWriteCompletesWhenWritable() throws Exception {
        Events[] connection = new Events[1];
        TestEndPoint endPoint = open(connection);
        endPoint.budget = 3;
        Callback.Completable write = new Callback.Completable();
        ByteBuffer bytes = ByteBuffers.utf8("abcdefgh");
        endPoint.write(write, bytes);
        assertFalse(write.isDone());
        endPoint.writable();
        assertFalse(write.isDone());
        endPoint.budget = 100;
        endPoint.writable();
        write.get(1, TimeUnit.SECONDS);
        assertFalse(bytes.hasRemaining());
        Callback.Completable read = new Callback.Completable();
        endPoint.fillInterested(read);
        endPoint.readable();
        read.get(1, TimeUnit.SECONDS);
    }

    @Test
    void idleTimeoutAsksTheConnectionThenCloses() throws Exception {
        scheduler.start();
        Events[] connection = new Events[1];
        TestEndPoint endPoint = new TestEndPoint(scheduler);
        connection[0] = new Events(endPoint);
        endPoint.setConnection(connection[0]);
        endPoint.setIdleTimeout(150);
        endPoint.onOpen();
        Callback.Completable read = new Callback.Completable();
        endPoint.fillInterested(read);
        Deadline.await(() -> !endPoint.isOpen(), Duration.ofSeconds(5));
        assertEquals(List.of("idleExpired", "close"), connection[0].events);
        assertInstanceOf(TimeoutException.class, connection[0].closeCause);
        assertInstanceOf(TimeoutException.class, assertFailedWith(read), "the pending read fails with the timeout");
    }

    @Test
    void aConnectionMayRefuseTheIdleClose() throws Exception {
        scheduler.start();
        Events[] connection = new Events[1];
        TestEndPoint endPoint = new TestEndPoint(scheduler);
        connection[0] = new Events(endPoint);
        connection[0].agreeToIdleClose = false;
        endPoint.setConnection(connection[0]);
        endPoint.setIdleTimeout(100);
        endPoint.onOpen();
        Deadline.await(() -> connection[0].events.size() >= 2, Duration.ofSeconds(5));
        assertTrue(endPoint.isOpen(), "still open: the connection said no, twice");
        connection[0].agreeToIdleClose = true;
        Deadline.await(() -> !endPoint.isOpen(), Duration.ofSeconds(5));
    }

    @Test
    void loweringTheIdleTimeoutTakesEffectAtOnce() throws Exception {
        scheduler.start();
        Events[] connection = new Events[1];
        TestEndPoint endPoint = new TestEndPoint(scheduler);
        connection[0] = new Events(endPoint);
        endPoint.setConnection(connection[0]);
        endPoint.setIdleTimeout(60_000);
        endPoint.onOpen();
        long start = System.nanoTime();
        endPoint.setIdleTimeout(100);
        Deadline.await(() -> !endPoint.isOpen(), Duration.ofSeconds(5));
        assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) < 5_000);
    }

    @Test
    void upgradeHandsOverUnusedBytesOrReleasesThem() {
        TestEndPoint endPoint = new TestEndPoint(scheduler);
        RetainableByteBuffer unused = leaks.pool().acquire(16, false);
        ByteBuffers.append(unused.byteBuffer(), ByteBuffers.utf8("rest"));
        List<String> events = new CopyOnWriteArrayList<>();
        class From extends IdleTestConnection implements Connection.UpgradeFrom {
            From() {
                super(endPoint);
            }

            @Override
            public RetainableByteBuffer onUpgradeFrom() {
                events.add("from");
                return unused;
            }

            @Override
            public void onClose(Throwable cause) {
                events.add("old closed");
            }
        }
        class To extends IdleTestConnection implements Connection.UpgradeTo {
            To() {
                super(endPoint);
            }

            @Override
            public void onUpgradeTo(RetainableByteBuffer prefilled) {
                events.add("to " + ByteBuffers.toUtf8(prefilled.byteBuffer()));
                prefilled.release();
            }

            @Override
            public void onOpen() {
                events.add("new opened");
            }
        }
        endPoint.setConnection(new From());
        endPoint.onOpen();
        To next = new To();
        endPoint.upgrade(next);
        assertSame(next, endPoint.getConnection());
        assertEquals(List.of("from", "old closed", "to rest", "new opened"), events);

        // A successor that cannot take the bytes: the endpoint releases them.
        RetainableByteBuffer dropped = leaks.pool().acquire(16, false);
        class From2 extends IdleTestConnection implements Connection.UpgradeFrom {
            From2() {
                super(endPoint);
            }

            @Override
            public RetainableByteBuffer onUpgradeFrom() {
                return dropped;
            }
        }
        endPoint.setConnection(new From2());
        endPoint.upgrade(new IdleTestConnection(endPoint));
        assertEquals(0, leaks.pool().outstanding());
    }

    /** A connection that counts the stops that reach it. */
    private static final class Stoppable extends IdleTestConnection implements GracefulConnection {
        final AtomicInteger stops = new AtomicInteger();
        /** Run inside {@link #shutdown()}, after the flag is set: where a racing upgrade lands. */
        volatile Runnable duringStop = () -> {
        };

        Stoppable(EndPoint endPoint) {
            super(endPoint);
        }

        @Override
        public void shutdown() {
            stops.incrementAndGet();
            duringStop.run();
        }

        @Override
        public boolean isShutdown() {
            return stops.get() > 0;
        }
    }

    /**
     * A stop and an upgrade on one endpoint, in both orders that a race can give: the stop reaches
     * the old connection before the upgrade installs the next one (the upgrade hands it on), or
     * reads the old connection and reaches it after (the stop hands it on). Either way the next
     * connection is asked to finish; before, it never was and waited until its idle timeout.
     */
    @Test
    void aStopThatReachesTheConnectionAnUpgradeReplacesReachesTheNextOne() {
        TestEndPoint endPoint = new TestEndPoint(scheduler);
        Stoppable old = new Stoppable(endPoint);
        endPoint.setConnection(old);
        endPoint.onOpen();
        Stoppable next = new Stoppable(endPoint);
        GracefulConnection.shutdown(endPoint);
        endPoint.upgrade(next);
        assertEquals(1, next.stops.get(), "the upgrade handed on a stop that came before it");

        TestEndPoint other = new TestEndPoint(scheduler);
        Stoppable before = new Stoppable(other);
        other.setConnection(before);
        other.onOpen();
        Stoppable after = new Stoppable(other);
        // The stop read `before` as the endpoint's connection; the upgrade completes while it is inside.
        before.duringStop = () -> other.upgrade(after);
        GracefulConnection.shutdown(other);
        assertSame(after, other.getConnection());
        assertTrue(after.stops.get() >= 1, "the stop went on to the connection that replaced the one it reached");

        // A connection that was not stopped is upgraded as before: nothing is handed on.
        TestEndPoint quiet = new TestEndPoint(scheduler);
        quiet.setConnection(new Stoppable(quiet));
        quiet.onOpen();
        Stoppable fresh = new Stoppable(quiet);
        quiet.upgrade(fresh);
        assertEquals(0, fresh.stops.get());
    }

    private static Throwable assertFailedWith(Callback.Completable callback) {
        assertTrue(callback.isCompletedExceptionally(), "failed");
        try {
            callback.get();
            throw new AssertionError("not failed");
        } catch (ExecutionException x) {
            return x.getCause();
        } catch (InterruptedException x) {
            throw new AssertionError(x);
        }
    }
}
