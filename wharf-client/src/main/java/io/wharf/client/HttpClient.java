package io.wharf.client;

import java.net.CookieStore;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

import javax.net.ssl.SSLContext;

import io.wharf.client.internal.ClientContext;
import io.wharf.client.internal.Deadlines;
import io.wharf.client.internal.HttpDestination;
import io.wharf.client.internal.HttpRequest;
import io.wharf.client.internal.http1.Http1Transport;
import io.wharf.client.internal.http2.Http2Transport;
import io.wharf.client.internal.route.EndPointOpening;
import io.wharf.client.transport.ClientSettings;
import io.wharf.client.transport.Transport;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpParser;
import io.wharf.http.compression.DecoderLimits;
import io.wharf.http.compression.InflaterPool;
import io.wharf.io.connect.ClientConnector;
import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.util.OptionalModule;
import io.wharf.util.Pool;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.thread.Scheduler;

/**
 * The asynchronous HTTP client: makes {@link Request}s, queues them per {@link Destination}
 * (one per origin — scheme, host, port, tag — and proxy) and carries them over pooled HTTP/1.1
 * or HTTP/2 connections (as its {@link HttpTransport} says) opened by a {@link ClientConnector}:
 * plain for {@code http}, over TLS for {@code https} (the server's certificate checked against
 * {@link #setSslContext} or the JDK's trusted CAs and required to name the host; SNI; ALPN
 * {@code h2} and/or {@code http/1.1}), directly or through
 * the first of {@link #setProxies} that applies (an HTTP proxy, a CONNECT tunnel, SOCKS5). On a
 * request's behalf it follows redirects ({@link #setFollowRedirects}), keeps cookies
 * ({@link #getCookieStore}), answers 401 challenges ({@link #getAuthenticationStore}) and
 * inflates gzip responses ({@link #setContentDecoding}).
 *
 * <pre>{@code
 * HttpClient client = new HttpClient();
 * client.start();
 * ContentResponse response = client.GET("http://127.0.0.1:8080/hello");
 * ...
 * client.stop();
 * }</pre>
 *
 * <h2>Flow</h2>
 * <pre>
 *  Request.send ──► Destination queue (bounded) ──► connection pool (max per destination)
 *       │                                              │ free connection, or open one (connect timeout;
 *       │                                              │ then the proxy's tunnel, then TLS, when needed)
 *       └─ total timeout, abort ──────────────────────► Http1Connection: write request ──► read response
 *                                                        │ (content told with demand)     │
 *                          back to the pool (keep-alive) ◄───────────── exchange over ◄─────┘
 *                                 a redirect or an answerable 401: the next request goes the same way
 * </pre>
 *
 * <p><b>Threads.</b> Configure before {@link #start()} (or after: see Settings below); every
 * method may be called from any thread. Responses are read on the connector's selector threads,
 * where listeners run; content that may block (files, streams) is written from pool threads.
 * <b>Buffers.</b> Network buffers come from the {@link ByteBufferPool} (the connector's, or the
 * one set here) only while bytes are being moved.
 *
 * <h2>Transports</h2>
 * {@link HttpTransport} picks among the built-in transports (HTTP/1.1, HTTP/2, either). A
 * transport of another module, an implementation of the exported SPI
 * {@link io.wharf.client.transport.Transport}, is given to {@link #HttpClient(Transport)} or
 * {@link #HttpClient(ClientConnector, Transport)}; everything above it (requests, listeners,
 * queues, timeouts, redirects, cookies, authentication, decoding) stays the same (see
 * docs/client-transport.md).
 *
 * <h2>Settings</h2>
 * Every setter publishes a new immutable {@link ClientSettings} snapshot ({@link #getSettings()}),
 * which is all the internals read: a request goes by the snapshot of the moment it was made, a
 * destination's pool by that of its making, a connection by that of its opening (see
 * docs/client.md). A setting changed on a running client therefore applies to what is made
 * afterwards, never to a request already made.
 *
 * <h2>Safety nets</h2>
 * A request waits in its destination's queue of at most
 * {@link #setMaxRequestsQueuedPerDestination} (1024) requests, beyond which it fails with a
 * {@link java.util.concurrent.RejectedExecutionException}; {@link Request#send()} keeps at most
 * {@link #setMaxResponseContentBytes} (2 MiB) of content; response heads are bounded by
 * {@link #setResponseLimits}. An idempotent request (GET, HEAD, OPTIONS, PUT, DELETE...) whose
 * content can be read again, sent on a pooled connection that the server had just closed
 * (no byte of the response came), is sent once more on another connection.
 */
