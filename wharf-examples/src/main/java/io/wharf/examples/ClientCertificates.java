package io.wharf.examples;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * A small certificate authority for trying CLIENT-CERT login (docs/login.md): made with the
 * running JDK's {@code keytool}, as the page shows by hand, into one directory:
 *
 * <ul>
 * <li>{@code pki.p12}: the authority's key ({@code CN=Wharf Example CA}) and each user's key with
 *     a certificate the authority signed for client authentication ({@code CN=USER});
 * <li>{@code trust.p12}: the authority's certificate alone, the server's trust store;
 * <li>{@code USER.pem} and {@code USER.key}: a user's certificate and private key in PEM, for
 *     {@code curl --cert USER.pem --key USER.key}.
 * </ul>
 *
 * Every store's password is {@link #PASSWORD}. For tries and tests only: the keys lie unencrypted
 * beside the stores. Called once, on the thread that sets up; it runs one keytool per key.
 */
public final class ClientCertificates {

    /** The password of {@code pki.p12} and {@code trust.p12}. */
    public static final String PASSWORD = "wharf-example";

    private ClientCertificates() {
    }

    /** Makes the authority and a certificate for each of {@code users} in {@code directory}. */
    public static void make(Path directory, List<String> users) throws IOException, InterruptedException, GeneralSecurityException {
        Files.createDirectories(directory);
        Path pki = directory.resolve("pki.p12");
        keytool(pki, "-genkeypair", "-alias", "ca", "-dname", "CN=Wharf Example CA", "-ext", "bc:c");
        for (String user : users) {
            keytool(pki, "-genkeypair", "-alias", user, "-dname", "CN=" + user, "-signer", "ca",
                "-ext", "eku=clientAuth", "-ext", "ku:c=digitalSignature");
        }
        KeyStore keys = KeyStore.getInstance(pki.toFile(), PASSWORD.toCharArray());
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("ca", keys.getCertificate("ca"));
        try (OutputStream out = Files.newOutputStream(directory.resolve("trust.p12"))) {
            trust.store(out, PASSWORD.toCharArray());
        }
        for (String user : users) {
            Files.writeString(directory.resolve(user + ".pem"), pem("CERTIFICATE", keys.getCertificate(user).getEncoded()));
            Files.writeString(directory.resolve(user + ".key"), pem("PRIVATE KEY", keys.getKey(user, PASSWORD.toCharArray()).getEncoded()));
        }
    }

    private static void keytool(Path store, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "keytool").toString()));
        command.addAll(List.of(arguments));
        command.addAll(List.of("-keyalg", "EC", "-groupname", "secp256r1", "-validity", "30",
            "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD));
        DemoCertificate.run(command);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
            + "\n-----END " + type + "-----\n";
    }
}
