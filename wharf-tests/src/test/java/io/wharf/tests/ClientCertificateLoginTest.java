package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

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
 * JDK's keytool, a TLS connector that trusts the authority and asks for a certificate, a servlet
 * context with {@link LoginConfig#clientCert()} and a {@link PasswordFileLoginService} that knows
 * the client's CN, and curl presenting the certificate with {@code --cert/--key}. The servlet
 * prints the principal, the auth type and the certificate's subject; a request without a
 * certificate, or with one of a user the file does not know, is refused with 403; a connector
 * that needs a certificate refuses the handshake without one.
 */
@Timeout(120)
class ClientCertificateLoginTest {

    private static final String PASSWORD = "client-cert-test";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    /** The certificates, made once for the class. */
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
            .trustStore(certificates.resolve("trust.p12"), PASSWORD)
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

    /**
     * Makes, with keytool, in one keystore ({@code pki.p12}): an authority, and for each of ann and
     * mallory a key pair whose certificate the authority signs for client authentication
     * ({@code -signer}, one run each); then, from it, a trust store of the authority's
     * certificate ({@code trust.p12}) and each user's certificate and private key in PEM
     * ({@code NAME.pem}, {@code NAME.key}) for curl. Once for the class: a keytool run costs a JVM start.
     */
    @BeforeAll
    static void makeCertificates() throws Exception {
        Path pki = certificates.resolve("pki.p12");
        keytool("-genkeypair", "-alias", "ca", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=Wharf Test CA",
            "-ext", "bc:c", "-validity", "2", "-keystore", pki.toString());
        for (String user : List.of("ann", "mallory")) {
            keytool("-genkeypair", "-alias", user, "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + user + ", O=Wharf tests",
                "-signer", "ca", "-ext", "eku=clientAuth", "-ext", "ku:c=digitalSignature", "-validity", "2", "-keystore", pki.toString());
        }
        KeyStore store = KeyStore.getInstance(pki.toFile(), PASSWORD.toCharArray());
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", store.getCertificate("ca"));
        try (var out = Files.newOutputStream(certificates.resolve("trust.p12"))) {
            trust.store(out, PASSWORD.toCharArray());
        }
        for (String user : List.of("ann", "mallory")) {
            Files.writeString(certificates.resolve(user + ".pem"), pem("CERTIFICATE", store.getCertificate(user).getEncoded()));
            Files.writeString(certificates.resolve(user + ".key"), pem("PRIVATE KEY", store.getKey(user, PASSWORD.toCharArray()).getEncoded()));
        }
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    private static void keytool(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-storetype", "PKCS12", "-storepass", PASSWORD));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "keytool did not finish: " + command);
        assertEquals(0, process.exitValue(), "keytool " + String.join(" ", arguments) + ": " + output);
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
        String expected = "principal=ann type=CLIENT_CERT admin=true subject=CN=ann,O=Wharf tests 200";
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
