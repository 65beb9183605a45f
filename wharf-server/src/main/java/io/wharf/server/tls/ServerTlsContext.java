package io.wharf.server.tls;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import javax.net.ssl.KeyManager;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedKeyManager;

import io.wharf.io.ssl.SslConnectionFactory;

/**
 * A server's TLS configuration: its certificates (from PKCS12 or JKS keystores and PEM files;
 * several of them chosen per connection by the host name the client sends with SNI), the
 * protocols and cipher suites it allows, client-certificate authentication as an option, and
 * reloading the files without a restart. A {@link TlsConnectionFactory} takes it:
 *
 * <pre>{@code
 * ServerTlsContext tls = new ServerTlsContext()
 *         .keyStore(Path.of("site.p12"), "secret")                 // every key entry in it
 *         .pem(Path.of("api-chain.pem"), Path.of("api-key.pem"));   // one more, by SNI
 * ServerConnector https = new ServerConnector(server, new TlsConnectionFactory(tls), new HttpConnectionFactory());
 * }</pre>
 *
 * <p>Defaults: TLS 1.3 and 1.2 only; TLS 1.3's suites and, for TLS 1.2, only ECDHE key
 * exchange with AEAD ciphers (AES-GCM, ChaCha20-Poly1305); no client certificate asked for.
 * The first certificate added is the default, used when the client sends no SNI name or one
 * that no certificate names.
 *
 * <p>Threads: configure, then any thread may read the context; {@link #reload()} re-reads every
 * file and swaps the context atomically — connections made afterwards use the new one,
 * connections already open keep theirs; when a file cannot be read, the old context stays and
 * the failure names the file.
 */
public final class ServerTlsContext {

    /** Whether clients are asked for a certificate. */
    public enum ClientAuth {
        /** Not asked for. */
        NONE,
        /** Asked for; a client without one is still served. */
        WANT,
        /** Required: a handshake without a trusted client certificate fails. */
        NEED
    }

    private static final List<String> ALLOWED_PROTOCOLS = List.of("TLSv1.3", "TLSv1.2");
    /** The password of the in-memory keystore that gathers every certificate. */
    private static final char[] INTERNAL = "wharf".toCharArray();

    /** Where each certificate comes from, in the order given. */
    private sealed interface KeySource {
        /** Adds its keys to {@code into}, each under a new alias that it also adds to {@code aliases}. */
        void load(KeyStore into, List<String> aliases) throws IOException, GeneralSecurityException;

        List<Path> files();
    }

    private record StoreSource(Path file, char[] password, char[] keyPassword) implements KeySource {
        @Override
        public void load(KeyStore into, List<String> aliases) throws IOException, GeneralSecurityException {
            KeyStore store;
            try {
                store = KeyStore.getInstance(file.toFile(), password);
            } catch (IOException x) {
                throw new IOException(file + " could not be read as a PKCS12 or JKS keystore (" + x.getMessage() + ")", x);
            }
            boolean any = false;
            for (String alias : Collections.list(store.aliases())) {
                if (store.isKeyEntry(alias)) {
                    PrivateKey key = (PrivateKey) store.getKey(alias, keyPassword != null ? keyPassword : password);
                    add(into, aliases, key, store.getCertificateChain(alias));
                    any = true;
                }
            }
            if (!any) {
                throw new IOException(file + " holds no private key entry");
            }
        }

        @Override
        public List<Path> files() {
            return List.of(file);
        }
    }

    private record PemSource(Path chain, Path key, char[] keyPassword) implements KeySource {
        @Override
        public void load(KeyStore into, List<String> aliases) throws IOException, GeneralSecurityException {
            add(into, aliases, PemFiles.privateKey(key, keyPassword), PemFiles.certificates(chain));
        }

        @Override
        public List<Path> files() {
            return List.of(chain, key);
        }
    }

