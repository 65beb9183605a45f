package io.wharf.tests.servlet;

import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

import io.wharf.examples.ClientCertificates;
import io.wharf.examples.DemoCertificate;

/**
 * The certificates of a differential over TLS, made in one directory with the JDK's keytool:
 * the server's ({@link DemoCertificate}: {@code localhost} and {@code 127.0.0.1}, self-signed)
 * and, when asked, a test authority with client certificates for {@link #USERS}
 * ({@link ClientCertificates}). Gives the peers their key and trust stores and the clients
 * their TLS contexts. Made once per test class, on the thread that starts the peers; the
 * clients' contexts are made on first use, under the instance's lock.
 */
final class Certificates {

    /** The users who get a client certificate (the CN of its subject). */
    static final List<String> USERS = List.of("ann", "bob", "mallory");

    private final Path directory;
    private final boolean clientCertificates;
    private final Map<String, SSLContext> clients = new HashMap<>();

    private Certificates(Path directory, boolean clientCertificates) {
        this.directory = directory;
        this.clientCertificates = clientCertificates;
    }

    /** Makes the server's certificate, and with {@code clientCertificates} the authority and the users', in {@code directory}. */
    static Certificates make(Path directory, boolean clientCertificates) throws Exception {
        DemoCertificate.in(directory.resolve("server"));
        if (clientCertificates) {
            ClientCertificates.make(directory, USERS);
        }
        return new Certificates(directory, clientCertificates);
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
        if (!clientCertificates) {
            throw new IllegalStateException("no client certificates were made");
        }
        return KeyStore.getInstance(directory.resolve("pki.p12").toFile(), ClientCertificates.PASSWORD.toCharArray());
    }
}
