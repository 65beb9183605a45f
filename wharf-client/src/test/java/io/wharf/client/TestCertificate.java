package io.wharf.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Test fixture: a self-signed certificate and its key, made with the JDK's keytool at test
 * time into {@code target/} (no key material in git), once per JVM for each set of names, and
 * what the tests build from it: a server TLS context, a client context trusting chosen
 * certificates, and PEM files for nginx. (wharf-io's own test certificates sit in a package of
 * the io module, which the client's tests cannot share.)
 */
final class TestCertificate {

    private static final char[] PASSWORD = "wharf-client-test".toCharArray();
    private static final Map<String, TestCertificate> MADE = new ConcurrentHashMap<>();

    private final KeyStore keyStore;

    private TestCertificate(KeyStore keyStore) {
        this.keyStore = keyStore;
    }

    /** @return the certificate of {@code localhost} and {@code 127.0.0.1} */
    static TestCertificate localhost() {
        return of("localhost", "SAN=dns:localhost,ip:127.0.0.1");
    }

    /** @return a certificate naming only {@code wrong.example}: valid, but not for localhost */
    static TestCertificate wrongName() {
        return of("wrong.example", "SAN=dns:wrong.example");
    }

    private static TestCertificate of(String name, String extension) {
        return MADE.computeIfAbsent(name + " " + extension, key -> new TestCertificate(generate(name, extension)));
    }

    /** @return a server context presenting this certificate */
    SSLContext serverContext() throws GeneralSecurityException {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore, PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    X509Certificate certificate() throws GeneralSecurityException {
        return (X509Certificate) keyStore.getCertificate("server");
    }

    /** @return a client context that trusts {@code certificates}, and nothing else */
    static SSLContext trusting(TestCertificate... certificates) throws GeneralSecurityException, IOException {
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        for (int i = 0; i < certificates.length; i++) {
            trusted.setCertificateEntry("trusted-" + i, certificates[i].certificate());
        }
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    /** Writes {@code name.crt} and {@code name.key} (PKCS#8) in PEM under {@code directory}, for nginx. */
    void writePem(Path directory, String name) throws GeneralSecurityException, IOException {
        Key key = keyStore.getKey("server", PASSWORD);
        Files.writeString(directory.resolve(name + ".crt"), pem("CERTIFICATE", certificate().getEncoded()));
        Files.writeString(directory.resolve(name + ".key"), pem("PRIVATE KEY", key.getEncoded()));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + type + "-----\n";
    }

    private static KeyStore generate(String name, String extension) {
        try {
            Path target = Path.of("target");
            Files.createDirectories(target);
            Path directory = Files.createTempDirectory(target.toAbsolutePath(), "client-certificates-");
            Path file = directory.resolve("server.p12");
            String password = new String(PASSWORD);
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            Process process = new ProcessBuilder(List.of(keytool.toString(), "-genkeypair", "-noprompt",
                    "-alias", "server", "-keyalg", "EC", "-groupname", "secp256r1", "-dname", "CN=" + name,
                    "-ext", extension, "-validity", "30", "-storetype", "PKCS12",
                    "-keystore", file.toString(), "-storepass", password, "-keypass", password))
                    .redirectErrorStream(true)
                    .start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException("keytool failed: " + output);
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            try (InputStream in = Files.newInputStream(file)) {
                store.load(in, PASSWORD);
            }
            Files.delete(file);
            Files.delete(directory);
            return store;
        } catch (IOException | GeneralSecurityException x) {
            throw new IllegalStateException("cannot make the test certificate of " + name, x);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted making the test certificate of " + name, x);
        }
    }
}
