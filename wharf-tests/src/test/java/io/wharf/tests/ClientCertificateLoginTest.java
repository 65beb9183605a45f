package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.examples.ClientCertificateExample;
import io.wharf.examples.ClientCertificates;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.tls.ServerTlsContext.ClientAuth;
import io.wharf.server.tls.TlsConnectionFactory;
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
 * CLIENT-CERT login end to end, on {@link ClientCertificateExample}'s pieces: a certificate
 * authority and client certificates made by the JDK's keytool ({@link ClientCertificates}), TLS
 * connectors that trust the authority and want or need a client certificate, a servlet context
 * with {@code LoginConfig.clientCert()} and a {@code PasswordFileLoginService} that knows ann's
 * CN, and curl presenting the certificate with {@code --cert/--key}. The servlet prints the
 * principal, the auth type and the certificate's subject; a request without a certificate, or
 * with mallory's, whom the file does not know, is refused with 403; the connector that needs a
 * certificate refuses the handshake without one.
 */
@Timeout(120)
class ClientCertificateLoginTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    /** The authority, the users' certificates, users.txt and the server's certificate: made once for the class, as a keytool run costs a JVM start. */
    @TempDir
    static Path certificates;

    @TempDir
    Path directory;

    private Server server;
    private ServerConnector wanting;
    private ServerConnector needing;

    @BeforeAll
    static void makeCertificates() throws Exception {
        ClientCertificateExample.prepare(certificates);
    }

    @BeforeEach
    void start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        wanting = connector(ClientAuth.WANT);
        needing = connector(ClientAuth.NEED);
        server.setHandler(ClientCertificateExample.context(certificates));
        server.start();
    }

    private ServerConnector connector(ClientAuth clientAuth) throws Exception {
        ServerConnector connector = new ServerConnector(server, new TlsConnectionFactory(ClientCertificateExample.tls(certificates, clientAuth)),
            new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        return connector;
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    private String curl(ServerConnector connector, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("--cacert", certificates.resolve("server/demo.pem").toString(), "-w", " %{http_code}"));
        command.addAll(List.of(arguments));
        command.add("https://localhost:" + connector.getLocalPort() + "/secure/who");
        return Curl.run(command.toArray(String[]::new));
    }

    private String[] withCertificate(String user) {
        return new String[] {"--cert", certificates.resolve(user + ".pem").toString(), "--key", certificates.resolve(user + ".key").toString()};
    }

    @Test
    void aKnownClientCertificateLogsInAndTheServletSeesIt() throws Exception {
        String expected = "user ann by CLIENT_CERT, certificate of CN=ann\n 200";
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
            "https://localhost:" + needing.getLocalPort() + "/secure/who");
        assertTrue(curl.waitFor(60, TimeUnit.SECONDS));
        assertNotEquals(0, curl.exitValue(), "curl got an answer: " + Files.readString(output));
        assertEquals("", Files.readString(output));
    }
}