public final class HttpClient extends ContainerLifeCycle {

    /**
     * The default {@link #getResponseDecoderLimits()}: 1 GiB inflated, and no more than 200
     * inflated bytes per compressed byte once past 16 MiB (a zip bomb runs at about 1000).
     */
    public static final DecoderLimits DEFAULT_RESPONSE_DECODER_LIMITS =
            new DecoderLimits(1L << 30, 200, 16L << 20, 1024);

    private final ClientConnector connector;
    private final Transport transport;
    /** The built-in transport chosen, or null for a transport of another module. */
    private final HttpTransport transportChoice;
    /** Made at the first use: a client that speaks only HTTP/1.1 never loads a class of wharf-http2. */
    private SessionConfiguration http2Configuration;
    private final ConcurrentMap<DestinationKey, HttpDestination> destinations = new ConcurrentHashMap<>();
    private Duration idleTimeout = Duration.ofSeconds(30);
    private Duration requestTimeout;
    private int maxConnectionsPerDestination = 64;
    private int maxRequestsQueuedPerDestination = 1024;
    private int maxConnectionUsage;
    private Pool.Strategy connectionStrategy = Pool.Strategy.FIRST;
    private int maxResponseContentBytes = 2 * 1024 * 1024;
    private int requestBufferSize = 4096;
    private int maxRequestHeadBytes = 64 * 1024;
    private int responseBufferSize = 16 * 1024;
    private HttpParser.Limits responseLimits = HttpParser.Limits.DEFAULT.withFieldCacheCapacity(0);
    private String userAgent = "Wharf";
    private Path unixDomainPath;
    private volatile List<Proxy> proxies = List.of();

    /** Destinations are kept apart by proxy too: a proxy set later never reuses direct connections. */
    private record DestinationKey(Origin origin, Proxy proxy) {
    }
    private boolean followRedirects = true;
    private int maxRedirects = 8;
    private volatile CookieStore cookieStore = new MemoryCookieStore();
    private final AuthenticationStore authenticationStore = new AuthenticationStore();
    private boolean contentDecoding = true;
    private DecoderLimits responseDecoderLimits = DEFAULT_RESPONSE_DECODER_LIMITS;
    private volatile InflaterPool inflaters;
    /** The settings as they are now: taken at construction and at start, and again by every setter. */
    private volatile ClientSettings settings;
    private final ClientContext context = new Context();
    private final Deadlines deadlines = new Deadlines();

    /** A client on a new {@link ClientConnector}, which makes its own threads and buffer pool at start. */
    public HttpClient() {
        this(new ClientConnector());
    }

    /** A client on {@code connector}, configured (threads, pool, selectors) by the caller and managed by this client. */
    public HttpClient(ClientConnector connector) {
        this(connector, HttpTransport.HTTP_1_1);
    }

    /** A client on a new {@link ClientConnector} that speaks the HTTP versions {@code transport} says. */
    public HttpClient(HttpTransport transport) {
        this(new ClientConnector(), transport);
    }

    /**
     * A client on {@code connector}, configured by the caller and managed by this client, that
     * speaks the HTTP versions {@code transport} says (HTTP/2, HTTP/1.1, or either by ALPN).
     *
     * @throws IllegalStateException for a transport that speaks HTTP/2 when this client runs as a
     *     module and {@code io.wharf.http2} is not in the module graph
     */
    public HttpClient(ClientConnector connector, HttpTransport transport) {
        this.connector = Objects.requireNonNull(connector, "connector");
        if (Objects.requireNonNull(transport, "transport") != HttpTransport.HTTP_1_1) {
            requireHttp2(transport);
        }
        this.settings = snapshot();
        this.transport = switch (Objects.requireNonNull(transport, "transport")) {
            case HTTP_1_1 -> new Http1Transport(context);
            case HTTP_2 -> new Http2Transport(context, getHttp2Configuration(), true, false);
            case DYNAMIC -> new Http2Transport(context, getHttp2Configuration(), false, true);
            case DYNAMIC_PRIOR_KNOWLEDGE -> new Http2Transport(context, getHttp2Configuration(), true, true);
        };
        this.transportChoice = transport;
        addBean(connector, true);
    }

