package io.wharf.tests.servlet;

import java.net.URI;
import java.util.List;

import jakarta.servlet.ServletContainerInitializer;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Wharf's servlet container as a {@link ServletPeer}: a {@link Server} with one HTTP/1.1
 * connector on 127.0.0.1 and one {@link ServletContextHandler}, its buffers from a
 * leak-tracking pool; error pages through {@link ServletContextHandler#addErrorPage}. Closing it stops the server and then fails if a buffer was not
 * returned to the pool (or returned twice).
 */
final class WharfPeer implements ServletPeer {

    private final LeakTracking leaks = new LeakTracking();
    private Server server;

    @Override
    public String name() {
        return "Wharf";
    }

    @Override
    public URI start(String contextPath, ServletContainerInitializer initializer, List<ErrorPage> errorPages) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler(contextPath);
        context.addServletContainerInitializer(initializer);
        for (ErrorPage page : errorPages) {
            if (page.isDefault()) {
                context.setDefaultErrorPage(page.location());
            } else if (page.type() != null) {
                context.addErrorPage(page.type(), page.location());
            } else {
                context.addErrorPage(page.status(), page.location());
            }
        }
        server.setHandler(context);
        server.start();
        return URI.create("http://127.0.0.1:" + connector.getLocalPort());
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.stop();
            leaks.verify(LeakTracking.DEFAULT_GRACE);
        }
    }
}
