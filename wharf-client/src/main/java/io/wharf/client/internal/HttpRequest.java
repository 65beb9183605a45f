package io.wharf.client.internal;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

import io.wharf.client.BufferingResponseListener;
import io.wharf.client.ContentResponse;
import io.wharf.client.Origin;
import io.wharf.client.Request;
import io.wharf.client.RequestContent;
import io.wharf.client.Response;
import io.wharf.client.internal.content.FormEncoding;
import io.wharf.client.internal.route.ForwardProxy;
import io.wharf.client.transport.ClientSettings;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;

/**
 * The client's {@link Request}: what the application set, then the link to its exchange once
 * sent. Built by one thread; after {@link #send(Response.Listener)} only {@link #abort} and
 * the getters may be called, from any thread, and the writer (one thread at a time) adds the
 * fields it sends. Holds no buffer.
 */
public final class HttpRequest implements Request {

    private final ClientContext context;
    /** The client's settings when this request (or the first of its conversation) was made. */
    private final ClientSettings settings;
    private final String scheme;
    private final String host;
    private final int port;
    private final String path;
    private String query;
    private String method = "GET";
    private HttpVersion version = HttpVersion.HTTP_1_1;
    private final HttpFields.Mutable headers = HttpFields.build(8);
    private RequestContent content;
    private Duration timeout;
    private Duration idleTimeout;
    private Object tag;
    /**
     * {@link #getURI()} and {@link #getOrigin()} as last made, for the next calls (several per
     * request: cookies, the destination, credentials); forgotten when the query or the tag
     * changes. Immutable values, so a thread that reads a stale null just makes them again.
     */
    private URI uri;
    private Origin origin;
    private boolean followRedirects;
    private int maxRedirects;
    private Map<String, Object> attributes;
    private final RequestEvents events = new RequestEvents();
    private final List<Response.Listener> responseListeners = new ArrayList<>(2);
    private volatile Function<Request, Response.Listener> pushes;
    private final AtomicBoolean sent = new AtomicBoolean();
    private final AtomicReference<Throwable> abortCause = new AtomicReference<>();
    private volatile HttpExchange exchange;
    /** The redirects and challenges followed on this request's behalf, set when it is sent. */
    private volatile Conversation conversation;

    /**
     * @throws IllegalArgumentException when {@code uri} is not an absolute http or https URI with a host
     */
    public HttpRequest(ClientContext context, URI uri) {
        this(context, context.settings(), uri);
    }

    private HttpRequest(ClientContext context, ClientSettings settings, URI uri) {
        this.context = Objects.requireNonNull(context, "context");
        this.settings = settings;
        String uriScheme = uri.getScheme();
        if (uriScheme == null || uri.getHost() == null) {
            throw new IllegalArgumentException("not an absolute URI with a host: " + uri);
        }
        if (!"http".equalsIgnoreCase(uriScheme) && !"https".equalsIgnoreCase(uriScheme)) {
            throw new IllegalArgumentException("unsupported scheme " + uriScheme + " in " + uri
                    + ": this client speaks http and https");
        }
        this.scheme = uriScheme.toLowerCase(Locale.ROOT);
        this.host = uri.getHost();
        this.port = uri.getPort() > 0 ? uri.getPort() : Origin.defaultPort(scheme);
        String rawPath = uri.getRawPath();
        this.path = rawPath == null || rawPath.isEmpty() ? "/" : rawPath;
        this.query = uri.getRawQuery();
        this.timeout = settings.requestTimeout();
        this.followRedirects = settings.followRedirects();
        this.maxRedirects = settings.maxRedirects();
    }

    /** @return the client's settings this request goes by: those of the moment it (or its conversation's first request) was made */
    public ClientSettings settings() {
        return settings;
    }

    /**
     * @return a request to {@code uri} with this one's method, version, idle timeout, tag,
     *     redirect settings, attributes and request listeners (but no fields, content or total
     *     timeout), already counted as sent: the next hop of a conversation
     * @throws IllegalArgumentException when {@code uri} is not one the client can send to
     */
    HttpRequest copyFor(URI uri) {
        HttpRequest hop = new HttpRequest(context, settings, uri);
        hop.method = method;
        hop.version = version;
        hop.idleTimeout = idleTimeout;
        hop.timeout = null;
        hop.tag = tag;
        hop.followRedirects = followRedirects;
        hop.maxRedirects = maxRedirects;
        hop.attributes = attributes == null ? null : new LinkedHashMap<>(attributes);
        events.copyTo(hop.events);
        hop.conversation = conversation;
        hop.sent.set(true);
        return hop;
    }