    /**
     * A client on a new {@link ClientConnector} that carries its exchanges over {@code transport},
     * a transport of another module (see {@link #HttpClient(ClientConnector, Transport)}).
     */
    public HttpClient(Transport transport) {
        this(new ClientConnector(), transport);
    }

    /**
     * A client on {@code connector}, configured by the caller and managed by this client, that
     * carries its exchanges over {@code transport}: an implementation of the client's transport
     * SPI that another module supplies, instead of a built-in one ({@link HttpTransport}). The
     * transport is asked for a connection pool once per destination, for connections as its pool
     * needs them, and for its ALPN protocols at start (offered by the connector when the client
     * starts it); its connections see each exchange through
     * {@link io.wharf.client.transport.TransportExchange}. A transport that is a
     * {@link io.wharf.util.component.LifeCycle} is started and stopped with the client.
     * {@link #getTransport()} is then null.
     */
    public HttpClient(ClientConnector connector, Transport transport) {
        this.connector = Objects.requireNonNull(connector, "connector");
        this.settings = snapshot();
        this.transport = Objects.requireNonNull(transport, "transport");
        this.transportChoice = null;
        addBean(connector, true);
        // A transport with a life of its own (a QUIC stack) starts after the connector and stops before it.
        addBean(transport);
    }

    /**
     * Refuses an HTTP/2 transport when this client runs as a module and {@code io.wharf.http2}
     * is not in its module graph (wharf-client only requires it statically).
     */
    private static void requireHttp2(HttpTransport transport) {
        OptionalModule.require(HttpClient.class, "io.wharf.http2", "wharf-http2", null, "HttpTransport." + transport);
    }

    /**
     * @return which HTTP versions this client speaks: the built-in transport chosen, or null when
     *     the client was given a transport of another module
     */
    public HttpTransport getTransport() {
        return transportChoice;
    }

    /**
     * @return the settings, windows and budgets of this client's HTTP/2 connections (its
     *     receive windows: 1 MiB per stream, 4 MiB per connection, by default); change them
     *     before {@link #start()}
     */
    public synchronized SessionConfiguration getHttp2Configuration() {
        if (http2Configuration == null) {
            http2Configuration = new SessionConfiguration();
        }
        return http2Configuration;
    }

    @Override
    protected void doStart() throws Exception {
        connector.setIdleTimeout(idleTimeout);
        changed();
        if (!connector.isRunning()) {
            // ALPN offers what the transport speaks, whatever the connector was given.
            connector.setApplicationProtocols(transport.applicationProtocols());
        }
        inflaters = InflaterPool.forGzip();
        super.doStart();
    }

    @Override
    protected void doStop() throws Exception {
        for (HttpDestination destination : destinations.values()) {
            destination.close();
        }
        destinations.clear();
        super.doStop();
        deadlines.clear();
        InflaterPool pool = inflaters;
        if (pool != null) {
            pool.close();
        }
    }

    // ---- requests ----

    /** @return a new GET request to {@code uri}, to set up and send */
    public Request newRequest(String uri) {
        return newRequest(URI.create(uri));
    }

    /** @return a new GET request to {@code uri}, to set up and send */
    public Request newRequest(URI uri) {
        return new HttpRequest(context, uri);
    }

    /** @return a new GET request to {@code http://host:port/} */
    public Request newRequest(String host, int port) {
        return newRequest(URI.create("http://" + (host.indexOf(':') >= 0 ? "[" + host + "]" : host) + ":" + port + "/"));
    }

