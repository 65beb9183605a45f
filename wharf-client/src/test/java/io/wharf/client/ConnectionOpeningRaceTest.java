package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.client.transport.TransportExchange;
import io.wharf.util.Promise;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The race behind {@link ConnectionOpeningStressTest}'s rare extra connection, played step by
 * step: a connection that has just opened is taken by another thread than the one that opened
 * it, and that thread is held after taking it but before its exchange left the queue's count.
 * The opening thread, counting then, must still count the new connection as opening, or it
 * sees an exchange waiting and nothing on its way and opens a second connection that nothing
 * needs. The threads are held inside {@link ClientConnection#isOpen}, which the client's pool
 * calls on the connection it just enabled and on the one it just handed out.
 */
@Timeout(30)
class ConnectionOpeningRaceTest {

    private HttpClient client;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.stop();
        }
    }

    @Test
    void aConnectionJustOpenedCountsAsOpeningUntilItsExchangeLeftTheQueue() throws Exception {
        HeldTransport transport = new HeldTransport();
        client = new HttpClient(transport);
        client.start();
        client.newRequest("http://race.test/one").sendAsync();
        assertEquals(1, transport.openings.size(), "the first exchange opens a connection");
        TransportDestination destination = (TransportDestination) client.getDestinations().get(0);
        HeldConnection connection = new HeldConnection();

        // The opening completes on its own thread, which is held just after the pool enabled the connection.
        Thread opener = Thread.ofPlatform().unstarted(() -> transport.openings.get(0).succeeded(connection));
        Hold openerHold = connection.hold(opener);
        opener.start();
        openerHold.awaitHeld();

        // Another thread takes the new connection for the queued exchange, and is held there.
        Thread taker = Thread.ofPlatform().unstarted(destination::process);
        Hold takerHold = connection.hold(taker);
        taker.start();
        takerHold.awaitHeld();

        // The opener goes on: it finds no free connection and counts the queue.
        openerHold.release();
        opener.join(10_000);
        takerHold.release();
        taker.join(10_000);

        assertEquals(1, connection.sent.size(), "the exchange went out on the new connection");
        assertEquals(1, transport.openings.size(), "connections opened for one exchange");
        assertEquals(1, client.getDestinations().get(0).getConnectionCount(), "connections in the pool");
    }

    /** A transport whose openings the test completes. */
    private static final class HeldTransport implements Transport {
        final List<Promise<ClientConnection>> openings = new CopyOnWriteArrayList<>();

        @Override
        public void connect(TransportDestination destination, Promise<ClientConnection> promise) {
            openings.add(promise);
        }

        @Override
        public List<String> applicationProtocols() {
            return List.of("http/1.1");
        }
    }

    /** Holds a chosen thread, once, when it asks whether the connection is open. */
    private static final class Hold {
        private final CountDownLatch held = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);

        void awaitHeld() throws InterruptedException {
            assertTrue(held.await(10, TimeUnit.SECONDS), "the thread reached the connection");
        }

        void release() {
            released.countDown();
        }

        void hold() {
            held.countDown();
            try {
                released.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** A connection that keeps what it is given to send and never answers. */
    private static final class HeldConnection implements ClientConnection {
        final List<TransportExchange> sent = new CopyOnWriteArrayList<>();
        private final Map<Thread, Hold> holds = new ConcurrentHashMap<>();

        Hold hold(Thread thread) {
            Hold hold = new Hold();
            holds.put(thread, hold);
            return hold;
        }

        @Override
        public boolean send(TransportExchange exchange) {
            sent.add(exchange);
            return true;
        }

        @Override
        public void abort(TransportExchange exchange, Throwable cause) {
            sent.remove(exchange);
        }

        @Override
        public boolean isOpen() {
            Hold hold = holds.remove(Thread.currentThread());
            if (hold != null) {
                hold.hold();
            }
            return true;
        }

        @Override
        public void close() {
        }
    }
}
