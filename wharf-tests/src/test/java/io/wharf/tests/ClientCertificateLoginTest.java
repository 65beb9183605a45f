package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.examples.ClientCertificates;
import io.wharf.examples.DemoCertificate;
import io.wharf.login.PasswordFileLoginService;
import io.wharf.login.PasswordHash;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.tls.ServerTlsContext;
import io.wharf.server.tls.ServerTlsContext.ClientAuth;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * CLIENT-CERT login end to end: a certificate authority and client certificates made by the
 * JDK's keytool ({@link ClientCertificates}), a TLS connector that trusts the authority and asks
 * for a certificate, a servlet context with {@link LoginConfig#clientCert()} and a {@link PasswordFileLoginService} that knows
 * the client's CN, and curl presenting the certificate with {@code --cert/--key}. The servlet
 * prints the principal, the auth type and the certificate's subject; a request without a
 * certificate, or with one of a user the file does not know, is refused with 403; a connector
 * that needs a certificate refuses the handshake without one.
 */
@Timeout(120)
class ClientCertificateLoginTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    /** The authority, the users' certificates and the server's: made once for the class, as a keytool run costs a JVM start. */
    @TempDir
    static Path certificates;

    @TempDir
    Path directory;

    private Server server;
    private ServerConnector wanting;
    private ServerConnector needing;

    /** Prints who the request's user is and the subject of the certificate it came with. */
    static final class WhoAmI extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            X509Certificate[] chain = (X509Certificate[]) request.getAttribute("jakarta.servlet.request.X509Certificate");
            response.getWriter().print("principal=" + request.getUserPrincipal().getName() + " type=" + request.getAuthType()
                + " admin=" + request.isUserInRole("admin") + " subject=" + chain[0].getSubjectX500Principal().getName());
        }
    }

    @BeforeEach
    void start() throws Exception {
        Path users = Files.writeString(directory.resolve("users.txt"), "# CLIENT-CERT users: the password is never asked\n"
            + "ann:" + PasswordHash.hash("unused-" + System.nanoTime()) + ":admin\n");

        server = new Server(new QueuedThreadPool(), leaks.pool());
        wanting = connector(ClientAuth.WANT);
        needing = connector(ClientAuth.NEED);
        ServletContextHandler context = new ServletContextHandler("/app");
        context.setLoginConfig(LoginConfig.clientCert());
        context.setLoginService(new PasswordFileLoginService("Certificates", users));
        context.addServlet(new WhoAmI(), "/secure/*");
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/secure/*"), "admin"));
        server.setHandler(context);
        server.start();
    }

    private ServerConnector connector(ClientAuth clientAuth) throws Exception {
        ServerTlsContext tls = DemoCertificate.in(certificates.resolve("server"))
            .trustStore(certificates.resolve("trust.p12"), ClientCertificates.PASSWORD)
            .clientAuth(clientAuth);
        ServerConnector connector = new ServerConnector(server, new TlsConnectionFactory(tls), new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        return connector;
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @BeforeAll
    static void makeCertificates() throws Exception {
        ClientCertificates.make(certificates, List.of("ann", "mallory"));
    }

    private String curl(ServerConnector connector, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("--cacert", certificates.resolve("server/demo.pem").toString(), "-w", " %{http_code}"));
        command.addAll(List.of(arguments));
        command.add("https://localhost:" + connector.getLocalPort() + "/app/secure/who");
        return Curl.run(command.toArray(String[]::new));
    }

    private String[] withCertificate(String user) {
        return new String[] {"--cert", certificates.resolve(user + ".pem").toString(), "--key", certificates.resolve(user + ".key").toString()};
    }

    @Test
    void aKnownClientCertificateLogsInAndTheServletSeesIt() throws Exception {
        String expected = "principal=ann type=CLIENT_CERT admin=true subject=CN=ann 200";
        assertEquals(expected, curl(wanting, withCertificate("ann")));
        assertEquals(expected, curl(needing, withCertificate("ann")));
    }

    @Test
    void noCertificateOrAnUnknownUsersIsForbidden() throws Exception {
        assertTrue(curl(wanting).endsWith(" 403"), "a connector that only wants a certificate serves the request, and the context refuses it");
        assertTrue(curl(wanting, withCertificate("mallory")).endsWith(" 403"), "a trusted certificate of a user the file does not know");
    }

    @Test
    void aConnectorThatNeedsACertificateRefusesTheHandshakeWithoutOne() throws Exception {
        Path output = directory.resolve("refused.txt");
        Process curl = Curl.start(output, "--cacert", certificates.resolve("server/demo.pem").toString(),
            "https://localhost:" + needing.getLocalPort() + "/app/secure/who");
        assertTrue(curl.waitFor(60, TimeUnit.SECONDS));
        assertNotEquals(0, curl.exitValue(), "curl got an answer: " + Files.readString(output));
        assertEquals("", Files.readString(output));
    }
}
