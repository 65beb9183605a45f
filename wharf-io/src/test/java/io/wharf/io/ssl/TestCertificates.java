package io.wharf.io.ssl;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Test helper shared with the modules above (through wharf-io's test-jar): a self-signed
 * certificate for {@code localhost} and {@code 127.0.0.1}, made once per JVM with the JDK's
 * keytool into {@code target/}, and the TLS contexts around it. No key material lives in git.
 */
public final class TestCertificates {

    private static final char[] PASSWORD = "wharf-test".toCharArray();
    private static KeyStore keyStore;

    private TestCertificates() {
    }

    /** @return a server context presenting the test certificate */
    public static SSLContext serverContext() {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(keyStore(), PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException x) {
            throw new IllegalStateException("Cannot make the test server context", x);
        }
    }

    /** @return a client context that trusts the test certificate, and only it */
    public static SSLContext clientContext() {
        try {
            KeyStore trusted = KeyStore.getInstance("PKCS12");
            trusted.load(null, null);
            trusted.setCertificateEntry("localhost", certificate());
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(trusted);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException | IOException x) {
            throw new IllegalStateException("Cannot make the test client context", x);
        }
    }

    /** @return a client context with the JDK's default trust, which does not trust the test certificate */
    public static SSLContext untrustingClientContext() {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init((KeyStore) null);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust.getTrustManagers(), null);
            return context;
        } catch (GeneralSecurityException x) {
            throw new IllegalStateException("Cannot make the untrusting client context", x);
        }
    }

    /** @return the test certificate */
    public static Certificate certificate() {
        try {
            return keyStore().getCertificate("localhost");
        } catch (GeneralSecurityException x) {
            throw new IllegalStateException(x);
        }
    }

    private static synchronized KeyStore keyStore() {
        if (keyStore == null) {
            try {
                Path file = generate();
                KeyStore store = KeyStore.getInstance("PKCS12");
                try (InputStream in = Files.newInputStream(file)) {
                    store.load(in, PASSWORD);
                }
                keyStore = store;
            } catch (IOException | GeneralSecurityException x) {
                throw new IllegalStateException("Cannot make the test key store", x);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while making the test key store", x);
            }
        }
        return keyStore;
    }

    private static Path generate() throws IOException, InterruptedException {
        Path target = Path.of("target");
        Files.createDirectories(target);
        Path directory = Files.createTempDirectory(target.toAbsolutePath(), "test-certificates-");
        Path file = directory.resolve("localhost.p12");
        String password = new String(PASSWORD);
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-noprompt",
            "-alias", "localhost", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=localhost",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-validity", "30", "-storetype", "PKCS12",
            "-keystore", file.toString(), "-storepass", password, "-keypass", password))
            .redirectErrorStream(true)
            .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        file.toFile().deleteOnExit();
        directory.toFile().deleteOnExit();
        return file;
    }
}
