package io.wharf.io.connect;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.SocketChannel;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.Function;

import javax.net.ssl.SSLContext;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.SelectorGroup;
import io.wharf.io.internal.TrustAllTrustManager;
import io.wharf.io.ssl.SslConnection;
import io.wharf.io.ssl.SslConnectionFactory;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;
import io.wharf.util.buffer.BucketedByteBufferPool;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.util.thread.Scheduler;
import io.wharf.util.thread.TimerScheduler;

/**
 * Opens client connections over TCP or Unix domain sockets, asynchronously, with a
 * connect timeout, an optional bind address and TCP options. The HTTP client stands on it.
 *
 * <p>Configure before {@link #start()}; what is not set is created at start (a thread pool,
 * a scheduler, a buffer pool) and stopped with the connector. {@link #connect} may be called
 * from any thread; the promise is completed once, with the opened connection or the cause
 * (a {@link java.net.SocketTimeoutException} when the connect timeout expires).
 *
 * <h2>TLS</h2>
 * {@link #connectTls} opens the same way and puts an {@link SslConnection} on the network
 * endpoint: the factory then gets the decrypted endpoint, and the promise the connection the
 * factory made. The engine trusts what {@link #setSslContext} trusts (the JDK's default
 * context otherwise), sends the address's host name for SNI (not for IP literals), verifies
 * that the server's certificate names that host (see {@link #setEndpointIdentificationAlgorithm}),
 * and offers {@link #setApplicationProtocols} by ALPN. The handshake runs with the connection's
 * first reads and writes; a failure fails them (and {@link #addSslListener} listeners are told).
 * Trusting every server is possible only by calling {@link #setTrustAllCertificatesInsecurely}.
 */
public class ClientConnector extends ContainerLifeCycle {

    private Executor executor;
    private Scheduler scheduler;
    private ByteBufferPool byteBufferPool;
    private int selectors = 1;
    private Duration connectTimeout = Duration.ofSeconds(5);
    private Duration idleTimeout = Duration.ofSeconds(30);
    private SocketAddress bindAddress;
    private boolean tcpNoDelay = true;
    private boolean reuseAddress = true;
    private boolean keepAlive;
    private int receiveBufferSize = -1;
    private int sendBufferSize = -1;
    private SSLContext sslContext;
    private boolean trustAllCertificates;
    private List<String> applicationProtocols = List.of();
    private String endpointIdentificationAlgorithm = SslConnectionFactory.HTTPS;
    private final List<SslConnection.Listener> sslListeners = new CopyOnWriteArrayList<>();
    private volatile SelectorGroup selectorGroup;
    private volatile SslConnectionFactory sslConnectionFactory;

    /**
     * One connect in flight: how to make its connection and whom to tell.
     *
     * @param factory makes the connection on the new network endpoint (for TLS: the SslConnection)
     * @param promise told of the connection the caller's factory made
     * @param tls whether {@code factory} makes an SslConnection around the caller's connection
     */
    private record Attempt(Function<EndPoint, Connection> factory, Promise<Connection> promise, boolean tls) {
    }

    @Override
    protected void doStart() throws Exception {
        if (executor == null) {
            QueuedThreadPool pool = new QueuedThreadPool();
            pool.setName("wharf-client");
            executor = pool;
            addBean(pool, true);
        }
        if (scheduler == null) {
            scheduler = new TimerScheduler("wharf-client-scheduler");
            addBean(scheduler, true);
        }
        if (byteBufferPool == null) {
            byteBufferPool = new BucketedByteBufferPool();
            addBean(byteBufferPool, false);
        }
        SelectorGroup group = new SelectorGroup(executor, scheduler, selectors, new Opener());
        group.setConnectTimeout(connectTimeout);
        group.setIdleTimeout(idleTimeout);
        addBean(group, true);
        selectorGroup = group;
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop();
        sslConnectionFactory = null;
        SelectorGroup group = selectorGroup;
        selectorGroup = null;
        if (group != null) {
            removeBean(group);
        }
    }

    /**
     * Connects to {@code address} (an {@link InetSocketAddress} or a
     * {@link UnixDomainSocketAddress}) and opens the connection {@code factory} makes.
     */
    public void connect(SocketAddress address, Function<EndPoint, Connection> factory, Promise<Connection> promise) {
        connect(address, new Attempt(factory, promise, false));
    }

    private void connect(SocketAddress address, Attempt attempt) {
        Objects.requireNonNull(address, "address");
        Promise<Connection> promise = attempt.promise;
        SelectorGroup group = selectorGroup;
        if (group == null) {
            promise.failed(new IllegalStateException(this + " is not started"));
            return;
        }
        SocketChannel channel;
        try {
            channel = openChannel(address);
        } catch (IOException | RuntimeException x) {
            promise.failed(x);
            return;
        }
        group.connect(channel, address, attempt);
    }

