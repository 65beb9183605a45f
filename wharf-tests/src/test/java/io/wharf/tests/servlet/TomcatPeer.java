package io.wharf.tests.servlet;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.logging.Level;
import java.util.logging.Logger;

import jakarta.servlet.ServletContainerInitializer;

import org.apache.catalina.Globals;
import org.apache.catalina.Valve;
import org.apache.catalina.authenticator.BasicAuthenticator;
import org.apache.catalina.authenticator.DigestAuthenticator;
import org.apache.catalina.authenticator.FormAuthenticator;
import org.apache.catalina.authenticator.SSLAuthenticator;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.core.StandardContext;
import org.apache.catalina.servlets.DefaultServlet;
import org.apache.catalina.session.StandardManager;
import org.apache.catalina.startup.Tomcat;
import org.apache.coyote.http11.Http11NioProtocol;
import org.apache.coyote.http2.Http2Protocol;
import org.apache.tomcat.util.descriptor.web.LoginConfig;
import org.apache.tomcat.util.descriptor.web.SecurityCollection;
import org.apache.tomcat.util.descriptor.web.SecurityConstraint;
import org.apache.tomcat.util.net.SSLHostConfig;
import org.apache.tomcat.util.net.SSLHostConfigCertificate;
import org.apache.tomcat.util.scan.StandardJarScanner;

/**
 * Embedded Apache Tomcat 11 as a {@link ServletPeer}: one NIO HTTP/1.1 connector on
 * 127.0.0.1 (with its {@link Http2Protocol} for h2c when the deployment asks; TLS with it
 * chosen by ALPN and client certificates wanted or needed, as the deployment's {@link Tls} says), one context added with
 * {@link Tomcat#addContext} (no web.xml, no default or JSP servlet, no annotation or JAR
 * scanning), no shutdown port. Everything Tomcat writes (its
 * work directory) stays under the base directory the test gives, a {@code @TempDir}; sessions
 * are not saved on stop. Error pages are the context's {@code ErrorPage}s, one with neither code
 * nor type being the default. A login configuration is the context's {@link LoginConfig} with
 * its authenticator valve (which {@code Tomcat.addContext} does not add), the users those of
 * the engine's default realm ({@link Tomcat#addUser}, {@link Tomcat#addRole}); constraints are
 * {@link SecurityConstraint}s. A base resource is the context's document base, served by
 * Tomcat's {@link DefaultServlet} named {@code default} at {@code /}, with the default MIME types.
 *
 * <p>tomcat-embed-core carries its own copy of the {@code jakarta.servlet} classes, and the
 * test class path also has the jakarta.servlet-api 6.1.0 jar (through wharf-servlet), first:
 * both are Servlet 6.1, and the API jar's classes win, so that {@code HttpServlet} (its
 * {@code doHead}, {@code doOptions}, {@code doTrace}) and {@code Cookie} are the same code on
 * all three containers. Classes only Tomcat's copy has (its {@code HttpServlet} helpers, cookie
 * name validators) still load from Tomcat's jar. In a real Tomcat its own copy would serve.
 *
 * <p>Tomcat logs through java.util.logging at INFO (a line per start and stop); it is turned
 * down to warnings for the test JVM.
 */
final class TomcatPeer implements ServletPeer {

    /** Held so that the level set on it is not lost when the logger is collected. */
    private static final Logger TOMCAT_LOG = Logger.getLogger("org.apache");

    private final Path baseDirectory;
    private Tomcat tomcat;

    /** @param baseDirectory an empty directory for Tomcat's files, deleted by the test */
    TomcatPeer(Path baseDirectory) {
        this.baseDirectory = baseDirectory;
    }

    @Override
    public String name() {
        return "Tomcat";
    }

