package io.wharf.io.ssl;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.buffer.ByteBufferPool;

/**
 * Makes configured {@link SSLEngine}s and the {@link SslConnection}s around them, for one role:
 * a server's ({@link #forServer}) or a client's ({@link #forClient}).
 *
 * <p>A server opener makes one TLS connection per accepted endpoint:
 * <pre>{@code
 * SslConnectionFactory tls = SslConnectionFactory.forServer(sslContext);
 * tls.setApplicationProtocols(List.of("h2", "http/1.1"));
 * Connection newConnection(EndPoint network, Object attachment) {
 *     return tls.newConnection(network, executor, pool, decrypted -> new HttpConnection(decrypted, ...));
 * }
 * }</pre>
 *
 * <p>Every engine has TLS 1.2 and later only (SSLv3, TLS 1.0 and 1.1 are disabled even where
 * the JDK enables them). A client engine also gets the peer's host name for SNI (not for IP
 * literals) and host name verification (on unless {@link #setEndpointIdentificationAlgorithm}
 * is given null). ALPN: a client offers {@link #setApplicationProtocols}; a server picks with
 * {@link #setProtocolSelector}, by default the first of its own protocols that the client offers.
 *
 * <p>Configure before use; then any thread may make engines and connections.
 */
public final class SslConnectionFactory {

    /** The endpoint identification algorithm of HTTPS (RFC 2818): the certificate must name the host. */
    public static final String HTTPS = "HTTPS";

    private static final Set<String> INSECURE_PROTOCOLS = Set.of("SSLv2Hello", "SSLv3", "TLSv1", "TLSv1.1");
    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final SSLContext context;
    private final boolean client;
    private final List<SslConnection.Listener> listeners = new CopyOnWriteArrayList<>();
    private volatile List<String> applicationProtocols = List.of();
    private volatile BiFunction<SSLEngine, List<String>, String> protocolSelector;
    private volatile String endpointIdentificationAlgorithm = HTTPS;
    private volatile Consumer<SSLParameters> parametersCustomizer = parameters -> { };
    private volatile boolean directBuffers;

    private SslConnectionFactory(SSLContext context, boolean client) {
        this.context = Objects.requireNonNull(context, "context");
        this.client = client;
    }

    /** @return a factory of server-side TLS connections with the keys of {@code context} */
    public static SslConnectionFactory forServer(SSLContext context) {
        return new SslConnectionFactory(context, false);
    }

    /** @return a factory of client-side TLS connections trusting what {@code context} trusts */
    public static SslConnectionFactory forClient(SSLContext context) {
        return new SslConnectionFactory(context, true);
    }

    /** @return whether the engines are in client mode */
    public boolean isClient() {
        return client;
    }

    public SSLContext getSslContext() {
        return context;
    }

    public List<String> getApplicationProtocols() {
        return applicationProtocols;
    }

    /**
     * Sets the ALPN protocols, most preferred first: a client offers them; a server's default
     * selector picks the first of them that the client offers.
     */
    public void setApplicationProtocols(List<String> protocols) {
        this.applicationProtocols = List.copyOf(protocols);
    }

    /**
     * Sets how a server picks the application protocol from the client's offer: return one of
     * the offered names, "" to use no ALPN, or null to refuse the handshake (no_application_protocol).
     */
    public void setProtocolSelector(BiFunction<SSLEngine, List<String>, String> selector) {
        this.protocolSelector = selector;
    }

    public String getEndpointIdentificationAlgorithm() {
        return endpointIdentificationAlgorithm;
    }

    /**
     * Sets how a client checks that the server's certificate names the host it connected to:
     * {@link #HTTPS} (the default), or null to skip host name verification (insecure).
     */
    public void setEndpointIdentificationAlgorithm(String algorithm) {
        this.endpointIdentificationAlgorithm = algorithm;
    }

    /** Sets a last say on each engine's parameters (client authentication, cipher suites, named groups). */
    public void setParametersCustomizer(Consumer<SSLParameters> customizer) {
        this.parametersCustomizer = Objects.requireNonNull(customizer, "customizer");
    }

    public boolean isDirectBuffers() {
        return directBuffers;
    }

    /** Sets whether the connections' pooled buffers are direct (default: heap, which the JDK engine works on). */
    public void setDirectBuffers(boolean directBuffers) {
        this.directBuffers = directBuffers;
    }