    /** Sends a GET to {@code uri} and waits for the whole response; see {@link Request#send()}. */
    public ContentResponse GET(String uri) throws InterruptedException, TimeoutException, ExecutionException {
        return newRequest(uri).send();
    }

    /** Sends a GET to {@code uri} and waits for the whole response; see {@link Request#send()}. */
    public ContentResponse GET(URI uri) throws InterruptedException, TimeoutException, ExecutionException {
        return newRequest(uri).send();
    }

    /** @return a new POST request to {@code uri}, to give content and send */
    public Request POST(String uri) {
        return newRequest(uri).method(HttpMethod.POST);
    }

    /** @return a new POST request to {@code uri}, to give content and send */
    public Request POST(URI uri) {
        return newRequest(uri).method(HttpMethod.POST);
    }

    // ---- destinations ----

    /**
     * @return the destination of {@code origin} through the first of {@link #getProxies()} that
     *     applies to it (or direct), made at its first use
     */
    public Destination resolveDestination(Origin origin) {
        Proxy proxy = proxyFor(origin);
        return destinations.computeIfAbsent(new DestinationKey(origin, proxy),
                key -> new HttpDestination(context, origin, proxy, transport));
    }

    /**
     * Opens a network connection to {@code origin} along the route this client's requests to it
     * take, for a protocol that speaks on the connection itself after a handshake of its own
     * (the WebSocket client's upgrade): TCP to the origin, to the first of {@link #getProxies()}
     * that applies to it, or to the {@linkplain #setUnixDomainPath Unix domain socket}; through
     * a proxy, a tunnel to the origin ({@code CONNECT} through an HTTP proxy, for plain origins
     * too, or SOCKS5, with the proxy's credentials); then, for an {@code https} or {@code wss}
     * origin, TLS with the origin (SNI and host name verification with the origin's host, this
     * client's TLS context and trust) offering {@code protocols} by ALPN. {@code factory} makes
     * the connection that takes the endpoint over: the decrypted endpoint of a secure origin.
     * The connect timeout bounds the TCP connect; the tunnel and the TLS handshake are bounded by
     * the idle timeout.
     *
     * @param origin where to connect: scheme {@code http}, {@code https}, {@code ws} or {@code wss}
     * @param protocols offered by ALPN on a secure origin, in order of preference (empty: none);
     *     the server's pick is on the decrypted endpoint (an {@link io.wharf.io.ssl.SslEndPoint})
     * @param promise completed on a selector thread (it must not block) with {@code factory}'s
     *     connection once the route is open — for a secure origin once the TLS handshake
     *     succeeded, before any application byte was read — or failed: a {@link ProxyException}
     *     naming the proxy and its answer, an {@link javax.net.ssl.SSLHandshakeException} naming
     *     the origin and the reason, a {@link TimeoutException}, the connect's failure
     * @throws IllegalArgumentException for another scheme
     * @throws IllegalStateException when the client is not started
     */
    public void connect(Origin origin, List<String> protocols, Function<EndPoint, Connection> factory, Promise<Connection> promise) {
        Objects.requireNonNull(factory, "factory");
        Objects.requireNonNull(promise, "promise");
        if (!List.of("http", "https", "ws", "wss").contains(origin.scheme())) {
            throw new IllegalArgumentException("cannot connect to " + origin + ": the scheme is not http, https, ws or wss");
        }
        if (!isStarted()) {
            throw new IllegalStateException(this + " is not started");
        }
        new EndPointOpening(connector, settings, origin, proxyFor(origin), protocols, factory, promise).open();
    }

    /** @return the first proxy that applies to {@code origin}; null when it goes direct (always with a Unix domain path) */
    private Proxy proxyFor(Origin origin) {
        if (unixDomainPath != null) {
            return null;
        }
        for (Proxy proxy : proxies) {
            if (proxy.appliesTo(origin)) {
                return proxy;
            }
        }
        return null;
    }

    /** @return the destinations made so far */
    public List<Destination> getDestinations() {
        return List.copyOf(destinations.values());
    }

    // ---- the connector's parts ----

    /** @return the connector that opens this client's connections */
    public ClientConnector getClientConnector() {
        return connector;
    }

