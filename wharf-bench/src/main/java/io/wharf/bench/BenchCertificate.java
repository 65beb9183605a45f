package io.wharf.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.Key;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * The one certificate every server of the HTTP/2 and TLS macro runs presents: a self-signed
 * ECDSA certificate on the P-256 curve for {@code localhost} and {@code 127.0.0.1}, made by
 * the running JDK's {@code keytool} into a temporary directory, kept there as a PKCS12 keystore
 * (for Wharf and Jetty) and as PEM files, the certificate and its PKCS#8 key (for nginx). The
 * driver makes it ({@link #create()}) and deletes it ({@link #close()}); the server children
 * find it by the directory's name ({@link #in(Path)}). The load tools do not verify it; the
 * handshake driver trusts it ({@link #trustManagers()}).
 */
final class BenchCertificate implements AutoCloseable {

    static final String PASSWORD = "wharf-bench";
    private static final String ALIAS = "bench";

    private final Path directory;
    private final boolean owned;

    private BenchCertificate(Path directory, boolean owned) {
        this.directory = directory;
        this.owned = owned;
    }

    /** Makes a fresh certificate in a new temporary directory, deleted by {@link #close()}. */
    static BenchCertificate create() throws Exception {
        Path directory = Files.createTempDirectory("wharf-bench-tls");
        BenchCertificate certificate = new BenchCertificate(directory, true);
        try {
            certificate.make();
        } catch (Exception x) {
            certificate.close();
            throw x;
        }
        return certificate;
    }

    /** The certificate {@link #create()} made in {@code directory}, for a server child; closing it leaves the files. */
    static BenchCertificate in(Path directory) {
        BenchCertificate certificate = new BenchCertificate(directory, false);
        if (!Files.isRegularFile(certificate.keyStore())) {
            throw new IllegalArgumentException("no bench certificate in " + directory);
        }
        return certificate;
    }

    private void make() throws Exception {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = List.of(keytool.toString(), "-genkeypair", "-alias", ALIAS, "-keyalg", "EC", "-groupname", "secp256r1",
            "-sigalg", "SHA256withECDSA", "-validity", "30", "-dname", "CN=localhost, O=Wharf bench",
            "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", keyStore().toString(),
            "-storepass", PASSWORD, "-keypass", PASSWORD);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("keytool could not make the bench certificate: " + output.strip());
        }
        KeyStore store = load();
        Key key = store.getKey(ALIAS, PASSWORD.toCharArray());
        Files.writeString(certificatePem(), pem("CERTIFICATE", store.getCertificate(ALIAS).getEncoded()));
        // PKCS#8 is what Key.getEncoded() gives for a private key, and what nginx reads as "PRIVATE KEY".
        Files.writeString(keyPem(), pem("PRIVATE KEY", key.getEncoded()));
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n";
    }

    private KeyStore load() throws Exception {
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore())) {
            store.load(in, PASSWORD.toCharArray());
        }
        return store;
    }

    Path directory() {
        return directory;
    }

    Path keyStore() {
        return directory.resolve("bench.p12");
    }

    Path certificatePem() {
        return directory.resolve("bench.pem");
    }

    Path keyPem() {
        return directory.resolve("bench-key.pem");
    }

    /** @return the trust managers of a client that trusts this certificate only, to make many contexts from */
    TrustManagerFactory trustManagers() throws Exception {
        Certificate certificate = load().getCertificate(ALIAS);
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry(ALIAS, certificate);
        TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        return factory;
    }

    /** @return a new client context from {@code trust}: a fresh one has no session to resume */
    static SSLContext clientContext(TrustManagerFactory trust) throws Exception {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        return context;
    }

    @Override
    public void close() throws IOException {
        if (!owned) {
            return;
        }
        for (Path file : List.of(keyStore(), certificatePem(), keyPem())) {
            Files.deleteIfExists(file);
        }
        Files.deleteIfExists(directory);
    }
}
