package io.wharf.client.internal.pool;

import java.util.Collection;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.ConnectionPool;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.util.ConcurrentPool;
import io.wharf.util.InvocationType;
import io.wharf.util.Pool;
import io.wharf.util.Promise;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The connections of one destination, each carrying up to its maximum multiplex of exchanges
 * at once: one for HTTP/1.1 (the duplex pool, {@link #duplex}), the streams the peer allows
 * for HTTP/2 (set per connection with {@link #setMaxMultiplex} when its SETTINGS arrive).
 * Which connection an exchange gets is the pool's strategy (the client's connection strategy:
 * the first with room by default, or round-robin over all of them). Built on wharf-util's
 * lock-free {@link ConcurrentPool} (maximum connections, maximum usage per connection); a
 * connection that idles past the client's idle timeout closes itself and so leaves the pool
 * (that is the idle eviction). It is the client's pool for every transport that does not bring
 * its own ({@link TransportDestination#newConnectionPool}), and it sees its destination and
 * transport through the SPI only.
 *
 * <p><b>Threads.</b> Any thread may call any method; nothing here blocks or takes a lock.
 * Opening a connection is asynchronous: the entry is reserved now, enabled when the
 * transport's promise completes (on a pool thread), and the destination is then asked to
 * serve its queue. <b>Holds.</b> Each acquire is given back exactly once, by
 * {@link #release} or by {@link #remove} (which gives back every hold left): a count per
 * connection makes a release that comes after the remove a no-op.
 */
public final class MultiplexConnectionPool implements ConnectionPool {

    private static final Logger LOG = LoggerFactory.getLogger(MultiplexConnectionPool.class);
    /** One change of {@link #pending}'s count, in its high bits. */
    private static final long CHANGE = 1L << 32;

    /** A pooled connection's entry and how many exchanges hold it (the count). */
    @SuppressWarnings("serial") // Never serialized.
    private static final class Slot extends AtomicInteger {
        final Pool.Entry<ClientConnection> entry;
        /** Set by {@link #remove} before it takes back the holds left. */
        volatile boolean removed;
        /**
         * Whether the connection still counts as being opened: from its reservation until an
         * exchange has taken it ({@link #taken}) or it left the pool.
         */
        final AtomicBoolean opening = new AtomicBoolean(true);

        Slot(Pool.Entry<ClientConnection> entry) {
            this.entry = entry;
        }

        /** @return whether a hold was taken back; false when none was left */
        boolean dropHold() {
            while (true) {
                int count = get();
                if (count == 0) {
                    return false;
                }
                if (compareAndSet(count, count - 1)) {
                    return true;
                }
            }
        }
    }

    private final TransportDestination destination;
    private final Transport transport;
    private final Pool<ClientConnection> pool;
    private final Map<ClientConnection, Slot> slots = new ConcurrentHashMap<>();
    /**
     * Connections being opened (the low 32 bits) and how many times that count changed (the
     * high 32 bits, wrapping), so that a compare-and-set fails after any change in between,
     * even one that left the count where it was. A connection counts from its reservation until
     * its first exchange has left the destination's count of waiting ones ({@link #taken}), or
     * until it failed or left the pool: open and idle meanwhile, it is what a waiting exchange
     * will get, and so still a connection on its way.
     */
    private final AtomicLong pending = new AtomicLong();

    /**
     * @param maxMultiplex how many exchanges a connection carries at once until
     *     {@link #setMaxMultiplex} says otherwise for it
     * @param strategy which connection with room an exchange gets: FIRST to reuse few,
     *     ROUND_ROBIN to spread over all
     */
    public MultiplexConnectionPool(TransportDestination destination, Transport transport, int maxConnections, int maxUsage,
                                   int maxMultiplex, Pool.Strategy strategy) {
        this.destination = destination;
        this.transport = transport;
        this.pool = ConcurrentPool.<ClientConnection>builder(maxConnections)
                .strategy(strategy)
                .maxUsage(maxUsage)
                .maxMultiplex(maxMultiplex)
                .build();
    }

    /** @return the pool of HTTP/1.1, where each connection carries one exchange at a time */
    public static MultiplexConnectionPool duplex(TransportDestination destination, Transport transport, int maxConnections,
                                                 int maxUsage, Pool.Strategy strategy) {
        return new MultiplexConnectionPool(destination, transport, maxConnections, maxUsage, 1, strategy);
    }

    /**
     * Sets how many exchanges {@code connection} carries at once from now on (an HTTP/2 peer's
     * SETTINGS_MAX_CONCURRENT_STREAMS); exchanges it carries beyond a lowered value finish, and
     * no new one gets it until enough have.
     */
    @Override
    public void setMaxMultiplex(ClientConnection connection, int maxMultiplex) {
        Slot slot = slots.get(connection);
        if (slot != null) {
            slot.entry.setMaxMultiplex(maxMultiplex);
        }
    }

    @Override
    public ClientConnection acquire() {
        while (true) {
            Pool.Entry<ClientConnection> entry = pool.acquire();
            if (entry == null) {
                return null;
            }
            ClientConnection connection = entry.getPooled();
            Slot slot = slots.get(connection);
            if (slot == null) {
                // Taken out of the pool meanwhile (its entry goes with it): this hold, counted
                // nowhere else, goes back; look again.
                entry.release();
                continue;
            }
            if (connection.isOpen()) {
                slot.incrementAndGet();
                if (!slot.removed) {
                    return connection;
                }
                // Removed meanwhile: give back this hold unless remove() already took it.
                if (slot.dropHold()) {
                    slot.entry.release();
                }
                continue;
            }
            // Closed and not yet removed, perhaps while other exchanges hold it: removed as its
            // close would (whichever of the two comes first gives back the holds counted on its
            // slot), then this uncounted hold goes back; look again.
            remove(connection);
            entry.release();
        }
    }

    @Override
    public void tryCreate(java.util.function.IntSupplier exchanges) {
        // A connection being opened is expected to carry the pool's multiplex of exchanges.
        int multiplex = Math.max(1, pool.getMaxMultiplex());
        // At most demand connections per call: a connection that opens at once (loopback)
        // counts itself down before the loop looks again, and must not count as a new need.
        for (int opened = 0; ; opened++) {
            // Counted before reserving, so that threads racing here open no more than the demand.
            long seen;
            do {
                // The openings first, then the queue: an opened connection takes its first
                // exchange out of the queue's count before it stops counting as opening, so
                // the two read in this order never miss it in both.
                seen = pending.get();
                // The queue as it is now: a connection that opened at once (loopback) may
                // already have taken an exchange, which then needs no new connection.
                int demand = (exchanges.getAsInt() + multiplex - 1) / multiplex;
                if (opened >= demand || (int) seen >= demand) {
                    return;
                }
            } while (!pending.compareAndSet(seen, seen + CHANGE + 1));
            Pool.Entry<ClientConnection> entry = pool.reserve();
            if (entry == null) {
                openingEnded();
                return;
            }
            transport.connect(destination, new Opening(entry));
        }
    }

    /** One connection counted as opening is no longer (it opened, failed or was refused). */
    private void openingEnded() {
        // Adds one change and takes one off the count (which is at least one).
        pending.addAndGet(CHANGE - 1);
    }

    /** Ends the count of {@code slot}'s connection as being opened, if it still counts: once. */
    private void opened(Slot slot) {
        if (slot.opening.compareAndSet(true, false)) {
            openingEnded();
        }
    }

    @Override
    public void taken(ClientConnection connection) {
        if ((int) pending.get() == 0) {
            // Nothing counts as opening: the usual case, without a look-up.
            return;
        }
        Slot slot = slots.get(connection);
        if (slot != null) {
            opened(slot);
        }
    }

    @Override
    public void release(ClientConnection connection) {
        Slot slot = slots.get(connection);
        if (slot == null || !slot.dropHold()) {
            return;
        }
        if (!slot.entry.release()) {
            // Removed while held, or worn out (max usage): it does not come back.
            slots.remove(connection);
            opened(slot);
            connection.close();
        }
    }

    @Override
    public void remove(ClientConnection connection) {
        Slot slot = slots.remove(connection);
        if (slot == null) {
            return;
        }
        slot.removed = true;
        opened(slot);
        slot.entry.remove();
        for (int left = slot.getAndSet(0); left > 0; left--) {
            slot.entry.release();
        }
    }

    @Override
    public void close() {
        Collection<Pool.Entry<ClientConnection>> removed = pool.terminate();
        for (Pool.Entry<ClientConnection> entry : removed) {
            ClientConnection connection = entry.getPooled();
            if (connection != null) {
                connection.close();
            }
        }
        for (ClientConnection connection : slots.keySet()) {
            connection.close();
        }
    }

    @Override
    public int getConnectionCount() {
        return pool.size();
    }

    @Override
    public int getIdleConnectionCount() {
        return pool.getIdleCount();
    }

    @Override
    public int getActiveConnectionCount() {
        return pool.getInUseCount();
    }

    @Override
    public String toString() {
        return "MultiplexConnectionPool[" + destination.scheme() + "://" + destination.host() + ":" + destination.port() + ", " + pool + "]";
    }

    /** Completes the opening of one reserved connection; told on a pool thread. */
    private final class Opening implements Promise<ClientConnection> {
        private final Pool.Entry<ClientConnection> entry;

        Opening(Pool.Entry<ClientConnection> entry) {
            this.entry = entry;
        }

        @Override
        public void succeeded(ClientConnection connection) {
            Slot slot = new Slot(entry);
            slots.put(connection, slot);
            // What this connection carries (an HTTP/2 server's limit), whatever the pool guessed.
            // Its SETTINGS may change it meanwhile, their setMaxMultiplex finding the slot or not:
            // set until what was set is still what it says.
            int multiplex;
            do {
                multiplex = connection.getMaxMultiplex();
                if (multiplex >= 0) {
                    entry.setMaxMultiplex(multiplex);
                }
            } while (multiplex != connection.getMaxMultiplex());
            boolean enabled = entry.enable(connection, false);
            if (!enabled) {
                // The pool was closed meanwhile.
                slots.remove(connection);
                opened(slot);
                connection.close();
                return;
            }
            if (!connection.isOpen()) {
                remove(connection);
            }
            // Still counted as opening until an exchange has taken it, on this thread or
            // another: a thread that found no free connection a moment ago, and counts the queue
            // now, must not open another for the exchange this one is about to take. Whoever
            // takes it looks at the queue again afterwards, for exchanges left to it meanwhile.
            destination.process();
        }

        @Override
        public void failed(Throwable cause) {
            LOG.debug("Opening a connection to {} failed", destination, cause);
            openingEnded();
            entry.remove();
            destination.connectFailed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }
}
