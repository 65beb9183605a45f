package io.wharf.server.tls;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * Test fixture: self-signed RSA certificates made with the running JDK's {@code keytool}
 * (PKCS12, password {@value #PASSWORD}), their PEM forms (certificate, PKCS#8, PKCS#1 and
 * OpenSSL-encrypted PKCS#8 keys), and client-side contexts that trust them.
 */
final class TestKeys {

    static final String PASSWORD = "changeit";

    private TestKeys() {
    }

    /** Makes {@code dir/name.p12} holding one key for CN={@code host} with the DNS names {@code host} and {@code extraNames}. */
    static Path keyStore(Path dir, String name, String host, String... extraNames) throws IOException, InterruptedException {
        Path store = dir.resolve(name + ".p12");
        Files.deleteIfExists(store);
        StringBuilder san = new StringBuilder("SAN=dns:").append(host);
        for (String extra : extraNames) {
            san.append(",dns:").append(extra);
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", name, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=" + host, "-ext", san.toString(), "-storetype", "PKCS12", "-keystore", store.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD));
        Process keytool = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
        return store;
    }

    static KeyStore load(Path store) throws Exception {
        return KeyStore.getInstance(store.toFile(), PASSWORD.toCharArray());
    }

    /** @return the certificate of the store's only key */
    static Certificate certificate(Path store) throws Exception {
        KeyStore keys = load(store);
        return keys.getCertificate(keys.aliases().nextElement());
    }

    static PrivateKey privateKey(Path store) throws Exception {
        KeyStore keys = load(store);
        return (PrivateKey) keys.getKey(keys.aliases().nextElement(), PASSWORD.toCharArray());
    }

    static String pem(String label, byte[] der) {
        return "-----BEGIN " + label + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
                + "\n-----END " + label + "-----\n";
    }

    /** Writes the store's certificate as PEM to {@code file}. */
    static Path certificatePem(Path store, Path file) throws Exception {
        return Files.writeString(file, pem("CERTIFICATE", certificate(store).getEncoded()));
    }

    /** Writes the store's key as unencrypted PKCS#8 PEM. */
    static Path pkcs8Pem(Path store, Path file) throws Exception {
        return Files.writeString(file, pem("PRIVATE KEY", privateKey(store).getEncoded()));
    }

    /** Writes the store's RSA key as PKCS#1 PEM (the PKCS#8 structure's inner key). */
    static Path pkcs1Pem(Path store, Path file) throws Exception {
        byte[] pkcs8 = privateKey(store).getEncoded();
        // SEQUENCE { INTEGER 0, AlgorithmIdentifier (15 bytes), OCTET STRING { RSAPrivateKey } }
        int at = headerLength(pkcs8, 0) + 3 + 15;
        int inner = at + headerLength(pkcs8, at);
        return Files.writeString(file, pem("RSA PRIVATE KEY", Arrays.copyOfRange(pkcs8, inner, pkcs8.length)));
    }

    /** @return the length of the DER tag and length at {@code at} */
    private static int headerLength(byte[] der, int at) {
        int first = der[at + 1] & 0xFF;
        return first < 0x80 ? 2 : 2 + (first & 0x7F);
    }

    /**
     * Writes the store's key as encrypted PKCS#8 PEM the way OpenSSL does by default (PBES2:
     * PBKDF2 with HMAC-SHA256, AES-256-CBC), with {@code password}, using the {@code openssl}
     * command; {@code ./wharf test} installs it.
     */
    static Path encryptedPkcs8Pem(Path store, Path file, String password) throws Exception {
        Path plain = pkcs8Pem(store, file.resolveSibling(file.getFileName() + ".plain"));
        Process openssl = new ProcessBuilder("openssl", "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-v2prf", "hmacWithSHA256",
                "-in", plain.toString(), "-out", file.toString(), "-passout", "pass:" + password).redirectErrorStream(true).start();
        String output = new String(openssl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!openssl.waitFor(60, TimeUnit.SECONDS) || openssl.exitValue() != 0) {
            throw new IOException("openssl failed: " + output);
        }
        Files.delete(plain);
        return file;
    }

    /** @return a client context trusting the certificates of {@code trusted}, presenting {@code clientKeys}' key if not null */
    static SSLContext clientContext(Path clientKeys, Path... trusted) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (Path store : trusted) {
            trust.setCertificateEntry(store.getFileName().toString(), certificate(store));
        }
        TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trustManagers.init(trust);
        KeyManagerFactory keyManagers = null;
        if (clientKeys != null) {
            keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(load(clientKeys), PASSWORD.toCharArray());
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keyManagers == null ? null : keyManagers.getKeyManagers(), trustManagers.getTrustManagers(), null);
        return context;
    }

    /** Makes a PKCS12 trust store holding the certificates of {@code trusted}. */
    static Path trustStore(Path file, Path... trusted) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        for (Path store : trusted) {
            trust.setCertificateEntry(store.getFileName().toString(), certificate(store));
        }
        try (var out = Files.newOutputStream(file)) {
            trust.store(out, PASSWORD.toCharArray());
        }
        return file;
    }
}