    /** @return the fields, to change; for the conversation, before the request is dispatched */
    HttpFields.Mutable headers() {
        return headers;
    }

    public RequestEvents events() {
        return events;
    }

    // ---- what the application sets ----

    @Override
    public String getMethod() {
        return method;
    }

    @Override
    public Request method(String method) {
        this.method = Objects.requireNonNull(method, "method");
        return this;
    }

    @Override
    public URI getURI() {
        URI made = uri;
        if (made == null) {
            made = URI.create(scheme + "://" + getOrigin().authority() + path + (query == null ? "" : "?" + query));
            uri = made;
        }
        return made;
    }

    private String hostForUri() {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    @Override
    public Origin getOrigin() {
        Origin made = origin;
        if (made == null) {
            made = new Origin(scheme, hostForUri(), port, tag);
            origin = made;
        }
        return made;
    }

    @Override
    public String getPath() {
        return path;
    }

    @Override
    public String getQuery() {
        return query;
    }

    @Override
    public Request param(String name, String value) {
        String pair = FormEncoding.encodeQueryComponent(name) + "=" + FormEncoding.encodeQueryComponent(value == null ? "" : value);
        query = query == null || query.isEmpty() ? pair : query + "&" + pair;
        uri = null;
        return this;
    }

    @Override
    public HttpVersion getVersion() {
        return version;
    }

    @Override
    public Request version(HttpVersion version) {
        if (version != HttpVersion.HTTP_1_1 && version != HttpVersion.HTTP_1_0) {
            throw new IllegalArgumentException("this client sends HTTP/1.1 or HTTP/1.0, not " + version);
        }
        this.version = version;
        return this;
    }

    @Override
    public HttpFields getHeaders() {
        return headers;
    }

    @Override
    public Request header(String name, String value) {
        headers.add(name, value);
        return this;
    }

    @Override
    public Request putHeader(String name, String value) {
        headers.put(name, value);
        return this;
    }

    @Override
    public RequestContent getContent() {
        return content;
    }

    @Override
    public Request content(RequestContent content) {
        this.content = content;
        return this;
    }

    @Override
    public Duration getTimeout() {
        return timeout;
    }

    @Override
    public Request timeout(Duration timeout) {
        this.timeout = positive("timeout", timeout);
        return this;
    }

    @Override
    public Duration getIdleTimeout() {
        return idleTimeout;
    }

    @Override
    public Request idleTimeout(Duration idleTimeout) {
        this.idleTimeout = positive("idle timeout", idleTimeout);
        return this;
    }

    private static Duration positive(String what, Duration duration) {
        if (duration != null && (duration.isNegative() || duration.isZero())) {
            throw new IllegalArgumentException(what + " must be positive: " + duration);
        }
        return duration;
    }

    @Override
    public boolean isFollowRedirects() {
        return followRedirects;
    }

    @Override
    public Request followRedirects(boolean follow) {
        this.followRedirects = follow;
        return this;
    }

    @Override
    public int getMaxRedirects() {
        return maxRedirects;
    }

    @Override
    public Request maxRedirects(int max) {
        if (max < 0) {
            throw new IllegalArgumentException("max redirects must not be negative: " + max);
        }
        this.maxRedirects = max;
        return this;
    }

    @Override
    public Request tag(Object tag) {
        this.tag = tag;
        origin = null;
        uri = null;
        return this;
    }

    @Override
    public Request attribute(String name, Object value) {
        if (attributes == null) {
            attributes = new LinkedHashMap<>(4);
        }
        attributes.put(name, value);
        return this;
    }

    @Override
    public Map<String, Object> getAttributes() {
        return attributes == null ? Map.of() : Collections.unmodifiableMap(attributes);
    }

    @Override
    public Request listener(Listener listener) {
        events.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    @Override
    public Request onResponse(Response.Listener listener) {
        responseListeners.add(Objects.requireNonNull(listener, "listener"));
        return this;
    }

    @Override
    public Request onPush(Function<Request, Response.Listener> pushes) {
        this.pushes = Objects.requireNonNull(pushes, "pushes");
        return this;
    }

    @Override
    public Function<Request, Response.Listener> getPushListener() {
        return pushes;
    }

    // ---- sending ----

    @Override
    public ContentResponse send() throws InterruptedException, TimeoutException, ExecutionException {
        CompletableFuture<ContentResponse> future = sendAsync();
        try {
            return future.get();
        } catch (InterruptedException x) {
            abort(x);
            throw x;
        } catch (ExecutionException x) {
            if (x.getCause() instanceof TimeoutException timedOut) {
                throw timedOut;
            }
            throw x;
        } catch (CancellationException x) {
            throw new ExecutionException(x);
        }
    }

    @Override
    public CompletableFuture<ContentResponse> sendAsync() {
        BufferingResponseListener listener = new BufferingResponseListener(settings.maxResponseContentBytes());
        send(listener);
        return listener.future();
    }

    @Override
    public void send(Response.Listener listener) {
        if (!sent.compareAndSet(false, true)) {
            throw new IllegalStateException("already sent: " + this);
        }
        List<Response.Listener> listeners = new ArrayList<>(responseListeners);
        listeners.add(Objects.requireNonNull(listener, "listener"));
        Conversation started = new Conversation(context, this, listeners);
        conversation = started;
        started.start();
    }

    /** Sends this request as one hop of its conversation; {@code hop} hears its response. Once per request. */
    void dispatch(Response.Listener hop) {
        HttpDestination destination = context.destination(getOrigin());
        List<Response.Listener> listeners = new ArrayList<>(2);
        if (destination.getForwardProxy() != null) {
            // First, so that a proxy's 407 fails the exchange before the hop's listener hears more.
            listeners.add(destination.getForwardProxy());
        }
        listeners.add(hop);
        HttpExchange created = new HttpExchange(destination, this, listeners);
        exchange = created;
        Throwable aborted = abortCause.get();
        if (aborted != null) {
            created.abort(aborted);
            return;
        }
        destination.send(created);
    }

    @Override
    public boolean abort(Throwable cause) {
        Objects.requireNonNull(cause, "cause");
        if (!abortCause.compareAndSet(null, cause)) {
            return false;
        }
        HttpExchange current = exchange;
        if (current == null || current.abort(cause)) {
            return true;
        }
        Conversation followed = conversation;
        if (followed != null && followed.abortAfter(this, cause)) {
            // The exchange had ended with a redirect or a challenge: what follows is aborted.
            return true;
        }
        // The exchange had already ended: nothing was aborted.
        abortCause.compareAndSet(cause, null);
        return false;
    }

    @Override
    public Throwable getAbortCause() {
        return abortCause.get();
    }

    // ---- for the writer ----

    /**
     * Adds the fields the client sends unless the application set them (Host, User-Agent,
     * Content-Type) and returns the head to write. Called by the writer's thread.
     */
    public MetaData.Request toMetaData() {
        HttpDestination destination = exchange.destination();
        if (!headers.contains(HttpHeader.HOST)) {
            headers.put(destination.hostField());
        }
        String agent = settings.userAgent();
        if (agent != null && !headers.contains(HttpHeader.USER_AGENT)) {
            headers.put(destination.userAgentField(agent));
        }
        long length = -1;
        if (content != null) {
            if (content.getContentType() != null && !headers.contains(HttpHeader.CONTENT_TYPE)) {
                headers.put(HttpHeader.CONTENT_TYPE, content.getContentType());
            }
            length = content.getLength();
        }
        String target = query == null ? path : path + "?" + query;
        ForwardProxy forward = destination.getForwardProxy();
        if (forward != null) {
            target = forward.requestTarget(getOrigin(), target);
            forward.authorize(headers);
        }
        return new MetaData.Request(method, target, version, headers, length, null);
    }

    @Override
    public String toString() {
        return method + " " + scheme + "://" + hostForUri() + ":" + port + path + (query == null ? "" : "?" + query)
                + " " + version;
    }
}
