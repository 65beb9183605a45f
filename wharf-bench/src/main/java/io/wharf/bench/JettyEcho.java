package io.wharf.bench;

import java.net.InetSocketAddress;
import java.util.concurrent.Executor;

import org.eclipse.jetty.io.AbstractConnection;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.ByteBufferPool;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.eclipse.jetty.server.AbstractConnectionFactory;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.IteratingCallback;
import org.eclipse.jetty.util.thread.Invocable;

/**
 * The peer of the echo macro runs: the same echo written on Jetty 12.1's I/O layer (its
 * ServerConnector, selectors, endpoints and buffer pool), as a Jetty user would write it,
 * the same shape as Wharf's {@link io.wharf.examples.EchoConnection}.
 */
final class JettyEcho implements ServerProcess.Target {

    private final Server server;
    private final ServerConnector connector;

    private JettyEcho(Server server, ServerConnector connector) {
        this.server = server;
        this.connector = connector;
    }

    static JettyEcho start(InetSocketAddress address) throws Exception {
        ArrayByteBufferPool pool = new ArrayByteBufferPool();
        Server server = new Server(null, null, pool);
        ServerConnector connector = new ServerConnector(server, 0, 1, new EchoFactory());
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(3_600_000);
        connector.setAcceptQueueSize(4096);
        server.addConnector(connector);
        server.start();
        return new JettyEcho(server, connector);
    }

    @Override
    public int port() {
        return connector.getLocalPort();
    }

    @Override
    public int connections() {
        return connector.getConnectedEndPoints().size();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }

    private static final class EchoFactory extends AbstractConnectionFactory {
        EchoFactory() {
            super("echo");
        }

        @Override
        public Connection newConnection(Connector connector, EndPoint endPoint) {
            return new Echo(endPoint, connector.getExecutor(), connector.getByteBufferPool());
        }
    }

    private static final class Echo extends AbstractConnection implements Invocable {
        private final ByteBufferPool pool;
        private final Loop loop = new Loop();

        Echo(EndPoint endPoint, Executor executor, ByteBufferPool pool) {
            super(endPoint, executor);
            this.pool = pool;
        }

        @Override
        public void onOpen() {
            super.onOpen();
            fillInterested();
        }

        @Override
        public void onFillable() {
            loop.iterate();
        }

        @Override
        public InvocationType getInvocationType() {
            return InvocationType.NON_BLOCKING;
        }

        private final class Loop extends IteratingCallback {
            private RetainableByteBuffer inFlight;

            @Override
            protected Action process() throws Throwable {
                releaseInFlight();
                RetainableByteBuffer buffer = pool.acquire(4096, true);
                int filled;
                try {
                    filled = getEndPoint().fill(buffer.getByteBuffer());
                } catch (Throwable x) {
                    buffer.release();
                    throw x;
                }
                if (filled > 0) {
                    inFlight = buffer;
                    getEndPoint().write(this, buffer.getByteBuffer());
                    return Action.SCHEDULED;
                }
                buffer.release();
                if (filled == 0) {
                    fillInterested();
                    return Action.IDLE;
                }
                getEndPoint().shutdownOutput();
                return Action.SUCCEEDED;
            }

            private void releaseInFlight() {
                if (inFlight != null) {
                    inFlight.release();
                    inFlight = null;
                }
            }

            @Override
            protected void onCompleteFailure(Throwable cause) {
                releaseInFlight();
                getEndPoint().close(cause);
            }

            @Override
            public InvocationType getInvocationType() {
                return InvocationType.NON_BLOCKING;
            }
        }
    }
}
