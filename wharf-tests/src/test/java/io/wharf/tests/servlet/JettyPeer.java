package io.wharf.tests.servlet;

import java.net.URI;
import java.util.List;

import jakarta.servlet.ServletContainerInitializer;

import org.eclipse.jetty.ee11.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * Eclipse Jetty 12.1 (its ee11 servlet container) as a {@link ServletPeer}: a server with
 * one HTTP/1.1 connector on 127.0.0.1 and one {@link ServletContextHandler}, without
 * sessions or security beyond Jetty's defaults, nothing read from or written to disk; error
 * pages through an {@link ErrorPageErrorHandler}.
 */
final class JettyPeer implements ServletPeer {

    private Server server;

    @Override
    public String name() {
        return "Jetty";
    }

    @Override
    public URI start(String contextPath, ServletContainerInitializer initializer, List<ErrorPage> errorPages) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        // With sessions, as Tomcat and Wharf have them without asking.
        ServletContextHandler context = new ServletContextHandler(contextPath, ServletContextHandler.SESSIONS);
        context.addServletContainerInitializer(initializer);
        if (!errorPages.isEmpty()) {
            ErrorPageErrorHandler pages = new ErrorPageErrorHandler();
            for (ErrorPage page : errorPages) {
                if (page.isDefault()) {
                    pages.addErrorPage(ErrorPageErrorHandler.GLOBAL_ERROR_PAGE, page.location());
                } else if (page.type() != null) {
                    pages.addErrorPage(page.type(), page.location());
                } else {
                    pages.addErrorPage(page.status(), page.location());
                }
            }
            context.setErrorHandler(pages);
        }
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
