package io.wharf.examples;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.server.tls.ServerTlsContext;

/**
 * The demo's HTTPS certificate: a self-signed RSA certificate for {@code localhost} and
 * {@code 127.0.0.1}, made with the running JDK's {@code keytool} at the first start and kept in
 * a local directory ({@code .wharf/demo-tls/} under the checkout, which git ignores) for the
 * next starts. Browsers and curl warn about it, as about any self-signed certificate: accept
 * it, or give curl {@code --cacert .wharf/demo-tls/demo.pem}.
 */
public final class DemoCertificate {

    /** The password of the demo's keystore ({@code demo.p12}). */
    public static final String PASSWORD = "wharf-demo";

    private DemoCertificate() {
    }

    /** @return the TLS context of the certificate in {@code directory}, made there first if missing */
    public static ServerTlsContext in(Path directory) throws IOException, InterruptedException {
        Path store = directory.resolve("demo.p12");
        if (!Files.exists(store)) {
            Files.createDirectories(directory);
            Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
            run(List.of(keytool.toString(), "-genkeypair", "-alias", "demo", "-keyalg", "RSA", "-keysize", "2048", "-validity", "825",
                    "-dname", "CN=localhost, O=Wharf demo", "-ext", "SAN=dns:localhost,ip:127.0.0.1",
                    "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD));
            run(List.of(keytool.toString(), "-exportcert", "-rfc", "-alias", "demo", "-keystore", store.toString(),
                    "-storepass", PASSWORD, "-file", directory.resolve("demo.pem").toString()));
        }
        return new ServerTlsContext().keyStore(store, PASSWORD);
    }

    /** Runs a command (keytool) to its end, at most a minute; also {@link ClientCertificates}'s. */
    static void run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            throw new IOException("making a certificate failed (" + String.join(" ", command.subList(0, Math.min(3, command.size())))
                + "): " + output.strip());
        }
    }
}