    /** Adds a listener given to every connection made from now on. */
    public void addListener(SslConnection.Listener listener) {
        listeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * @param peer the address asked for (a client: its host name is used for SNI and
     *     verification) or connected from (a server: a hint for session resumption); may be null
     * @return a new engine in this factory's role, configured
     */
    public SSLEngine newEngine(SocketAddress peer) {
        return newEngine(peer, applicationProtocols);
    }

    private SSLEngine newEngine(SocketAddress peer, List<String> protocols) {
        SSLEngine engine;
        String host = null;
        if (peer instanceof InetSocketAddress inet) {
            host = inet.getHostString();
            engine = context.createSSLEngine(host, inet.getPort());
        } else {
            engine = context.createSSLEngine();
        }
        engine.setUseClientMode(client);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setProtocols(secureProtocols(parameters.getProtocols()));
        if (client) {
            parameters.setEndpointIdentificationAlgorithm(endpointIdentificationAlgorithm);
            if (host != null && !isIpLiteral(host)) {
                try {
                    parameters.setServerNames(List.of(new SNIHostName(host)));
                } catch (IllegalArgumentException x) {
                    // Not a valid DNS name: no SNI.
                }
            }
            if (!protocols.isEmpty()) {
                parameters.setApplicationProtocols(protocols.toArray(String[]::new));
            }
        }
        parametersCustomizer.accept(parameters);
        engine.setSSLParameters(parameters);
        if (!client) {
            BiFunction<SSLEngine, List<String>, String> selector = protocolSelector;
            if (selector == null && !protocols.isEmpty()) {
                selector = preferring(protocols);
            }
            if (selector != null) {
                engine.setHandshakeApplicationProtocolSelector(selector);
            }
        }
        return engine;
    }

    /**
     * A server's connection for an accepted endpoint.
     *
     * @param network the accepted endpoint, not yet opened
     * @param executor runs the connection's dispatched wake-ups (the selector group's executor)
     * @param pool lends the encrypted and decrypted buffers
     * @param decryptedConnection makes the application's connection on the decrypted endpoint
     * @return the connection to open on {@code network}
     */
    public SslConnection newConnection(EndPoint network, Executor executor, ByteBufferPool pool,
                                       Function<EndPoint, Connection> decryptedConnection) {
        return newConnection(network, network.getRemoteSocketAddress(), executor, pool, decryptedConnection);
    }

    /** Like {@link #newConnection(EndPoint, Executor, ByteBufferPool, Function)}, with the peer's address as asked for (clients). */
    public SslConnection newConnection(EndPoint network, SocketAddress peer, Executor executor, ByteBufferPool pool,
                                       Function<EndPoint, Connection> decryptedConnection) {
        return newConnection(network, peer, applicationProtocols, executor, pool, decryptedConnection);
    }

    /**
     * A client's connection that offers {@code protocols} by ALPN instead of this factory's
     * {@link #getApplicationProtocols()}: for a connection that must speak one protocol, such as
     * a WebSocket handshake over HTTP/1.1 from a client whose other connections offer h2 too.
     *
     * @param protocols offered in order of preference; empty offers none
     */
    public SslConnection newConnection(EndPoint network, SocketAddress peer, List<String> protocols, Executor executor,
                                       ByteBufferPool pool, Function<EndPoint, Connection> decryptedConnection) {
        SSLEngine engine = newEngine(peer, List.copyOf(protocols));
        SslConnection connection = new SslConnection(network, executor, pool, engine, directBuffers);
        for (SslConnection.Listener listener : listeners) {
            connection.addListener(listener);
        }
        SslEndPoint decrypted = connection.getDecryptedEndPoint();
        decrypted.setConnection(Objects.requireNonNull(decryptedConnection.apply(decrypted), "decrypted connection"));
        return connection;
    }

    /** @return {@code enabled} without SSLv3, TLS 1.0 and TLS 1.1 */
    static String[] secureProtocols(String[] enabled) {
        List<String> secure = new ArrayList<>();
        for (String protocol : enabled) {
            if (!INSECURE_PROTOCOLS.contains(protocol)) {
                secure.add(protocol);
            }
        }
        if (secure.isEmpty()) {
            throw new IllegalStateException("No TLS protocol of version 1.2 or later is enabled: " + List.of(enabled));
        }
        return secure.toArray(String[]::new);
    }

    /** @return whether {@code host} is an IPv4 or IPv6 literal (no SNI for those, RFC 6066 §3) */
    static boolean isIpLiteral(String host) {
        return host.indexOf(':') >= 0 || IPV4_LITERAL.matcher(host).matches();
    }

    /** @return a selector that picks the first of {@code preferred} that the client offers */
    static BiFunction<SSLEngine, List<String>, String> preferring(List<String> preferred) {
        List<String> ours = List.copyOf(preferred);
        return (engine, offered) -> {
            if (offered.isEmpty()) {
                return "";
            }
            for (String protocol : ours) {
                if (offered.contains(protocol)) {
                    return protocol;
                }
            }
            return null;
        };
    }

    @Override
    public String toString() {
        return "SslConnectionFactory@" + Integer.toHexString(hashCode()) + "{" + (client ? "client" : "server")
            + ",alpn=" + applicationProtocols + "}";
    }
}
