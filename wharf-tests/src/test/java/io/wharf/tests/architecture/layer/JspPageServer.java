package io.wharf.tests.architecture.layer;

import java.nio.file.Path;
import java.util.function.IntSupplier;

import io.wharf.jsp.JspInitializer;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.servlet.ServletContextHandler;

/**
 * A server on loopback, HTTP/1.1 only, started by its constructor, whose context at {@code /}
 * serves the JSP pages in a directory through {@link JspInitializer}. {@link
 * io.wharf.tests.architecture.ModulePathTest} runs it in a module layer of {@code io.wharf.jsp},
 * Jasper and what they require: it is loaded by a class loader whose parent is the layer's,
 * and that loader is the context's, so Jasper compiles and loads the pages against the modules.
 * It talks to the test through JDK types alone ({@link #getAsInt()} is the port, {@link #close()}
 * stops the server).
 */
public final class JspPageServer implements IntSupplier, AutoCloseable {

    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());

    /** Serves the pages under {@code pages}, compiling them under {@code work}. */
    public JspPageServer(Path pages, Path work) throws Exception {
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        context.setClassLoader(JspPageServer.class.getClassLoader());
        context.setBaseResource(pages);
        context.setTempDirectory(work);
        JspInitializer.enable(context);
        server.setHandler(context);
        server.start();
    }

    @Override
    public int getAsInt() {
        return connector.getLocalPort();
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