    @Override
    public URI start(String contextPath, ServletContainerInitializer initializer, Deployment deployment, Path baseResource)
            throws Exception {
        TOMCAT_LOG.setLevel(Level.WARNING);
        Path documents = Files.createDirectories(baseDirectory.resolve("documents"));
        // Tomcat keeps its home and base in system properties and takes a home already set over its
        // base directory: set both to this peer's directory, so that no later Tomcat of the test JVM
        // works in the directory of an earlier one (deleted by then); close() clears them.
        System.setProperty(Globals.CATALINA_HOME_PROP, baseDirectory.toString());
        System.setProperty(Globals.CATALINA_BASE_PROP, baseDirectory.toString());
        tomcat = new Tomcat();
        tomcat.setBaseDir(baseDirectory.toString());
        tomcat.getServer().setPort(-1);
        Connector connector = new Connector(Http11NioProtocol.class.getName());
        connector.setPort(0);
        connector.setProperty("address", "127.0.0.1");
        if (deployment.tls() != null) {
            secure(connector, deployment.tls());
        } else if (deployment.h2c()) {
            // On a plain connector Tomcat's HTTP/2 takes both prior knowledge and Upgrade: h2c.
            connector.addUpgradeProtocol(new Http2Protocol());
        }
        tomcat.setConnector(connector);
        tomcat.getHost().setAutoDeploy(false);
        StandardContext context = (StandardContext) tomcat.addContext(contextPath,
            (baseResource == null ? documents : baseResource).toString());
        // Its checks for leaks at stop need --add-opens and only warn without them: the test's classes are not a webapp's.
        context.setClearReferencesThreadLocals(false);
        context.setClearReferencesRmiTargets(false);
        StandardJarScanner scanner = new StandardJarScanner();
        scanner.setScanClassPath(false);
        scanner.setScanManifest(false);
        scanner.setScanAllDirectories(false);
        scanner.setScanAllFiles(false);
        scanner.setScanBootstrapClassPath(false);
        context.setJarScanner(scanner);
        StandardManager sessions = new StandardManager();
        sessions.setPathname(null);
        context.setManager(sessions);
        context.addServletContainerInitializer(initializer, null);
        for (ErrorPage page : deployment.errorPages()) {
            org.apache.tomcat.util.descriptor.web.ErrorPage tomcatPage = new org.apache.tomcat.util.descriptor.web.ErrorPage();
            if (page.type() != null) {
                tomcatPage.setExceptionType(page.type().getName());
            } else if (!page.isDefault()) {
                tomcatPage.setErrorCode(page.status());
            }
            tomcatPage.setLocation(page.location());
            context.addErrorPage(tomcatPage);
        }
        secure(context, deployment);
        if (baseResource != null) {
            Tomcat.addServlet(context, "default", new DefaultServlet());
            context.addServletMappingDecoded("/", "default");
            deployment.welcomeFiles().forEach(context::addWelcomeFile);
            Tomcat.addDefaultMimeTypeMappings(context);
        }
        tomcat.start();
        return URI.create((deployment.tls() == null ? "http" : "https") + "://127.0.0.1:" + connector.getLocalPort());
    }

    /**
     * Makes {@code connector} speak TLS with the server's certificate, wanting ("optional") or
     * needing ("required") a client's, and h2 by ALPN when asked.
     */
    private static void secure(Connector connector, Tls tls) {
        Certificates files = tls.certificates();
        connector.setScheme("https");
        connector.setSecure(true);
        connector.setProperty("SSLEnabled", "true");
        SSLHostConfig host = new SSLHostConfig();
        SSLHostConfigCertificate certificate = new SSLHostConfigCertificate(host, SSLHostConfigCertificate.Type.UNDEFINED);
        certificate.setCertificateKeystoreFile(files.serverKeyStore().toString());
        certificate.setCertificateKeystorePassword(files.serverKeyStorePassword());
        certificate.setCertificateKeystoreType("PKCS12");
        host.addCertificate(certificate);
        if (tls.asksForClientCertificates()) {
            host.setTruststoreFile(files.trustStore().toString());
            host.setTruststorePassword(files.trustStorePassword());
            host.setTruststoreType("PKCS12");
            host.setCertificateVerification(tls.clientCertificates() == Tls.ClientCertificates.NEED ? "required" : "optional");
        }
        connector.addSslHostConfig(host);
        if (tls.http2()) {
            connector.addUpgradeProtocol(new Http2Protocol());
        }
    }

    private void secure(StandardContext context, Deployment deployment) {
        Login login = deployment.login();
        if (login != null) {
            context.setLoginConfig(new LoginConfig(login.method(), login.realm(), login.loginPage(), login.errorPage()));
            context.getPipeline().addValve(authenticator(login));
            for (Login.User user : login.users()) {
                // CLIENT-CERT: Tomcat names the user by the subject's whole name.
                String name = login.method().equals("CLIENT-CERT") ? "CN=" + user.name() : user.name();
                tomcat.addUser(name, user.password());
                user.roles().forEach(role -> tomcat.addRole(name, role));
            }
        }
        for (Constraint constraint : deployment.constraints()) {
            SecurityCollection collection = new SecurityCollection();
            constraint.urlPatterns().forEach(collection::addPatternDecoded);
            constraint.methods().forEach(collection::addMethod);
            constraint.omissions().forEach(collection::addOmittedMethod);
            SecurityConstraint tomcatConstraint = new SecurityConstraint();
            tomcatConstraint.addCollection(collection);
            if (constraint.roles() != null) {
                tomcatConstraint.setAuthConstraint(true);
                constraint.roles().forEach(tomcatConstraint::addAuthRole);
            }
            tomcatConstraint.setUserConstraint(constraint.transport().name());
            context.addConstraint(tomcatConstraint);
        }
        context.setDenyUncoveredHttpMethods(deployment.denyUncoveredHttpMethods());
    }

    private static Valve authenticator(Login login) {
        return switch (login.method()) {
            case "FORM" -> new FormAuthenticator();
            case "DIGEST" -> new DigestAuthenticator();
            case "CLIENT-CERT" -> new SSLAuthenticator();
            default -> new BasicAuthenticator();
        };
    }

    @Override
    public void close() throws Exception {
        if (tomcat != null) {
            try {
                tomcat.stop();
                tomcat.destroy();
            } finally {
                System.clearProperty(Globals.CATALINA_HOME_PROP);
                System.clearProperty(Globals.CATALINA_BASE_PROP);
            }
        }
    }
}
