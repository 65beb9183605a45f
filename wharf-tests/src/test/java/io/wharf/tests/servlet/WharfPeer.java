package io.wharf.tests.servlet;

import java.net.URI;
import java.nio.file.Path;

import jakarta.servlet.ServletContainerInitializer;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.ServerTlsContext;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

/**
 * Wharf's servlet container as a {@link ServletPeer}: a {@link Server} with one HTTP/1.1
 * connector on 127.0.0.1 (h2c besides HTTP/1.1 when the deployment asks; TLS with h2 by ALPN
 * and client certificates wanted or needed, as the deployment's {@link Tls} says) and one {@link ServletContextHandler}, its buffers from a
 * leak-tracking pool; error pages through {@link ServletContextHandler#addErrorPage}, users in a
 * {@link MemoryLoginService}, login and constraints through the context's security settings, the
 * base resource through {@link ServletContextHandler#setBaseResource} (which maps Wharf's
 * default servlet). Closing it stops the server and then fails if a buffer was not
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
    public URI start(String contextPath, ServletContainerInitializer initializer, Deployment deployment, Path baseResource)
            throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector connector = connector(deployment.tls(), deployment.h2c());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler(contextPath);
        context.addServletContainerInitializer(initializer);
        for (ErrorPage page : deployment.errorPages()) {
            if (page.isDefault()) {
                context.setDefaultErrorPage(page.location());
            } else if (page.type() != null) {
                context.addErrorPage(page.type(), page.location());
            } else {
                context.addErrorPage(page.status(), page.location());
            }
        }
        secure(context, deployment);
        if (baseResource != null) {
            context.setBaseResource(baseResource);
            context.setWelcomeFiles(deployment.welcomeFiles());
        }
        server.setHandler(context);
        server.start();
        return URI.create((deployment.tls() == null ? "http" : "https") + "://127.0.0.1:" + connector.getLocalPort());
    }

    /**
     * @return a connector for plain HTTP/1.1 (with h2c by prior knowledge or upgrade, if asked),
     *     or for TLS with HTTP/1.1 and, if asked, h2 (ALPN picks)
     */
    private ServerConnector connector(Tls tls, boolean h2c) {
        if (tls == null) {
            return h2c ? new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory())
                : new ServerConnector(server, new HttpConnectionFactory());
        }
        Certificates files = tls.certificates();
        ServerTlsContext context = new ServerTlsContext().keyStore(files.serverKeyStore(), files.serverKeyStorePassword());
        if (tls.asksForClientCertificates()) {
            context.trustStore(files.trustStore(), files.trustStorePassword()).clientAuth(
                tls.clientCertificates() == Tls.ClientCertificates.NEED ? ServerTlsContext.ClientAuth.NEED : ServerTlsContext.ClientAuth.WANT);
        }
        return tls.http2()
            ? new ServerConnector(server, new TlsConnectionFactory(context), new HttpConnectionFactory(), new Http2ConnectionFactory())
            : new ServerConnector(server, new TlsConnectionFactory(context), new HttpConnectionFactory());
    }

    private static void secure(ServletContextHandler context, Deployment deployment) {
        Login login = deployment.login();
        if (login != null) {
            MemoryLoginService users = new MemoryLoginService(login.realm());
            login.users().forEach(user -> users.addUser(user.name(), user.password(), user.roleArray()));
            context.setLoginService(users);
            context.setLoginConfig(switch (login.method()) {
                case "FORM" -> LoginConfig.form(login.loginPage(), login.errorPage());
                case "DIGEST" -> LoginConfig.digest(login.realm());
                case "CLIENT-CERT" -> LoginConfig.clientCert();
                default -> LoginConfig.basic(login.realm());
            });
        }
        for (Constraint constraint : deployment.constraints()) {
            context.addSecurityConstraint(new SecurityConstraint(constraint.urlPatterns(), constraint.methods(), constraint.omissions(),
                constraint.roles(), constraint.transport()));
        }
        context.setDenyUncoveredHttpMethods(deployment.denyUncoveredHttpMethods());
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.stop();
            leaks.verify(LeakTracking.DEFAULT_GRACE);
        }
    }
}
