package io.wharf.tests.servlet;

import java.net.URI;

import jakarta.servlet.ServletContainerInitializer;

import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Eclipse Jetty 12.1 (its ee11 servlet container) as a {@link ServletPeer}: a server with
 * one HTTP/1.1 connector on 127.0.0.1 and one {@link ServletContextHandler}, without
 * sessions or security beyond Jetty's defaults, nothing read from or written to disk.
 */
final class JettyPeer implements ServletPeer {

    private Server server;

    @Override
    public String name() {
        return "Jetty";
    }

    @Override
    public URI start(String contextPath, ServletContainerInitializer initializer) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler(contextPath);
        context.addServletContainerInitializer(initializer);
        server.setHandler(context);
        server.start();
        return URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.stop();
        }
    }
}