    /**
     * Connects to {@code address} over TLS: like {@link #connect}, but {@code factory} gets the
     * decrypted endpoint of an {@link SslConnection}, and {@code promise} the connection it made.
     * The handshake runs with that connection's first reads and writes.
     */
    public void connectTls(SocketAddress address, Function<EndPoint, Connection> factory, Promise<Connection> promise) {
        Objects.requireNonNull(address, "address");
        SslConnectionFactory tls;
        try {
            tls = getSslConnectionFactory();
        } catch (RuntimeException x) {
            promise.failed(x);
            return;
        }
        Executor executor = this.executor;
        ByteBufferPool pool = byteBufferPool;
        connect(address, new Attempt(network -> tls.newConnection(network, address, executor, pool, factory), promise, true));
    }

    /**
     * @return the factory of client TLS connections, made at its first use from the settings
     *     (context, trust-all opt-in, ALPN, host name verification, listeners); for a caller that
     *     puts TLS on an endpoint it opened with {@link #connect} (after a proxy's tunnel, say)
     * @throws IllegalStateException when no TLS context can be had
     */
    public SslConnectionFactory getSslConnectionFactory() {
        SslConnectionFactory tls = sslConnectionFactory;
        if (tls != null) {
            return tls;
        }
        synchronized (this) {
            if (sslConnectionFactory == null) {
                SSLContext context;
                if (trustAllCertificates) {
                    context = TrustAllTrustManager.newInsecureContext();
                } else if (sslContext != null) {
                    context = sslContext;
                } else {
                    try {
                        context = SSLContext.getDefault();
                    } catch (NoSuchAlgorithmException x) {
                        throw new IllegalStateException("No default TLS context in this JDK", x);
                    }
                }
                tls = SslConnectionFactory.forClient(context);
                tls.setApplicationProtocols(applicationProtocols);
                tls.setEndpointIdentificationAlgorithm(trustAllCertificates ? null : endpointIdentificationAlgorithm);
                for (SslConnection.Listener listener : sslListeners) {
                    tls.addListener(listener);
                }
                sslConnectionFactory = tls;
            }
            return sslConnectionFactory;
        }
    }

