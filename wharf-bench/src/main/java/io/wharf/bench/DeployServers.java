package io.wharf.bench;

import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntSupplier;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.webapp.WebAppDeployer;
import io.wharf.webapp.WebAppSettings;
import io.wharf.webapp.WebApplication;

import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * The servers of the {@code deploy} macro run, each started by {@link ServerProcess} in its own
 * JVM, each deploying the same {@code .war} at {@code /} its own default way, with annotation
 * scanning on, before its connector accepts: Wharf's {@link WebAppDeployer} (as
 * {@code ./wharf serve --webapp /=WAR} does), Jetty 12.1's ee11 {@code WebAppContext} with its
 * {@code AnnotationConfiguration}, and an embedded Tomcat 11's {@code Tomcat.addWebapp}.
 *
 * <p>Each extracts the WAR into a fresh directory of its own (Wharf: its work directory; Jetty:
 * the context's temporary directory; Tomcat: its host's {@code appBase}, unpacking being Tomcat's
 * default), deleted when the server stops. Each scans WEB-INF/classes and every WEB-INF/lib jar
 * for fragments, annotations and {@code @HandlesTypes}, runs every
 * {@code ServletContainerInitializer} it finds (here Spring's, which runs the application's
 * initializer) and starts the servlets loaded on startup. One departure from a default: Tomcat's
 * {@code StandardJarScanner} also scans the JVM's class path, which here is the bench's shaded
 * jar of every server and tool (in a Tomcat installation it is Tomcat's own jars, which its
 * filter skips); that part alone is turned off, so that Tomcat scans what the others scan.
 *
 * <p>Wharf's scans of WEB-INF/lib jars are cached by content: {@code cache} is the cache
 * directory to use, or null for a fresh one under the deployment's own temporary directory (a
 * first deployment: nothing cached). Every target reports how long its setup before
 * {@code start()} and its {@code start()} took; Wharf's adds the steps of
 * {@link WebApplication#preparationTimes()}.
 */
final class DeployServers {

    private DeployServers() {
    }

    /** @param cache the scan cache directory to share with other runs, or null for a fresh, empty one */
    static ServerProcess.Target wharf(InetSocketAddress address, Path war, Path cache) throws Exception {
        long begun = System.nanoTime();
        Path temp = Files.createTempDirectory("wharf-bench-deploy-wharf");
        WebAppSettings settings = WebAppSettings.defaults().withTempDirectory(temp);
        if (cache != null) {
            settings = settings.withScanCacheDirectory(Optional.of(cache));
        }
        Server server = new Server();
        ContextHandlerCollection contexts = new ContextHandlerCollection();
        server.setHandler(contexts);
        WebAppDeployer deployer = new WebAppDeployer(contexts, settings);
        deployer.addWebApp("/", war);
        AtomicReference<WebApplication> deployed = new AtomicReference<>();
        deployer.addListener(new WebAppDeployer.Listener() {
            @Override
            public void deployed(WebApplication application) {
                deployed.set(application);
            }

            @Override
            public void failed(String contextPath, Path source, Exception failure) {
                failure.printStackTrace();
            }
        });
        // Deployed before the connector accepts, as ./wharf serve does.
        server.addBean(deployer);
        ServerConnector connector = BenchServers.wharfConnector(server, address, new HttpConnectionFactory());
        long starting = System.nanoTime();
        server.start();
        long started = System.nanoTime();
        WebApplication application = deployed.get();
        if (application == null) {
            server.stop();
            StaticMacroBenchmark.deleteTree(temp);
            throw new IllegalStateException("Wharf did not deploy " + war + " (the failure is above)");
        }
        WebApplication.PreparationTimes times = application.preparationTimes();
        long prepared = times.extract().plus(times.read()).plus(times.configure()).toNanos();
        String phases = times(begun, starting, started) + String.format(Locale.ROOT, " extract_ms %.1f read_ms %.1f configure_ms %.1f context_start_ms %.1f",
            millis(times.extract().toNanos()), millis(times.read().toNanos()), millis(times.configure().toNanos()),
            millis(started - starting - prepared));
        return new Deployed(connector::getLocalPort, phases, stopThenDelete(server::stop, temp));
    }

    static ServerProcess.Target jetty(InetSocketAddress address, Path war) throws Exception {
        long begun = System.nanoTime();
        Path temp = Files.createTempDirectory("wharf-bench-deploy-jetty");
        org.eclipse.jetty.server.Server server = new org.eclipse.jetty.server.Server();
        org.eclipse.jetty.server.ServerConnector connector = BenchServers.jettyConnector(server, address,
            new org.eclipse.jetty.server.HttpConnectionFactory());
        var webapp = new org.eclipse.jetty.ee11.webapp.WebAppContext();
        webapp.setContextPath("/");
        webapp.setWar(war.toString());
        webapp.setTempDirectory(temp.toFile());
        // On by default when on the class path, as here; said again so that the run cannot silently lose it.
        webapp.addConfiguration(new org.eclipse.jetty.ee11.annotations.AnnotationConfiguration());
        webapp.setThrowUnavailableOnStartupException(true);
        server.setHandler(webapp);
        long starting = System.nanoTime();
        server.start();
        long started = System.nanoTime();
        return new Deployed(connector::getLocalPort, times(begun, starting, started), stopThenDelete(server::stop, temp));
    }

    static ServerProcess.Target tomcat(InetSocketAddress address, Path war) throws Exception {
        long begun = System.nanoTime();
        Path base = Files.createTempDirectory("wharf-bench-deploy-tomcat");
        Tomcat tomcat = ServletServers.embeddedTomcat(address, base);
        Connector connector = tomcat.getConnector();
        Files.createDirectories(base.resolve("webapps"));
        var context = tomcat.addWebapp("", war.toString());
        StandardJarScanner scanner = new StandardJarScanner();
        scanner.setScanClassPath(false);
        context.setJarScanner(scanner);
        long starting = System.nanoTime();
        tomcat.start();
        long started = System.nanoTime();
        if (!context.getState().isAvailable()) {
            tomcat.stop();
            tomcat.destroy();
            StaticMacroBenchmark.deleteTree(base);
            throw new IllegalStateException("Tomcat did not deploy " + war + ": its context is " + context.getState());
        }
        return new Deployed(connector::getLocalPort, times(begun, starting, started), stopThenDelete(() -> {
            tomcat.stop();
            tomcat.destroy();
        }, base));
    }

    /** @return what stops a server with {@code stop}, then deletes its {@code temp} directory even when stopping failed */
    private static AutoCloseable stopThenDelete(AutoCloseable stop, Path temp) {
        return () -> {
            try {
                stop.close();
            } finally {
                StaticMacroBenchmark.deleteTree(temp);
            }
        };
    }

    private static String times(long begun, long starting, long started) {
        return String.format(Locale.ROOT, "setup_ms %.1f start_ms %.1f", millis(starting - begun), millis(started - starting));
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }

    /** A deployed server: its port, what its {@code PHASES} answer says, and how it stops (its connections are not counted). */
    private record Deployed(IntSupplier boundPort, String phases, AutoCloseable stop) implements ServerProcess.Target {

        @Override
        public int port() {
            return boundPort.getAsInt();
        }

        @Override
        public int connections() {
            return -1;
        }

        @Override
        public void close() throws Exception {
            stop.close();
        }
    }
}
