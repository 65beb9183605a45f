package io.wharf.tests.servlet;

import java.net.URI;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.ee11.servlet.DefaultServlet;
import org.eclipse.jetty.ee11.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.ee11.servlet.ServletHolder;
import org.eclipse.jetty.ee11.servlet.security.ConstraintMapping;
import org.eclipse.jetty.ee11.servlet.security.ConstraintSecurityHandler;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.security.Authenticator;
import org.eclipse.jetty.security.Constraint.Authorization;
import org.eclipse.jetty.security.Constraint.Transport;
import org.eclipse.jetty.security.HashLoginService;
import org.eclipse.jetty.security.UserStore;
import org.eclipse.jetty.security.authentication.BasicAuthenticator;
import org.eclipse.jetty.security.authentication.DigestAuthenticator;
import org.eclipse.jetty.security.authentication.FormAuthenticator;
import org.eclipse.jetty.security.authentication.SslClientCertAuthenticator;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.security.Credential;
import org.eclipse.jetty.util.ssl.SslContextFactory;

/**
 * Eclipse Jetty 12.1 (its ee11 servlet container) as a {@link ServletPeer}: a server with
 * one HTTP/1.1 connector on 127.0.0.1 (with h2c when the deployment asks; TLS with h2 by ALPN
 * and client certificates wanted or needed, as the deployment's {@link Tls} says) and one {@link ServletContextHandler} with sessions,
 * nothing written to disk; error pages through an {@link ErrorPageErrorHandler}. A secured
 * deployment gets a {@link ConstraintSecurityHandler} with a {@link HashLoginService} over a
 * {@link UserStore}, and a {@link BasicAuthenticator}, {@link DigestAuthenticator}, {@link FormAuthenticator} or
 * {@link SslClientCertAuthenticator} as a
 * {@code web.xml} would configure it (the login page by redirect, Jetty's default); a base
 * resource is served by Jetty's {@link DefaultServlet} named {@code default} at {@code /}, with
 * {@code WEB-INF} and {@code META-INF} protected as a web application's are.
 */
final class JettyPeer implements ServletPeer {

    private Server server;
    /** The TLS connector's context, which the CLIENT-CERT authenticator validates certificates with; null without TLS. */
    private SslContextFactory.Server ssl;

    @Override
    public String name() {
        return "Jetty";
    }