    private final List<KeySource> keySources = new ArrayList<>();
    private Path trustStore;
    private char[] trustStorePassword;
    private ClientAuth clientAuth = ClientAuth.NONE;
    private List<String> protocols = ALLOWED_PROTOCOLS;
    private volatile SSLContext context;
    private volatile Map<Path, FileTime> loadedFiles = Map.of();

    private static void add(KeyStore into, List<String> aliases, PrivateKey key, Certificate[] chain) throws GeneralSecurityException {
        String alias = "certificate-" + aliases.size();
        into.setKeyEntry(alias, key, INTERNAL, chain);
        aliases.add(alias);
    }

    /** Adds every private key entry of a PKCS12 or JKS keystore (its type is detected), with the store's password. */
    public synchronized ServerTlsContext keyStore(Path file, String password) {
        return keyStore(file, password, null);
    }

    /** Adds every private key entry of a keystore whose keys have their own password. */
    public synchronized ServerTlsContext keyStore(Path file, String password, String keyPassword) {
        keySources.add(new StoreSource(Objects.requireNonNull(file, "file"), chars(password), chars(keyPassword)));
        return this;
    }

    /** Adds a certificate chain (PEM, leaf first) and its private key (PEM: PKCS#8 or PKCS#1 RSA). */
    public synchronized ServerTlsContext pem(Path certificateChain, Path privateKey) {
        return pem(certificateChain, privateKey, null);
    }

    /** Adds a certificate chain and its encrypted PKCS#8 private key. */
    public synchronized ServerTlsContext pem(Path certificateChain, Path privateKey, String keyPassword) {
        keySources.add(new PemSource(Objects.requireNonNull(certificateChain, "certificateChain"),
                Objects.requireNonNull(privateKey, "privateKey"), chars(keyPassword)));
        return this;
    }

    /** Trusts the certificates of this keystore (instead of the JDK's) for client certificates. */
    public synchronized ServerTlsContext trustStore(Path file, String password) {
        this.trustStore = Objects.requireNonNull(file, "file");
        this.trustStorePassword = chars(password);
        return this;
    }

    public synchronized ServerTlsContext clientAuth(ClientAuth clientAuth) {
        this.clientAuth = Objects.requireNonNull(clientAuth, "clientAuth");
        return this;
    }

    /**
     * @param names TLS protocol versions, from {@code TLSv1.3} and {@code TLSv1.2}
     * @throws IllegalArgumentException for an older or unknown version
     */
    public synchronized ServerTlsContext protocols(String... names) {
        for (String name : names) {
            if (!ALLOWED_PROTOCOLS.contains(name)) {
                throw new IllegalArgumentException("TLS protocol " + name + " is not allowed; only " + ALLOWED_PROTOCOLS);
            }
        }
        if (names.length == 0) {
            throw new IllegalArgumentException("at least one TLS protocol is needed");
        }
        this.protocols = List.of(names);
        return this;
    }

    public ClientAuth getClientAuth() {
        return clientAuth;
    }

    public List<String> getProtocols() {
        return protocols;
    }

    private static char[] chars(String password) {
        return password == null ? null : password.toCharArray();
    }

    /**
     * @return the context, built from the files at first use
     * @throws IllegalStateException naming the file when it cannot be built
     */
    public SSLContext getSslContext() {
        SSLContext built = context;
        if (built == null) {
            synchronized (this) {
                built = context;
                if (built == null) {
                    try {
                        reload();
                    } catch (IOException | GeneralSecurityException x) {
                        throw new IllegalStateException("TLS context could not be built: " + x.getMessage(), x);
                    }
                    built = context;
                }
            }
        }
        return built;
    }

