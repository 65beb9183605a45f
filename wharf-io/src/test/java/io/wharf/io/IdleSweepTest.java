package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The selector loops sweep their endpoints' idle timeouts: endpoints with different timeouts
 * on the same loops expire in time, a lowered timeout is noticed, activity keeps one open.
 */
@Timeout(30)
class IdleSweepTest {

    /**
     * Scheduling and GC on a loaded 2-core CI machine, on top of the sweep's own lateness:
     * generous, yet below the 1 s period a loop would keep if it missed a lowered timeout.
     */
    private static final long JITTER_MILLIS = 250;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();
    private final List<Socket> sockets = new ArrayList<>();
    private EchoServer server;

    @AfterEach
    void dispose() throws Exception {
        for (Socket socket : sockets) {
            socket.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** Starts a server whose endpoints start with a long timeout, and opens {@code count} of them. */
    private List<TimedConnection> open(int count) throws Exception {
        server = new EchoServer(leaks.pool(), false, Duration.ofSeconds(30), (endPoint, pool) -> new TimedConnection(endPoint));
        for (int i = 0; i < count; i++) {
            sockets.add(new Socket(InetAddress.getLoopbackAddress(), server.port()));
        }
        Deadline.await(() -> server.opened().size() == count, Duration.ofSeconds(10));
        List<TimedConnection> connections = new ArrayList<>();
        for (Connection connection : server.opened()) {
            connections.add((TimedConnection) connection);
        }
        return connections;
    }

    private static long bound(long timeoutMillis) {
        return timeoutMillis + Math.max(timeoutMillis / 4, 10) + JITTER_MILLIS;
    }

    @Test
    void endPointsWithDifferentTimeoutsExpireInTime() throws Exception {
        long[] timeouts = {100, 130, 170, 250, 400, 700};
        List<TimedConnection> connections = open(36);
        for (int i = 0; i < connections.size(); i++) {
            connections.get(i).getEndPoint().setIdleTimeout(timeouts[i % timeouts.length]);
        }
        Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        for (TimedConnection connection : connections) {
            long timeout = connection.getEndPoint().getIdleTimeout();
            long open = connection.openMillis();
            assertTrue(open >= timeout - 1, "not before its timeout: " + open + " ms for " + timeout);
            assertTrue(open <= bound(timeout), "within the bound: " + open + " ms for " + timeout);
            assertInstanceOf(TimeoutException.class, connection.closeCause);
        }
    }

    @Test
    void aLoweredTimeoutIsNoticed() throws Exception {
        TimedConnection connection = open(1).get(0);
        EndPoint endPoint = connection.getEndPoint();
        endPoint.setIdleTimeout(5_000);
        Thread.sleep(300);
        assertTrue(endPoint.isOpen());
        // Idle since it opened, more than 300 ms ago: expires by the new timeout, counted from its last activity.
        endPoint.setIdleTimeout(400);
        Deadline.await(connection::closed, Duration.ofSeconds(5));
        long open = connection.openMillis();
        assertTrue(open >= 399, "not before its timeout: " + open);
        assertTrue(open <= bound(400), "by the lowered timeout: " + open);
    }

    @Test
    void anActiveEndPointNeverExpires() throws Exception {
        List<TimedConnection> connections = open(2);
        EndPoint active = connections.get(0).getEndPoint();
        EndPoint idle = connections.get(1).getEndPoint();
        // Written every 40 ms against a 400 ms timeout: ten times the margin for a busy machine.
        active.setIdleTimeout(400);
        idle.setIdleTimeout(400);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1200);
        while (System.nanoTime() < end) {
            Callback.Completable written = new Callback.Completable();
            active.write(written, ByteBuffer.wrap(new byte[] {'a'}));
            written.get(5, TimeUnit.SECONDS);
            Thread.sleep(40);
        }
        assertTrue(active.isOpen(), "active for 1.2 s with a 400 ms timeout");
        assertTrue(!idle.isOpen(), "the idle one on the same group expired");
        assertEquals(1, server.group().getOpenEndPoints());
    }

    /** Never reads; records how long its endpoint was open and why it closed. Any thread. */
    private static final class TimedConnection extends IdleTestConnection {
        private volatile long openedNanos;
        private volatile long closedNanos;
        private volatile Throwable closeCause;

        TimedConnection(EndPoint endPoint) {
            super(endPoint);
        }

        @Override
        public void onOpen() {
            openedNanos = System.nanoTime();
            super.onOpen();
        }

        @Override
        public void onClose(Throwable cause) {
            closeCause = cause;
            closedNanos = System.nanoTime();
            super.onClose(cause);
        }

        boolean closed() {
            return closedNanos != 0;
        }

        long openMillis() {
            return TimeUnit.NANOSECONDS.toMillis(closedNanos - openedNanos);
        }
    }
}
