package io.wharf.bench;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;

import io.wharf.server.Handler;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;

/**
 * Starts the Wharf and Jetty 12.1 HTTP/1.1 servers of the macro runs, set up alike: one
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
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, 1);
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(IDLE_TIMEOUT);
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
        return ServerProcess.Target.of(connector::getLocalPort, () -> connector.getSelectorGroup().getOpenEndPoints(), server::stop);
    }

    /** @param handler makes the handler for the server (Jetty's resource handler needs the server to resolve its base) */
    static ServerProcess.Target jetty(InetSocketAddress address,
                                      Function<org.eclipse.jetty.server.Server, org.eclipse.jetty.server.Handler> handler) throws Exception {
        org.eclipse.jetty.server.Server server = new org.eclipse.jetty.server.Server();
        org.eclipse.jetty.server.ServerConnector connector = new org.eclipse.jetty.server.ServerConnector(server, 1, 1);
        connector.setHost(address.getHostString());
        connector.setPort(address.getPort());
        connector.setIdleTimeout(IDLE_TIMEOUT.toMillis());
        server.addConnector(connector);
        server.setHandler(handler.apply(server));
        server.start();
        return ServerProcess.Target.of(connector::getLocalPort, () -> connector.getConnectedEndPoints().size(), server::stop);
    }
}