    /**
     * Reads every file again and makes a new context for the connections made from now on.
     *
     * @throws IOException naming a file that cannot be read; the previous context stays
     */
    public synchronized void reload() throws IOException, GeneralSecurityException {
        if (keySources.isEmpty()) {
            throw new IllegalStateException("no certificate: add one with keyStore(...) or pem(...)");
        }
        Map<Path, FileTime> files = new LinkedHashMap<>();
        KeyStore keys = KeyStore.getInstance("PKCS12");
        keys.load(null, null);
        List<String> aliases = new ArrayList<>();
        for (KeySource source : keySources) {
            for (Path file : source.files()) {
                files.put(file, Files.getLastModifiedTime(file));
            }
            source.load(keys, aliases);
        }
        // SunX509 keeps the aliases as given (PKIX prefixes them), so the SNI key manager can ask by alias.
        KeyManagerFactory keyManagers = KeyManagerFactory.getInstance("SunX509");
        keyManagers.init(keys, INTERNAL);
        X509ExtendedKeyManager x509 = null;
        for (KeyManager manager : keyManagers.getKeyManagers()) {
            if (manager instanceof X509ExtendedKeyManager extended) {
                x509 = extended;
            }
        }
        TrustManager[] trust = null;
        if (trustStore != null) {
            files.put(trustStore, Files.getLastModifiedTime(trustStore));
            TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(KeyStore.getInstance(trustStore.toFile(), trustStorePassword));
            trust = trustManagers.getTrustManagers();
        }
        SSLContext made = SSLContext.getInstance("TLS");
        made.init(new KeyManager[] {new SniKeyManager(Objects.requireNonNull(x509, "no X.509 key manager"), aliases)}, trust, null);
        context = made;
        loadedFiles = Map.copyOf(files);
    }

    /**
     * Reloads when a file changed since the last load (its modification time): for a timer
     * that picks up renewed certificates.
     *
     * @return whether it reloaded
     */
    public boolean reloadIfChanged() throws IOException, GeneralSecurityException {
        for (Map.Entry<Path, FileTime> file : loadedFiles.entrySet()) {
            if (!Files.getLastModifiedTime(file.getKey()).equals(file.getValue())) {
                reload();
                return true;
            }
        }
        return false;
    }

    /**
     * @return a factory of TLS connections with the current context, these settings and the
     *     ALPN protocols {@code applicationProtocols} (most preferred first)
     */
    SslConnectionFactory newConnectionFactory(SSLContext with, List<String> applicationProtocols) {
        SslConnectionFactory factory = SslConnectionFactory.forServer(with);
        factory.setApplicationProtocols(applicationProtocols);
        List<String> suites = modernSuites(with.getDefaultSSLParameters().getCipherSuites());
        List<String> allowed = protocols;
        ClientAuth auth = clientAuth;
        factory.setParametersCustomizer(parameters -> customize(parameters, allowed, suites, auth));
        return factory;
    }

    private static void customize(SSLParameters parameters, List<String> protocols, List<String> suites, ClientAuth auth) {
        parameters.setProtocols(protocols.toArray(String[]::new));
        parameters.setCipherSuites(suites.toArray(String[]::new));
        parameters.setUseCipherSuitesOrder(true);
        switch (auth) {
            case NEED -> parameters.setNeedClientAuth(true);
            case WANT -> parameters.setWantClientAuth(true);
            case NONE -> {
            }
        }
    }

    /** @return TLS 1.3's suites and TLS 1.2's ECDHE suites with AEAD ciphers, in the JDK's order */
    static List<String> modernSuites(String[] enabled) {
        List<String> modern = new ArrayList<>();
        for (String suite : enabled) {
            boolean tls13 = suite.startsWith("TLS_AES_") || suite.startsWith("TLS_CHACHA20_");
            boolean aead12 = suite.startsWith("TLS_ECDHE_") && (suite.contains("_GCM_") || suite.contains("CHACHA20_POLY1305"));
            if (tls13 || aead12) {
                modern.add(suite);
            }
        }
        return modern;
    }

    @Override
    public synchronized String toString() {
        return "ServerTlsContext{" + keySources.size() + " key sources, " + protocols + ", clientAuth=" + clientAuth + "}";
    }
}