    @Override
    public URI start(String contextPath, ServletContainerInitializer initializer, Deployment deployment, Path baseResource)
            throws Exception {
        server = new Server();
        ServerConnector connector = deployment.tls() != null ? tlsConnector(deployment.tls())
            : deployment.h2c() ? cleartextConnector() : new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        // With sessions, as Tomcat and Wharf have them without asking.
        ServletContextHandler context = new ServletContextHandler(contextPath, ServletContextHandler.SESSIONS);
        context.addServletContainerInitializer(initializer);
        if (!deployment.errorPages().isEmpty()) {
            ErrorPageErrorHandler pages = new ErrorPageErrorHandler();
            for (ErrorPage page : deployment.errorPages()) {
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
        if (deployment.isSecured()) {
            context.setSecurityHandler(security(deployment));
        }
        if (baseResource != null) {
            context.setBaseResourceAsPath(baseResource);
            // As a WebAppContext does: a plain ServletContextHandler protects nothing.
            context.setProtectedTargets(new String[] {"/WEB-INF", "/META-INF"});
            context.setWelcomeFiles(deployment.welcomeFiles().toArray(String[]::new));
            context.addServlet(new ServletHolder("default", DefaultServlet.class), "/");
        }
        server.setHandler(context);
        server.start();
        return URI.create((deployment.tls() == null ? "http" : "https") + "://127.0.0.1:" + connector.getLocalPort());
    }

    /**
     * @return a TLS connector as Jetty's documentation builds one: the request customizer that
     *     makes requests secure and carries the certificates (no SNI check: the client connects to
     *     127.0.0.1), HTTP/1.1, and with h2 ALPN choosing between them
     */
    private ServerConnector tlsConnector(Tls tls) {
        Certificates files = tls.certificates();
        ssl = new SslContextFactory.Server();
        ssl.setKeyStorePath(files.serverKeyStore().toString());
        ssl.setKeyStorePassword(files.serverKeyStorePassword());
        ssl.setKeyStoreType("PKCS12");
        if (tls.asksForClientCertificates()) {
            ssl.setTrustStorePath(files.trustStore().toString());
            ssl.setTrustStorePassword(files.trustStorePassword());
            ssl.setTrustStoreType("PKCS12");
            ssl.setWantClientAuth(tls.clientCertificates() == Tls.ClientCertificates.WANT);
            ssl.setNeedClientAuth(tls.clientCertificates() == Tls.ClientCertificates.NEED);
        }
        HttpConfiguration configuration = new HttpConfiguration();
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(false);
        configuration.addCustomizer(secure);
        HttpConnectionFactory http1 = new HttpConnectionFactory(configuration);
        if (!tls.http2()) {
            return new ServerConnector(server, new SslConnectionFactory(ssl, http1.getProtocol()), http1);
        }
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
        alpn.setDefaultProtocol(http1.getProtocol());
        return new ServerConnector(server, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
            new HTTP2ServerConnectionFactory(configuration), http1);
    }

    /**
     * @return a plain connector as Jetty's documentation builds one for h2c: HTTP/1.1, which
     *     hands prior knowledge and {@code Upgrade: h2c} to HTTP/2
     */
    private ServerConnector cleartextConnector() {
        HttpConfiguration configuration = new HttpConfiguration();
        return new ServerConnector(server, new HttpConnectionFactory(configuration), new HTTP2CServerConnectionFactory(configuration));
    }

    private ConstraintSecurityHandler security(Deployment deployment) {
        ConstraintSecurityHandler security = new ConstraintSecurityHandler();
        Login login = deployment.login();
        if (login != null) {
            UserStore store = new UserStore();
            // CLIENT-CERT: Jetty names the user by the subject's whole name and logs in with an empty password.
            login.users().forEach(user -> store.addUser(login.method().equals("CLIENT-CERT") ? "CN=" + user.name() : user.name(),
                Credential.getCredential(login.method().equals("CLIENT-CERT") ? "" : user.password()), user.roleArray()));
            HashLoginService users = new HashLoginService(login.realm());
            users.setUserStore(store);
            security.setLoginService(users);
            security.setRealmName(login.realm());
            security.setAuthenticator(authenticator(login));
        }
        for (Constraint constraint : deployment.constraints()) {
            org.eclipse.jetty.security.Constraint rule = constraint(constraint);
            for (String pattern : constraint.urlPatterns()) {
                List<String> methods = constraint.methods().isEmpty() ? Collections.singletonList(null)
                    : List.copyOf(constraint.methods());
                for (String method : methods) {
                    ConstraintMapping mapping = new ConstraintMapping();
                    mapping.setPathSpec(pattern);
                    mapping.setConstraint(rule);
                    mapping.setMethod(method);
                    if (!constraint.omissions().isEmpty()) {
                        mapping.setMethodOmissions(constraint.omissions().toArray(String[]::new));
                    }
                    security.addConstraintMapping(mapping);
                }
            }
        }
        security.setDenyUncoveredHttpMethods(deployment.denyUncoveredHttpMethods());
        return security;
    }

    private Authenticator authenticator(Login login) {
        return switch (login.method()) {
            case "FORM" -> new FormAuthenticator(login.loginPage(), login.errorPage(), false);
            case "DIGEST" -> new DigestAuthenticator();
            case "CLIENT-CERT" -> {
                // The handshake checked the chain against the trust store already; Jetty's second check
                // (validateCerts) fails without a CRL configuration and would answer 500.
                SslClientCertAuthenticator certificates = new SslClientCertAuthenticator(ssl);
                certificates.setValidateCerts(false);
                yield certificates;
            }
            default -> new BasicAuthenticator();
        };
    }

    /**
     * @return Jetty's constraint for {@code constraint} with the meaning section 13.8 gives a
     *     {@code <security-constraint>}: no auth constraint allows all, an empty one forbids,
     *     {@code **} is any authenticated user (Jetty's {@code createConstraint}, which serves
     *     {@code @ServletSecurity}, would make it a role named {@code **})
     */
    private static org.eclipse.jetty.security.Constraint constraint(Constraint constraint) {
        Authorization authorization = constraint.roles() == null ? Authorization.ALLOWED
            : constraint.roles().isEmpty() ? Authorization.FORBIDDEN
            : constraint.roles().contains("**") ? Authorization.ANY_USER
            : Authorization.SPECIFIC_ROLE;
        Transport transport = constraint.transport() == TransportGuarantee.CONFIDENTIAL ? Transport.SECURE : Transport.ANY;
        return org.eclipse.jetty.security.Constraint.from(transport, authorization,
            authorization == Authorization.SPECIFIC_ROLE ? constraint.roles() : Set.of());
    }

    @Override
    public void close() throws Exception {
        if (server != null) {
            server.stop();
        }
    }
}
