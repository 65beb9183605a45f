package io.wharf.bench;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletRegistration;

import io.wharf.http.HttpField;
import io.wharf.http.MimeTypes;
import io.wharf.server.Handler;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.util.InvocationType;

import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.Tomcat;
import org.apache.catalina.webresources.StandardRoot;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * The servers of the {@code servlet} macro run, each started by {@link ServerProcess} in its own
 * JVM: the same {@link ServletApp} deployed at the root of Wharf's {@link ServletContextHandler},
 * Jetty 12.1's ee11 {@code ServletContextHandler} and an embedded Tomcat 11 context, and Wharf's
 * core handler answering the same requests without the servlet layer. Given a directory, each
 * servlet container also maps its own DefaultServlet to {@code /} over it.
 *
 * <p>Set up alike as far as each allows: one HTTP/1.1 connector on loopback with one acceptor and
 * one selector (Tomcat: one acceptor thread and its one poller), keep-alive without a limit on
 * requests per connection (Tomcat's default of 100 is lifted), an idle timeout of one hour, no
 * access log, no sessions created (the application makes none; Jetty's context has no session
 * handler, its default; Tomcat's manager saves nothing at stop). Each runs servlets where it runs
 * them by default: Wharf on its pool (an idle pool thread, else a virtual thread), Jetty on its
 * default {@code QueuedThreadPool},
 * Tomcat on its connector's default executor (up to 200 platform threads). Response buffers are
 * each one's default: 32 KiB for Wharf and Jetty, 8 KiB for Tomcat.
 *
 * <p>The DefaultServlets send an ETag, serve no precompressed variants, list no directories and
 * keep no file content in memory: Jetty's keeps none unless told to, Tomcat's resource cache is
 * turned off (it would keep files up to 512 KiB). Large files go out each one's default way:
 * Wharf and Jetty map files of 1 MiB and more, Tomcat uses {@code sendfile} above 48 KiB.
 */
final class ServletServers {

    /** Held so that the level set on it is not lost when the logger is collected. */
    private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

    private ServletServers() {
    }

    /** @param directory the files of the DefaultServlet, or null for none mapped by the run */
    static ServerProcess.Target wharf(InetSocketAddress address, Path directory) throws Exception {
        return wharf(address, directory, false);
    }

    /**
     * @param directory the files of the DefaultServlet, or null for none mapped by the run
     * @param everyRequestVirtual true to run every servlet request on a virtual thread of its own
     *     ({@code QueuedThreadPool.setPreferIdlePlatformThreads(false)}) rather than on a pool thread
     *     that is idle first (the default): {@code wharf-servlet-vthread}, which shows what a virtual
     *     thread per request costs
     */
    static ServerProcess.Target wharf(InetSocketAddress address, Path directory, boolean everyRequestVirtual) throws Exception {
        ServletContextHandler context = new ServletContextHandler("/");
        context.addServletContainerInitializer(new ServletApp());
        if (directory != null) {
            context.setBaseResource(directory);
            ServletRegistration.Dynamic files = context.addServlet(new io.wharf.servlet.DefaultServlet(), "/");
            files.setInitParameter("precompressed", "false");
            files.setInitParameter("etags", "true");
            files.setInitParameter("dirAllowed", "false");
        }
        return BenchServers.wharf(address, context, everyRequestVirtual);
    }

    /** @param directory the files of the DefaultServlet, or null for none mapped by the run */
    static ServerProcess.Target jetty(InetSocketAddress address, Path directory) throws Exception {
        return BenchServers.jetty(address, server -> {
            var context = new org.eclipse.jetty.ee11.servlet.ServletContextHandler("/");
            context.addServletContainerInitializer(new ServletApp());
            if (directory != null) {
                context.setBaseResourceAsPath(directory);
                var files = context.addServlet(org.eclipse.jetty.ee11.servlet.DefaultServlet.class, "/");
                files.setInitParameter("precompressed", "false");
                files.setInitParameter("etags", "true");
                files.setInitParameter("dirAllowed", "false");
            }
            return context;
        });
    }

    /** @param directory the files of the DefaultServlet, or null for none mapped by the run */
    static ServerProcess.Target tomcat(InetSocketAddress address, Path directory) throws Exception {
        Path base = Files.createTempDirectory("wharf-bench-tomcat");
        Tomcat tomcat = embeddedTomcat(address, base);
        Connector connector = tomcat.getConnector();
        Http11NioProtocol protocol = (Http11NioProtocol) connector.getProtocolHandler();
        int idle = (int) BenchServers.IDLE_TIMEOUT.toMillis();
        protocol.setMaxKeepAliveRequests(-1);
        protocol.setKeepAliveTimeout(idle);
        protocol.setConnectionTimeout(idle);
        Path documents = directory != null ? directory : Files.createDirectories(base.resolve("documents"));
        StandardContext context = (StandardContext) tomcat.addContext("", documents.toString());
        StandardRoot resources = new StandardRoot(context);
        resources.setCachingAllowed(false);
        context.setResources(resources);
        context.setJarScanner(noScanning());
        // Its checks for leaks at stop need --add-opens, and only warn without them: the application is no webapp.
        context.setClearReferencesThreadLocals(false);
        context.setClearReferencesRmiTargets(false);
        StandardManager sessions = new StandardManager();
        sessions.setPathname(null);
        context.setManager(sessions);
        context.addServletContainerInitializer(new ServletApp(), null);
        if (directory != null) {
            Wrapper files = Tomcat.addServlet(context, "default", new org.apache.catalina.servlets.DefaultServlet());
            files.addInitParameter("listings", "false");
            context.addServletMappingDecoded("/", "default");
            // Tomcat's context made without a web.xml knows no MIME types; the others call .bin this.
            context.addMimeMapping("bin", "application/octet-stream");
        }
        tomcat.start();
        return ServerProcess.Target.of(connector::getLocalPort, () -> (int) protocol.getConnectionCount(), () -> {
            try {
                tomcat.stop();
                tomcat.destroy();
            } finally {
                StaticMacroBenchmark.deleteTree(base);
            }
        });
    }

    /**
     * @return an embedded Tomcat in {@code base}, quiet but for warnings, with no shutdown port,
     *     one NIO connector on {@code address} and no automatic deployment; not started
     */
    static Tomcat embeddedTomcat(InetSocketAddress address, Path base) {
        TOMCAT_LOG.setLevel(Level.WARNING);
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.getServer().setPort(-1);
        Connector connector = new Connector(Http11NioProtocol.class.getName());
        connector.setPort(address.getPort());
        connector.setProperty("address", address.getAddress().getHostAddress());
        tomcat.setConnector(connector);
        tomcat.getHost().setAutoDeploy(false);
        return tomcat;
    }

    private static StandardJarScanner noScanning() {
        StandardJarScanner scanner = new StandardJarScanner();
        scanner.setScanClassPath(false);
        scanner.setScanManifest(false);
        scanner.setScanAllDirectories(false);
        scanner.setScanAllFiles(false);
        scanner.setScanBootstrapClassPath(false);
        return scanner;
    }

    /**
     * Wharf's core handler doing what the servlets of {@code /plaintext} and {@code /json} do —
     * the plaintext from a shared read-only buffer, the JSON serialized for each request by
     * {@link ServletApp#json} — without the servlet layer: the baseline of what that layer costs.
     * NON_BLOCKING, it runs on the selector thread that parsed the request, as a core handler
     * would; the servlets run on virtual threads, and that hand-off is part of what is measured.
     * BLOCKING, it runs on a virtual thread as the servlets do, which tells the hand-off's share
     * from the servlet objects'.
     */
    static ServerProcess.Target wharfCore(InetSocketAddress address, InvocationType invocationType) throws Exception {
        ByteBuffer plaintext = ByteBuffer.wrap(ServletApp.PLAINTEXT).asReadOnlyBuffer();
        HttpField textType = MimeTypes.Type.TEXT_PLAIN.getContentTypeField();
        HttpField jsonType = MimeTypes.Type.APPLICATION_JSON.getContentTypeField();
        return BenchServers.wharf(address, Handler.of(invocationType, (request, response, callback) ->
            switch (request.getPathInContext()) {
                case "/plaintext" -> HelloServers.reply(response, callback, textType, plaintext.slice());
                case "/json" -> HelloServers.reply(response, callback, jsonType, ByteBuffer.wrap(ServletApp.json(ServletApp.MESSAGE)));
                default -> false;
            }));
    }
}
