package io.wharf.tests.servlet;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.wharf.examples.ClientCertificates;
import io.wharf.examples.DemoCertificate;

/**
 * The certificates of the differentials over TLS, made once per test JVM in one directory
 * with the JDK's keytool:
 * the server's ({@link DemoCertificate}: {@code localhost} and {@code 127.0.0.1}, self-signed)
 * and, when asked, a test authority with client certificates for {@link #USERS}
 * ({@link ClientCertificates}). Gives the peers their key and trust stores and the clients
 * their TLS contexts. Made on the thread that starts the peers, under the class's lock; the
 * clients' contexts are made on first use, under the instance's lock.
 */
final class Certificates {

    /** The users who get a client certificate (the CN of its subject). */
    static final List<String> USERS = List.of("ann", "bob", "mallory");

    private static Certificates shared;

    private final Path directory;
    private final Map<String, SSLContext> clients = new HashMap<>();

    private Certificates(Path directory) {
        this.directory = directory;
    }

    /**
     * @return the certificates of this JVM's tests: made at the first call, in a temporary
     *     directory deleted when the JVM exits (a keytool run costs a JVM start, seconds on a busy
     *     machine); the authority and the users' certificates are made at the first call that
     *     asks for {@code clientCertificates}
     */
    static synchronized Certificates shared(boolean clientCertificates) throws Exception {
        if (shared == null) {
            Path directory = Files.createTempDirectory("wharf-servlet-certificates");
            Runtime.getRuntime().addShutdownHook(new Thread(() -> delete(directory)));
            DemoCertificate.in(directory.resolve("server"));
            shared = new Certificates(directory);
        }
        if (clientCertificates && !Files.exists(shared.trustStore())) {
            ClientCertificates.make(shared.directory, USERS);
        }
        return shared;
    }

    private static void delete(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the PKCS12 store of the server's key and certificate */
    Path serverKeyStore() {
        return directory.resolve("server/demo.p12");
    }

    String serverKeyStorePassword() {
        return DemoCertificate.PASSWORD;
    }

    /** @return the PKCS12 store of the test authority's certificate, which the server trusts for clients */
    Path trustStore() {
        return directory.resolve("trust.p12");
    }

    String trustStorePassword() {
        return ClientCertificates.PASSWORD;
    }

    /** @return {@code user}'s client certificate */
    X509Certificate certificate(String user) throws Exception {
        return (X509Certificate) users().getCertificate(user);
    }

    /**
     * @return a client's TLS context that trusts the server's certificate and presents
     *     {@code user}'s certificate, or none when {@code user} is null; one per user, kept, so
     *     that its TLS sessions are resumed
     */
    synchronized SSLContext client(String user) throws Exception {
        SSLContext context = clients.get(String.valueOf(user));
        if (context == null) {
            context = newClient(user);
            clients.put(String.valueOf(user), context);
        }
        return context;
    }

    private SSLContext newClient(String user) throws Exception {
        KeyStore server = KeyStore.getInstance(serverKeyStore().toFile(), serverKeyStorePassword().toCharArray());
        KeyStore trusted = KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        trusted.setCertificateEntry("server", server.getCertificate("demo"));
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(trusted);
        KeyManagerFactory keys = null;
        if (user != null) {
            KeyStore all = users();
            KeyStore one = KeyStore.getInstance("PKCS12");
            one.load(null, null);
            char[] password = ClientCertificates.PASSWORD.toCharArray();
            Certificate[] chain = all.getCertificateChain(user);
            one.setKeyEntry(user, all.getKey(user, password), password, chain);
            keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(one, password);
        }
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys == null ? null : keys.getKeyManagers(), trust.getTrustManagers(), null);
        return context;
    }

    private KeyStore users() throws Exception {
        if (!Files.exists(trustStore())) {
            throw new IllegalStateException("no client certificates were made");
        }
        return KeyStore.getInstance(directory.resolve("pki.p12").toFile(), ClientCertificates.PASSWORD.toCharArray());
    }
}
