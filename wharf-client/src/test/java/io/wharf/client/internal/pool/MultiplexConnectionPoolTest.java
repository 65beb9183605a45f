package io.wharf.client.internal.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.client.HttpClient;
import io.wharf.client.Origin;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.ConnectionPool;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.transport.TransportExchange;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.util.Promise;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The pool alone, with connections that open at once and do nothing: its bounds, its holds
 * (each acquire given back exactly once, by release or remove), its worn-out and closed
 * connections, duplex and multiplexed, under many threads.
 */
@Timeout(60)
class MultiplexConnectionPoolTest {

    private HttpClient client;
    private HttpDestination destination;

    /** A connection that only knows whether it is open, and whether more holders than allowed ever overlapped. */
    private static final class FakeConnection implements ClientConnection {
        final AtomicBoolean open = new AtomicBoolean(true);
        final AtomicInteger holders = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        ConnectionPool pool;

        @Override
        public boolean send(TransportExchange exchange) {
            return true;
        }

        @Override
        public void abort(TransportExchange exchange, Throwable cause) {
            close();
        }

        @Override
        public boolean isOpen() {
            return open.get();
        }

        @Override
        public void close() {
            if (open.compareAndSet(true, false)) {
                pool.remove(this);
            }
        }
    }

    /** Opens fake connections synchronously, on the caller's thread. */
    private static final class FakeTransport implements Transport {
        final Set<FakeConnection> opened = ConcurrentHashMap.newKeySet();
        ConnectionPool pool;

        @Override
        public void connect(TransportDestination destination, Promise<ClientConnection> promise) {
            FakeConnection connection = new FakeConnection();
            connection.pool = pool;
            opened.add(connection);
            promise.succeeded(connection);
        }

        @Override
        public ConnectionPool newConnectionPool(TransportDestination destination) {
            throw new UnsupportedOperationException();
        }

        @Override
        public List<String> applicationProtocols() {
            return List.of("http/1.1");
        }
    }

    @BeforeEach
    void start() throws Exception {
        client = new HttpClient();
        client.start();
        destination = (HttpDestination) client.resolveDestination(Origin.of(URI.create("http://127.0.0.1:9/"), null));
    }

    @AfterEach
    void stop() throws Exception {
        client.stop();
    }

    private MultiplexConnectionPool pool(FakeTransport transport, int max, int maxUsage) {
        return pool(transport, max, maxUsage, 1);
    }

    private MultiplexConnectionPool pool(FakeTransport transport, int max, int maxUsage, int maxMultiplex) {
        MultiplexConnectionPool pool = new MultiplexConnectionPool(destination, transport, max, maxUsage, maxMultiplex,
                io.wharf.util.Pool.Strategy.FIRST);
        transport.pool = pool;
        return pool;
    }

