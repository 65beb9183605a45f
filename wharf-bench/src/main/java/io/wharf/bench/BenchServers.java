package io.wharf.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;

import io.wharf.server.Handler;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;

/**
 * Starts the Wharf and Jetty 12.1 HTTP/1.1 servers of the macro runs, and makes the connectors
 * of their HTTP/2 servers ({@link Http2Servers}), set up alike: one
 * acceptor, one selector, the default thread pool, an idle timeout of one hour (so that the
 * idle-connection runs measure connections, not closes), listening on the given loopback
 * address, with the handler the caller gives. Called by {@link HelloServers} and
 * {@link StaticServers} inside {@link ServerProcess}, on its main thread; the returned
 * {@link ServerProcess.Target} stops the server when closed.
 */
final class BenchServers {

    static final Duration IDLE_TIMEOUT = Duration.ofHours(1);

    private BenchServers() {
    }

    static ServerProcess.Target wharf(InetSocketAddress address, Handler handler) throws Exception {
        return wharf(address, handler, false);
    }

    /** @param everyJobVirtual whether every blocking job gets a virtual thread of its own, rather than an idle pool thread first (the default) */
    static ServerProcess.Target wharf(InetSocketAddress address, Handler handler, boolean everyJobVirtual) throws Exception {
        Server server = new Server();
        server.getThreadPool().setPreferIdlePlatformThreads(!everyJobVirtual);
        ServerConnector connector = wharfConnector(server, address, new HttpConnectionFactory());
        server.setHandler(handler);
        server.start();
        return ServerProcess.Target.of(connector::getLocalPort, () -> connector.getSelectorGroup().getOpenEndPoints(), server::stop);
    }

    /** Adds a Wharf connector set up as described above, speaking what {@code factories} (at least one) say. */
    static ServerConnector wharfConnector(Server server, InetSocketAddress address, io.wharf.server.ConnectionFactory... factories) {
        ServerConnector connector = new ServerConnector(server, 1, factories);
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(IDLE_TIMEOUT);
        server.addConnector(connector);
        return connector;
    }

    /** @param handler makes the handler for the server (Jetty's resource handler needs the server to resolve its base) */
    static ServerProcess.Target jetty(InetSocketAddress address,
                                      Function<org.eclipse.jetty.server.Server, org.eclipse.jetty.server.Handler> handler) throws Exception {
        org.eclipse.jetty.server.Server server = new org.eclipse.jetty.server.Server();
        org.eclipse.jetty.server.ServerConnector connector = jettyConnector(server, address, new org.eclipse.jetty.server.HttpConnectionFactory());
        server.setHandler(handler.apply(server));
        server.start();
        return ServerProcess.Target.of(connector::getLocalPort, () -> connector.getConnectedEndPoints().size(), server::stop);
    }

    /** Adds a Jetty connector set up as described above, speaking what {@code factories} say. */
    static org.eclipse.jetty.server.ServerConnector jettyConnector(org.eclipse.jetty.server.Server server, InetSocketAddress address,
                                                                 org.eclipse.jetty.server.ConnectionFactory... factories) {
        org.eclipse.jetty.server.ServerConnector connector = new org.eclipse.jetty.server.ServerConnector(server, 1, 1, factories);
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        server.addConnector(connector);
        return connector;
    }
}