    /** @return the executor of the connector (available once started) */
    public Executor getExecutor() {
        return connector.getExecutor();
    }

    /** @return the scheduler of the connector (available once started) */
    public Scheduler getScheduler() {
        return connector.getScheduler();
    }

    /** @return the buffer pool of the connector (available once started, or once set) */
    public ByteBufferPool getByteBufferPool() {
        return connector.getByteBufferPool();
    }

    /** Sets the buffer pool of the connector and of this client (for example a leak-tracking one in tests). */
    public void setByteBufferPool(ByteBufferPool pool) {
        connector.setByteBufferPool(pool);
    }

    // ---- settings ----

    /**
     * @return the settings as they are now: an immutable snapshot, replaced by every setter,
     *     which is what requests, destinations and connections made from now on go by
     */
    public ClientSettings getSettings() {
        return settings;
    }

    /** @return how long opening a connection may take; 5 s by default */
    public Duration getConnectTimeout() {
        return connector.getConnectTimeout();
    }

    /** Bounds the opening of a connection; past it the exchange fails with a TimeoutException naming it. */
    public void setConnectTimeout(Duration connectTimeout) {
        connector.setConnectTimeout(connectTimeout);
        changed();
    }

    /** @return how long a connection may be silent; 30 s by default */
    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    /**
     * Bounds the silence of every connection: an idle pooled connection is closed (evicted)
     * after it, and an exchange without its own idle timeout fails after it.
     */
    public void setIdleTimeout(Duration idleTimeout) {
        if (idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive: " + idleTimeout);
        }
        this.idleTimeout = idleTimeout;
        connector.setIdleTimeout(idleTimeout);
        changed();
    }

    /** @return the total timeout given to new requests, or null (none) by default */
    public Duration getRequestTimeout() {
        return requestTimeout;
    }

    /** Sets the total timeout new requests start with; {@link Request#timeout} overrides it. */
    public void setRequestTimeout(Duration requestTimeout) {
        this.requestTimeout = requestTimeout;
        changed();
    }

    /** @return the most connections open to one destination; 64 by default */
    public int getMaxConnectionsPerDestination() {
        return maxConnectionsPerDestination;
    }

    public void setMaxConnectionsPerDestination(int max) {
        this.maxConnectionsPerDestination = positive("maxConnectionsPerDestination", max);
        changed();
    }

    /** @return the most requests waiting for a connection per destination; 1024 by default */
    public int getMaxRequestsQueuedPerDestination() {
        return maxRequestsQueuedPerDestination;
    }

    public void setMaxRequestsQueuedPerDestination(int max) {
        this.maxRequestsQueuedPerDestination = positive("maxRequestsQueuedPerDestination", max);
        changed();
    }

    /** @return how many exchanges a connection carries before it is closed; 0 (the default) for no limit */
    public int getMaxConnectionUsage() {
        return maxConnectionUsage;
    }

