package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.wharf.server.tls.ServerTlsContext;

/**
 * Test fixture: a self-signed EC certificate for {@code localhost} and {@code 127.0.0.1}, made by
 * the running JDK's keytool in the test's directory, as the server's TLS context and a client
 * context that trusts it.
 *
 * @param server the server's context, for a {@code TlsConnectionFactory}
 * @param client a client context that trusts only this certificate
 */
public record TestTls(ServerTlsContext server, SSLContext client) {

    private static final String PASSWORD = "wharf-websocket-test";

    /** Makes the certificate in {@code directory} (as {@code server.p12}) and both contexts. */
    public static TestTls in(Path directory) throws Exception {
        Path store = directory.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
            "-noprompt", "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "2", "-storetype", "PKCS12", "-keystore", store.toString(),
            "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(keytool.waitFor(60, TimeUnit.SECONDS) && keytool.exitValue() == 0, output);
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keys.load(in, PASSWORD.toCharArray());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(keys);
        SSLContext client = SSLContext.getInstance("TLS");
        client.init(null, trust.getTrustManagers(), null);
        return new TestTls(new ServerTlsContext().keyStore(store, PASSWORD), client);
    }
}
