package io.wharf.jsp;

import java.nio.file.Path;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.servlet.ServletContextHandler;

/**
 * The embedding example of docs/servlet.md ("JSP"), kept here so that it compiles and
 * {@link JspExampleTest} runs it: JSP pages and JSTL from a directory, over HTTP/1.1 and h2c.
 * {@code main} serves the directory named by its argument (default {@code webapp}) on port 8080.
 */
public final class JspExample {

    private JspExample() {
    }

    /** Starts a server on {@code port} (0 for any) that serves the pages under {@code webapp} at {@code /}, compiled under {@code work}. */
    public static Server start(Path webapp, Path work, int port) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        connector.setPort(port);
        server.addConnector(connector);

        ServletContextHandler context = new ServletContextHandler("/");
        context.setBaseResource(webapp);                           // pages: webapp/index.jsp, webapp/WEB-INF/...
        context.setTempDirectory(work);                            // compiled pages go to work/jsp
        JspInitializer.enable(context)                             // the 'jsp' servlet: *.jsp, *.jspx
            .setInitParameter("development", "false");             // compile each page once
        context.getServletContext()
            .addJspFile("hello", "/WEB-INF/hello.jsp")             // a page at a path of its own
            .addMapping("/hello");

        server.setHandler(context);
        server.start();
        return server;
    }

    public static void main(String... args) throws Exception {
        Server server = start(Path.of(args.length > 0 ? args[0] : "webapp"), Path.of("work"), 8080);
        server.join();
    }
}
