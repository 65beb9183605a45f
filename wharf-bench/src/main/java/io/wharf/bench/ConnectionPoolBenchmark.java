package io.wharf.bench;

import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.wharf.client.HttpClient;
import io.wharf.client.Origin;
import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.ConnectionPool;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.transport.TransportExchange;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.client.internal.pool.MultiplexConnectionPool;
import io.wharf.util.Pool;
import io.wharf.util.Promise;

/**
 * Acquire+release throughput of the HTTP client's connection pools: Wharf's
 * {@link MultiplexConnectionPool} in its three shapes against Jetty 12.1's
 * {@code DuplexConnectionPool}, {@code MultiplexConnectionPool} and
 * {@code RoundRobinConnectionPool}, at 1, 2, 8 and 64 threads. Both sides get {@code size}
 * (16) connections that open at once and do nothing, so only the pools are measured: an
 * operation asks for a connection and gives it back at once. A request that finds none free
 * still counts as an operation of the primary score; the secondary results {@code hits} and
 * {@code misses} split them (compare {@code hits} at 64 threads, where duplex pools run dry).
 *
 * <ul>
 * <li>{@code duplex}: one exchange per connection, the first free one (HTTP/1.1's default);</li>
 * <li>{@code round-robin}: one exchange per connection, spread over all of them;</li>
 * <li>{@code multiplex}: up to {@code multiplex} (4) exchanges per connection at once (HTTP/2).</li>
 * </ul>
 *
 * <p>Jetty's pools need an {@code HttpDestination}: a subclass whose {@code newConnection}
 * hands back a connection that does nothing, on a started (but unused) Jetty client. One point:
 * <pre>
 * java -jar wharf-bench/target/wharf-bench.jar 'ConnectionPoolBenchmark.threads8' -p kind=multiplex
 * </pre>
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ConnectionPoolBenchmark extends PoolCycles {

    @Param({"wharf", "jetty"})
    public String impl;

    @Param({"duplex", "round-robin", "multiplex"})
    public String kind;

    @Param("16")
    public int size;

    @Param("4")
    public int multiplex;

    private Contender pool;

    /** The two clients' pools behind one interface; each fork uses one, so the call stays monomorphic. */
    interface Contender {
        /** @return whether a connection was acquired (and released) */
        boolean cycle();

        void stop() throws Exception;
    }

    @Setup
    public void setUp() throws Exception {
        int perConnection = kind.equals("multiplex") ? multiplex : 1;
        pool = switch (impl) {
            case "wharf" -> new WharfContender(kind, size, perConnection);
            case "jetty" -> new JettyContender(kind, size, perConnection);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    @TearDown
    public void tearDown() throws Exception {
        pool.stop();
    }

    @Override
    protected boolean cycle() {
        return pool.cycle();
    }

    static final class WharfContender implements Contender {
        private final HttpClient client = new HttpClient();
        private final ConnectionPool pool;

        WharfContender(String kind, int size, int perConnection) throws Exception {
            client.start();
            HttpDestination destination = (HttpDestination) client.resolveDestination(Origin.of(URI.create("http://127.0.0.1:9/"), null));
            Transport transport = new IdleTransport();
            pool = switch (kind) {
                case "duplex" -> MultiplexConnectionPool.duplex(destination, transport, size, 0, Pool.Strategy.FIRST);
                case "round-robin" -> MultiplexConnectionPool.duplex(destination, transport, size, 0, Pool.Strategy.ROUND_ROBIN);
                case "multiplex" -> new MultiplexConnectionPool(destination, transport, size, 0, perConnection, Pool.Strategy.FIRST);
                default -> throw new IllegalArgumentException("unknown kind " + kind);
            };
            // The demand is in exchanges: size connections of perConnection exchanges each.
            pool.tryCreate(size * perConnection);
            if (pool.getIdleConnectionCount() != size) {
                throw new IllegalStateException("opened " + pool.getIdleConnectionCount() + " of " + size);
            }
        }

        @Override
        public boolean cycle() {
            ClientConnection connection = pool.acquire();
            if (connection == null) {
                return false;
            }
            pool.release(connection);
            return true;
        }

        @Override
        public void stop() throws Exception {
            pool.close();
            client.stop();
        }
    }

    /** Opens, at once and on the caller's thread, connections that carry nothing. */
    static final class IdleTransport implements Transport {
        @Override
        public void connect(TransportDestination destination, Promise<ClientConnection> promise) {
            promise.succeeded(new IdleConnection());
        }

        @Override
        public ConnectionPool newConnectionPool(TransportDestination destination) {
            throw new UnsupportedOperationException("the benchmark makes its pools");
        }

        @Override
        public List<String> applicationProtocols() {
            return List.of("http/1.1");
        }
    }

    static final class IdleConnection implements ClientConnection {
        private volatile boolean open = true;

        @Override
        public boolean send(TransportExchange exchange) {
            throw new UnsupportedOperationException("the benchmark sends nothing");
        }

        @Override
        public void abort(TransportExchange exchange, Throwable cause) {
            close();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }
    }

    static final class JettyContender implements Contender {
        private final org.eclipse.jetty.client.HttpClient client = new org.eclipse.jetty.client.HttpClient();
        private final org.eclipse.jetty.client.ConnectionPool pool;

        JettyContender(String kind, int size, int perConnection) throws Exception {
            client.start();
            IdleJettyDestination destination = new IdleJettyDestination(client);
            pool = switch (kind) {
                case "duplex" -> new org.eclipse.jetty.client.DuplexConnectionPool(destination, size);
                case "round-robin" -> new org.eclipse.jetty.client.RoundRobinConnectionPool(destination, size);
                case "multiplex" -> new org.eclipse.jetty.client.MultiplexConnectionPool(destination, size, perConnection);
                default -> throw new IllegalArgumentException("unknown kind " + kind);
            };
            // Jetty's pools are components: the pool inside is made when they start.
            ((org.eclipse.jetty.util.component.LifeCycle) pool).start();
            pool.preCreateConnections(size).get(10, TimeUnit.SECONDS);
        }

        @Override
        public boolean cycle() {
            org.eclipse.jetty.client.Connection connection = pool.acquire(false);
            if (connection == null) {
                return false;
            }
            pool.release(connection);
            return true;
        }

        @Override
        public void stop() throws Exception {
            ((org.eclipse.jetty.util.component.LifeCycle) pool).stop();
            client.stop();
        }
    }

    /** Jetty's destination for the pools, whose new connections open at once and carry nothing. */
    static final class IdleJettyDestination extends org.eclipse.jetty.client.transport.HttpDestination {
        IdleJettyDestination(org.eclipse.jetty.client.HttpClient client) {
            super(client, new org.eclipse.jetty.client.Origin("http", "127.0.0.1", 9));
        }

        @Override
        public void newConnection(org.eclipse.jetty.util.Promise<org.eclipse.jetty.client.Connection> promise) {
            promise.succeeded(new IdleJettyConnection());
        }
    }

    static final class IdleJettyConnection implements org.eclipse.jetty.client.Connection, org.eclipse.jetty.util.Attachable {
        private volatile Object attachment;
        private volatile boolean closed;

        @Override
        public void send(org.eclipse.jetty.client.Request request, org.eclipse.jetty.client.Response.CompleteListener listener) {
            throw new UnsupportedOperationException("the benchmark sends nothing");
        }

        @Override
        public void close() {
            closed = true;
        }

        @Override
        public boolean isClosed() {
            return closed;
        }

        @Override
        public Object getAttachment() {
            return attachment;
        }

        @Override
        public void setAttachment(Object attachment) {
            this.attachment = attachment;
        }
    }
}
