package io.wharf.tests.architecture.layer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.IntSupplier;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.handler.context.ContextHandlerCollection;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.webapp.WebAppDeployer;
import io.wharf.webapp.WebAppSettings;

/**
 * A server on loopback, HTTP/1.1 only, started by its constructor, whose {@link WebAppDeployer}
 * deploys the applications of a webapps directory once. {@link
 * io.wharf.tests.architecture.ModulePathTest} runs it in a module layer of {@code io.wharf.webapp}
 * and what it requires; the applications' loaders have this class's loader as parent, so they see
 * the test's classes ({@link EnvLookupServlet}) and, through it, the layer. It talks to the test
 * through JDK types alone ({@link #getAsInt()} is the port, {@link #close()} stops the server).
 */
public final class WebAppServer implements IntSupplier, AutoCloseable {

    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory());

    /** Deploys the applications of {@code webapps}, with work directories under {@code work}. */
    public WebAppServer(Path webapps, Path work) throws Exception {
        connector.setHost("127.0.0.1");
        ContextHandlerCollection contexts = new ContextHandlerCollection();
        server.setHandler(contexts);
        WebAppDeployer deployer = new WebAppDeployer(contexts, WebAppSettings.defaults().withTempDirectory(work)
            .withParentClassLoader(WebAppServer.class.getClassLoader()));
        deployer.setWebappsDirectory(webapps);
        deployer.setScanInterval(Duration.ZERO);
        server.addBean(deployer);
        server.addConnector(connector);
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