    public void setMaxConnectionUsage(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("maxConnectionUsage must not be negative: " + max);
        }
        this.maxConnectionUsage = max;
        changed();
    }

    /**
     * @return how a destination picks among its free connections: {@link Pool.Strategy#FIRST}
     *     (the default) reuses the first free one, so a light load keeps few connections warm;
     *     {@link Pool.Strategy#ROUND_ROBIN} spreads exchanges over every open connection, for
     *     servers behind a balancer that spreads connections; {@code RANDOM} and
     *     {@code THREAD_ID} as in {@link Pool}
     */
    public Pool.Strategy getConnectionStrategy() {
        return connectionStrategy;
    }

    /** Sets the strategy of destinations made from now on. */
    public void setConnectionStrategy(Pool.Strategy strategy) {
        this.connectionStrategy = Objects.requireNonNull(strategy, "strategy");
        changed();
    }

    /** @return the most content bytes {@link Request#send()} keeps in memory; 2 MiB by default */
    public int getMaxResponseContentBytes() {
        return maxResponseContentBytes;
    }

    public void setMaxResponseContentBytes(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("maxResponseContentBytes must not be negative: " + max);
        }
        this.maxResponseContentBytes = max;
        changed();
    }

    /** @return the size of the buffer a request head is first written into; 4 KiB by default */
    public int getRequestBufferSize() {
        return requestBufferSize;
    }

    public void setRequestBufferSize(int size) {
        this.requestBufferSize = positive("requestBufferSize", size);
        changed();
    }

    /** @return the largest request head the client writes; 64 KiB by default */
    public int getMaxRequestHeadBytes() {
        return maxRequestHeadBytes;
    }

    public void setMaxRequestHeadBytes(int max) {
        this.maxRequestHeadBytes = positive("maxRequestHeadBytes", max);
        changed();
    }

    /** @return the size of the buffers responses are read into; 16 KiB by default */
    public int getResponseBufferSize() {
        return responseBufferSize;
    }

    public void setResponseBufferSize(int size) {
        this.responseBufferSize = positive("responseBufferSize", size);
        changed();
    }

    /** @return the bounds of a response head (size, field count, trailers, chunk extensions) */
    public HttpParser.Limits getResponseLimits() {
        return responseLimits;
    }

    public void setResponseLimits(HttpParser.Limits limits) {
        this.responseLimits = Objects.requireNonNull(limits, "limits");
        changed();
    }

    /** @return the User-Agent sent when a request has none, or null for none; "Wharf" by default */
    public String getUserAgent() {
        return userAgent;
    }

    public void setUserAgent(String userAgent) {
        this.userAgent = userAgent;
        changed();
    }

    /** @return the Unix domain socket every connection goes to, or null for TCP (the default) */
    public Path getUnixDomainPath() {
        return unixDomainPath;
    }

    /**
     * Sends every request over the Unix domain socket at {@code path} instead of TCP; the
     * requests' URIs still give their Host field and their destinations.
     */
    public void setUnixDomainPath(Path path) {
        this.unixDomainPath = path;
        changed();
    }

    /** @return the proxies requests go through, in order; empty (all direct) by default */
    public List<Proxy> getProxies() {
        return proxies;
    }

    /**
     * Sets the proxies: each request goes through the first that {@link Proxy#appliesTo applies}
     * to its origin, or direct when none does. Takes effect for requests sent afterwards, at any
     * time. Not used with {@link #setUnixDomainPath}.
     */
    public void setProxies(List<Proxy> proxies) {
        this.proxies = List.copyOf(proxies);
    }

    /** @return the TLS context of https connections, or null for the JDK's default (its trusted CAs) */
    public SSLContext getSslContext() {
        return connector.getSslContext();
    }

    /**
     * Sets the TLS context of https connections: which certificates it trusts (for example a
     * {@link javax.net.ssl.TrustManagerFactory} over a {@link java.security.KeyStore} with a
     * private CA) and which client certificate it shows. The server's certificate is always
     * checked against it and must name the request's host. Before {@link #start()}.
     */
    public void setSslContext(SSLContext context) {
        connector.setSslContext(context);
    }

    /** @return whether https connections trust every certificate (false by default) */
    public boolean isTrustAllCertificatesInsecurely() {
        return connector.isTrustAllCertificatesInsecurely();
    }

    /**
     * INSECURE, for tests and development only: when true, https connections accept any
     * certificate for any host, so anyone on the path can read and change the traffic. Takes
     * precedence over {@link #setSslContext}. Before {@link #start()}.
     */
    public void setTrustAllCertificatesInsecurely(boolean trustAll) {
        connector.setTrustAllCertificatesInsecurely(trustAll);
    }

    // ---- following up: redirects, cookies, authentication, content decoding ----

    /** @return whether requests follow redirects unless they say otherwise; true by default */
    public boolean isFollowRedirects() {
        return followRedirects;
    }

    /**
     * Sets whether new requests follow 301, 302, 303, 307 and 308 answers to their
     * {@code Location} ({@link Request#followRedirects} overrides it per request). The
     * listeners then see only the final response; see docs/client.md for the rules.
     */
    public void setFollowRedirects(boolean follow) {
        this.followRedirects = follow;
        changed();
    }

    /** @return how many redirects a request follows at most; 8 by default */
    public int getMaxRedirects() {
        return maxRedirects;
    }

    /** Bounds the redirects new requests follow ({@link Request#maxRedirects} overrides it). */
    public void setMaxRedirects(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("maxRedirects must not be negative: " + max);
        }
        this.maxRedirects = max;
        changed();
    }

    /** @return the store cookies are kept in and sent from, or null when cookies are off; a {@link MemoryCookieStore} by default */
    public CookieStore getCookieStore() {
        return cookieStore;
    }

    /**
     * Sets the store that every response's {@code Set-Cookie} fields go into and every
     * request's {@code Cookie} field comes from (matched by the store's {@code get(URI)});
     * null turns cookies off. Any thread, any time.
     */
    public void setCookieStore(CookieStore store) {
        this.cookieStore = store;
    }

    /** @return the credentials the client answers 401 challenges with, and the answers it keeps */
    public AuthenticationStore getAuthenticationStore() {
        return authenticationStore;
    }

    /** @return whether gzip responses are inflated (and {@code Accept-Encoding: gzip} sent); true by default */
    public boolean isContentDecoding() {
        return contentDecoding;
    }

    /**
     * Sets whether requests without an {@code Accept-Encoding} field get
     * {@code Accept-Encoding: gzip}, and responses with {@code Content-Encoding: gzip} are
     * inflated for the listeners (who then see neither Content-Encoding nor Content-Length).
     */
    public void setContentDecoding(boolean decoding) {
        this.contentDecoding = decoding;
        changed();
    }

    /** @return the bounds on inflating a response; {@link #DEFAULT_RESPONSE_DECODER_LIMITS} by default */
    public DecoderLimits getResponseDecoderLimits() {
        return responseDecoderLimits;
    }

    /** Bounds the inflated size and ratio of responses; past them the exchange fails with an IOException. */
    public void setResponseDecoderLimits(DecoderLimits limits) {
        this.responseDecoderLimits = Objects.requireNonNull(limits, "limits");
        changed();
    }

    /** @return the gzip inflaters responses are decoded with, made at start; null before */
    public InflaterPool getInflaterPool() {
        return inflaters;
    }

    /**
     * Publishes the settings as they are now: what requests, destinations and connections made
     * from now on go by. Under the client's lock, so that of two setters called at once the one
     * that publishes last has read the other's value: no snapshot taken earlier overwrites a later one.
     */
    private synchronized void changed() {
        settings = snapshot();
    }

    private ClientSettings snapshot() {
        return new ClientSettings(connector.getConnectTimeout(), idleTimeout, requestTimeout, maxConnectionsPerDestination,
                maxRequestsQueuedPerDestination, maxConnectionUsage, connectionStrategy, maxResponseContentBytes,
                requestBufferSize, maxRequestHeadBytes, responseBufferSize, responseLimits, userAgent, unixDomainPath,
                followRedirects, maxRedirects, contentDecoding, responseDecoderLimits);
    }

    /** What the internals see of this client: its current settings, its parts and its stores. */
    private final class Context implements ClientContext {

        @Override
        public ClientSettings settings() {
            return settings;
        }

        @Override
        public boolean isRunning() {
            return HttpClient.this.isRunning();
        }

        @Override
        public ClientConnector connector() {
            return connector;
        }

        @Override
        public CookieStore cookieStore() {
            return cookieStore;
        }

        @Override
        public AuthenticationStore authenticationStore() {
            return authenticationStore;
        }

        @Override
        public InflaterPool inflaters() {
            return inflaters;
        }

        @Override
        public Deadlines deadlines() {
            return deadlines;
        }

        @Override
        public HttpDestination destination(Origin origin) {
            return (HttpDestination) resolveDestination(origin);
        }

        @Override
        public HttpRequest newRequest(URI uri) {
            return new HttpRequest(this, uri);
        }

        @Override
        public String toString() {
            return HttpClient.this.toString();
        }
    }

    private static int positive(String name, int value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
        return value;
    }

    @Override
    public String toString() {
        return "HttpClient@" + Integer.toHexString(hashCode()) + "{" + state() + ", " + destinations.size() + " destinations}";
    }
}