    @Test
    void opensNoMoreThanTheDemandNorTheMaximum() {
        FakeTransport transport = new FakeTransport();
        MultiplexConnectionPool pool = pool(transport, 4, 0);
        pool.tryCreate(2);
        assertEquals(2, transport.opened.size());
        assertEquals(2, pool.getIdleConnectionCount());
        pool.tryCreate(10);
        assertEquals(4, pool.getConnectionCount());
        List<ClientConnection> held = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            held.add(nonNull(pool.acquire()));
        }
        assertNull(pool.acquire());
        assertEquals(4, pool.getActiveConnectionCount());
        held.forEach(pool::release);
        assertEquals(4, pool.getIdleConnectionCount());
    }

    private static ClientConnection nonNull(ClientConnection connection) {
        assertNotNull(connection);
        return connection;
    }

    @Test
    void aWornOutConnectionIsClosedAtItsLastRelease() {
        FakeTransport transport = new FakeTransport();
        MultiplexConnectionPool pool = pool(transport, 1, 2);
        pool.tryCreate(1);
        ClientConnection first = pool.acquire();
        pool.release(first);
        assertTrue(first.isOpen());
        assertEquals(first, pool.acquire());
        pool.release(first);
        assertTrue(!first.isOpen(), "two uses and it is worn out");
        assertEquals(0, pool.getConnectionCount());
    }

    @Test
    void aConnectionClosedWhileIdleIsNeverHandedOut() {
        FakeTransport transport = new FakeTransport();
        MultiplexConnectionPool pool = pool(transport, 2, 0);
        pool.tryCreate(1);
        FakeConnection connection = transport.opened.iterator().next();
        connection.open.set(false); // closed, and the pool not yet told
        assertNull(pool.acquire());
        assertEquals(0, pool.getConnectionCount());
    }

    @Test
    void aMultiplexedConnectionCarriesUpToItsMaximumAtOnce() {
        FakeTransport transport = new FakeTransport();
        MultiplexConnectionPool pool = pool(transport, 1, 0, 3);
        pool.tryCreate(1);
        ClientConnection first = nonNull(pool.acquire());
        assertEquals(first, pool.acquire());
        assertEquals(first, pool.acquire());
        assertNull(pool.acquire(), "three exchanges at most");
        pool.release(first);
        assertEquals(first, pool.acquire(), "a released stream makes room");
        for (int i = 0; i < 3; i++) {
            pool.release(first);
        }
        pool.release(first); // one release too many: no hold is left to give back
        assertEquals(1, pool.getIdleConnectionCount());
        assertEquals(1, transport.opened.size());
    }

    @Test
    void aLoweredMaximumLetsNobodyNewInUntilEnoughLeave() {
        FakeTransport transport = new FakeTransport();
        MultiplexConnectionPool pool = pool(transport, 1, 0, 4);
        pool.tryCreate(1);
        ClientConnection connection = nonNull(pool.acquire());
        assertEquals(connection, pool.acquire());
        pool.setMaxMultiplex(connection, 1); // the peer's SETTINGS_MAX_CONCURRENT_STREAMS arrived
        assertNull(pool.acquire());
        pool.release(connection);
        assertNull(pool.acquire(), "still one carried, the new maximum");
        pool.release(connection);
        assertEquals(connection, pool.acquire());
        assertNull(pool.acquire());
    }

    @Test
    void removingAConnectionGivesBackEveryHoldOnce() {
        FakeTransport transport = new FakeTransport();
        MultiplexConnectionPool pool = pool(transport, 1, 0, 4);
        pool.tryCreate(1);
        ClientConnection connection = nonNull(pool.acquire());
        pool.acquire();
        pool.acquire();
        pool.release(connection);
        connection.close(); // removes it with the two holds left
        pool.release(connection); // the exchanges it carried end late: nothing left to give back
        pool.release(connection);
        assertEquals(0, pool.getConnectionCount());
        assertEquals(0, pool.getActiveConnectionCount());
        pool.tryCreate(1);
        assertNotNull(pool.acquire(), "the slot was freed for a new connection");
    }

    /**
     * An acquire that finds a held connection already closed, before the close removed it from
     * the pool, must not take the connection out of the pool on its own: the close's remove
     * then finds nothing and the other holders' holds are never given back, so the slot stays
     * taken forever (the pool served nothing more once every slot leaked so).
     */
    @Test
    void anAcquireThatFindsAHeldConnectionClosedLeavesItsRemoveToGiveBackEveryHold() {
        FakeTransport transport = new FakeTransport();
        MultiplexConnectionPool pool = pool(transport, 1, 0, 2);
        pool.tryCreate(1);
        FakeConnection connection = (FakeConnection) nonNull(pool.acquire());
        connection.open.set(false); // closing: its remove from the pool has not run yet
        assertNull(pool.acquire(), "a closed connection is not handed out");
        pool.remove(connection); // the close's remove
        pool.release(connection); // the exchange it carried ends late
        assertEquals(0, pool.getConnectionCount(), "every hold was given back and the slot freed");
        pool.tryCreate(1);
        assertNotNull(pool.acquire(), "the slot was freed for a new connection");
    }

    @Test
    void manyThreadsAcquireReleaseAndClose() throws Exception {
        manyThreadsAcquireReleaseAndClose(1);
    }

    @Test
    void manyThreadsShareMultiplexedConnections() throws Exception {
        manyThreadsAcquireReleaseAndClose(3);
    }

    private void manyThreadsAcquireReleaseAndClose(int maxMultiplex) throws Exception {
        FakeTransport transport = new FakeTransport();
        int max = 8;
        MultiplexConnectionPool pool = pool(transport, max, 50, maxMultiplex);
        int threads = 16;
        int iterations = 20_000;
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        AtomicInteger acquired = new AtomicInteger();
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(workers.submit(() -> {
                    go.await();
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    for (int i = 0; i < iterations; i++) {
                        ClientConnection connection = pool.acquire();
                        if (connection == null) {
                            pool.tryCreate(1 + random.nextInt(4));
                            continue;
                        }
                        acquired.incrementAndGet();
                        FakeConnection fake = (FakeConnection) connection;
                        if (fake.holders.incrementAndGet() > maxMultiplex) {
                            fake.overlaps.incrementAndGet();
                        }
                        assertTrue(pool.getConnectionCount() <= max, "over the maximum");
                        fake.holders.decrementAndGet();
                        if (random.nextInt(20) == 0) {
                            connection.close();
                        } else {
                            pool.release(connection);
                        }
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> future : done) {
                future.get(50, TimeUnit.SECONDS);
            }
        } finally {
            workers.shutdownNow();
        }
        assertTrue(acquired.get() > iterations, "the pool served: " + acquired.get());
        assertEquals(0, transport.opened.stream().mapToInt(c -> c.overlaps.get()).sum(), "a connection had more holders than its multiplex");
        assertEquals(0, pool.getActiveConnectionCount(), "every hold was given back");
        long open = transport.opened.stream().filter(FakeConnection::isOpen).count();
        assertEquals(open, pool.getIdleConnectionCount(), "every open connection is idle in the pool, and only those");
        assertTrue(open <= max);
    }
}