    private SocketChannel openChannel(SocketAddress address) throws IOException {
        if (address instanceof UnixDomainSocketAddress) {
            return SocketChannel.open(StandardProtocolFamily.UNIX);
        }
        // IPv4 to IPv4 gets an IPv4 socket: the JDK's default is an IPv6 socket that also
        // carries IPv4, and its every read and write then takes the kernel's IPv6 path.
        SocketChannel channel = isIpv4(address) && (bindAddress == null || isIpv4(bindAddress))
                ? SocketChannel.open(StandardProtocolFamily.INET)
                : SocketChannel.open();
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, tcpNoDelay);
            channel.setOption(StandardSocketOptions.SO_REUSEADDR, reuseAddress);
            channel.setOption(StandardSocketOptions.SO_KEEPALIVE, keepAlive);
            if (receiveBufferSize > 0) {
                channel.setOption(StandardSocketOptions.SO_RCVBUF, receiveBufferSize);
            }
            if (sendBufferSize > 0) {
                channel.setOption(StandardSocketOptions.SO_SNDBUF, sendBufferSize);
            }
            if (bindAddress != null) {
                channel.bind(bindAddress);
            }
            return channel;
        } catch (IOException | RuntimeException x) {
            channel.close();
            throw x;
        }
    }

    private static boolean isIpv4(SocketAddress address) {
        return address instanceof InetSocketAddress inet && inet.getAddress() instanceof Inet4Address;
    }

    private final class Opener implements SelectorGroup.Opener {
        @Override
        public Connection newConnection(EndPoint endPoint, Object attachment) {
            return ((Attempt) attachment).factory.apply(endPoint);
        }

        @Override
        public void opened(Connection opened, Object attachment) {
            Attempt attempt = (Attempt) attachment;
            Promise<Connection> promise = attempt.promise;
            Connection connection = attempt.tls ? ((SslConnection) opened).getDecryptedEndPoint().getConnection() : opened;
            tell(promise, () -> promise.succeeded(connection));
        }

        @Override
        public void openFailed(SocketChannel channel, Throwable cause, Object attachment) {
            Promise<Connection> promise = ((Attempt) attachment).promise;
            tell(promise, () -> promise.failed(cause));
        }

        /** Completes a promise on this selector thread only when it promised not to block. */
        private void tell(Promise<Connection> promise, Runnable completion) {
            if (promise.invocationType() == InvocationType.NON_BLOCKING) {
                completion.run();
            } else {
                executor.execute(completion);
            }
        }
    }

    // ---- configuration ----

    public Executor getExecutor() {
        return executor;
    }

    public void setExecutor(Executor executor) {
        checkStopped();
        this.executor = executor;
        addBean(executor, false);
    }

    public Scheduler getScheduler() {
        return scheduler;
    }

    public void setScheduler(Scheduler scheduler) {
        checkStopped();
        this.scheduler = scheduler;
        addBean(scheduler, false);
    }

    public ByteBufferPool getByteBufferPool() {
        return byteBufferPool;
    }

    public void setByteBufferPool(ByteBufferPool byteBufferPool) {
        checkStopped();
        this.byteBufferPool = byteBufferPool;
        addBean(byteBufferPool, false);
    }

    public int getSelectors() {
        return selectors;
    }

    /** Sets how many selectors; 0 or less for one per core. */
    public void setSelectors(int selectors) {
        checkStopped();
        this.selectors = selectors;
    }

    public Duration getConnectTimeout() {
        return connectTimeout;
    }

    public void setConnectTimeout(Duration connectTimeout) {
        if (connectTimeout.isNegative() || connectTimeout.isZero()) {
            throw new IllegalArgumentException("connect timeout must be positive: " + connectTimeout);
        }
        this.connectTimeout = connectTimeout;
        SelectorGroup group = selectorGroup;
        if (group != null) {
            group.setConnectTimeout(connectTimeout);
        }
    }

    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    public void setIdleTimeout(Duration idleTimeout) {
        this.idleTimeout = idleTimeout;
        SelectorGroup group = selectorGroup;
        if (group != null) {
            group.setIdleTimeout(idleTimeout);
        }
    }

    public SocketAddress getBindAddress() {
        return bindAddress;
    }

    /** Binds client sockets to this local address (for example to pick an interface). */
    public void setBindAddress(SocketAddress bindAddress) {
        this.bindAddress = bindAddress;
    }

    public boolean isTcpNoDelay() {
        return tcpNoDelay;
    }

    public void setTcpNoDelay(boolean tcpNoDelay) {
        this.tcpNoDelay = tcpNoDelay;
    }

    public boolean isReuseAddress() {
        return reuseAddress;
    }

    public void setReuseAddress(boolean reuseAddress) {
        this.reuseAddress = reuseAddress;
    }

    public boolean isKeepAlive() {
        return keepAlive;
    }

    public void setKeepAlive(boolean keepAlive) {
        this.keepAlive = keepAlive;
    }

    public int getReceiveBufferSize() {
        return receiveBufferSize;
    }

    /** Sets SO_RCVBUF; -1 for the system's default. */
    public void setReceiveBufferSize(int receiveBufferSize) {
        this.receiveBufferSize = receiveBufferSize;
    }

    public int getSendBufferSize() {
        return sendBufferSize;
    }

    /** Sets SO_SNDBUF; -1 for the system's default. */
    public void setSendBufferSize(int sendBufferSize) {
        this.sendBufferSize = sendBufferSize;
    }

    public SSLContext getSslContext() {
        return sslContext;
    }

    /** Sets the TLS context of {@link #connectTls}: whom it trusts, which client certificate it shows. */
    public void setSslContext(SSLContext sslContext) {
        checkStopped();
        this.sslContext = sslContext;
    }

    public boolean isTrustAllCertificatesInsecurely() {
        return trustAllCertificates;
    }

    /**
     * INSECURE, for tests and development only: when true, {@link #connectTls} trusts every
     * server certificate and checks no host name, which lets anyone on the path read and
     * change the traffic. Takes precedence over {@link #setSslContext}.
     */
    public void setTrustAllCertificatesInsecurely(boolean trustAll) {
        checkStopped();
        this.trustAllCertificates = trustAll;
    }

    public List<String> getApplicationProtocols() {
        return applicationProtocols;
    }

    /** Sets the protocols offered by ALPN on TLS connects, most preferred first (for example h2, http/1.1). */
    public void setApplicationProtocols(List<String> protocols) {
        checkStopped();
        this.applicationProtocols = List.copyOf(protocols);
    }

    public String getEndpointIdentificationAlgorithm() {
        return endpointIdentificationAlgorithm;
    }

    /**
     * Sets how TLS connects check that the certificate names the host asked for: "HTTPS" (the
     * default, RFC 2818), or null to skip host name verification.
     */
    public void setEndpointIdentificationAlgorithm(String algorithm) {
        checkStopped();
        this.endpointIdentificationAlgorithm = algorithm;
    }

    /** Adds a listener told of every TLS handshake's outcome. */
    public void addSslListener(SslConnection.Listener listener) {
        checkStopped();
        sslListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    private void checkStopped() {
        if (isRunning()) {
            throw new IllegalStateException("Configure " + this + " before starting it");
        }
    }

    @Override
    public String toString() {
        return "ClientConnector@" + Integer.toHexString(hashCode()) + "{" + state() + ",selectors=" + selectors
            + ",connectTimeout=" + connectTimeout.toMillis() + "ms,idleTimeout=" + idleTimeout.toMillis() + "ms}";
    }
}
