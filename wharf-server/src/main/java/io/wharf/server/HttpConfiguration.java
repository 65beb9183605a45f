package io.wharf.server;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.http.CookieCompliance;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpParser;
import io.wharf.http.UriCompliance;

/**
 * How the server speaks HTTP, shared by every connection of the factories it is given to:
 * buffer and header sizes, whether to send {@code Date} and {@code Server}, compliance modes,
 * the minimum request data rate, and the request customizers (e.g. {@code Forwarded}).
 * Set it up before the server starts; it is read, not locked, while running.
 */
public class HttpConfiguration {

    /** Changes a request before handlers see it, e.g. to apply {@code Forwarded} headers. */
    @FunctionalInterface
    public interface Customizer {
        /**
         * @param request the request as received
         * @param responseHeaders the response's headers, to add to
         * @return the request handlers should see: {@code request} itself or a wrapper of it
         */
        Request customize(Request request, HttpFields.Mutable responseHeaders);
    }

    private int requestHeaderSize = 8192;
    private int requestUriSize = 8192;
    private int maxRequestFields = 100;
    private int responseHeaderSize = 8192;
    private int inputBufferSize = 8192;
    private int outputBufferSize = 32768;
    private boolean sendDateHeader = true;
    private boolean sendServerVersion = true;
    private HttpCompliance httpCompliance = HttpCompliance.RFC9112;
    private UriCompliance uriCompliance = UriCompliance.DEFAULT;
    private CookieCompliance cookieCompliance = CookieCompliance.RFC6265;
    private long minRequestDataRate;
    private Duration headerTimeout = Duration.ofSeconds(30);
    private long maxUnconsumedRequestContent = 16 * 1024;
    private String secureScheme = "https";
    private int securePort;
    private final List<Customizer> customizers = new CopyOnWriteArrayList<>();
    /** Made again by the setters it depends on, so every connection shares one instance. */
    private HttpParser.Limits parserLimits = parserLimits();

    /**
     * @return the most bytes of a request's header fields, each line with its line end, and the
     *     empty line after them (default 8192): more is 431. The request line is not counted
     *     here but against {@link #getRequestUriSize()}.
     */
    public int getRequestHeaderSize() {
        return requestHeaderSize;
    }

    public void setRequestHeaderSize(int size) {
        this.requestHeaderSize = positive(size, "request header size");
        this.parserLimits = parserLimits();
    }

    /**
     * @return the longest request target, in bytes (default 8192): longer is 414 URI Too Long.
     *     Over HTTP/1.1 it bounds the whole request line (method, target, version and line end),
     *     over HTTP/2 the {@code :path}.
     */
    public int getRequestUriSize() {
        return requestUriSize;
    }

    public void setRequestUriSize(int size) {
        this.requestUriSize = positive(size, "request URI size");
        this.parserLimits = parserLimits();
    }

    /** @return the most header fields in a request (default 100): more is 431 */
    public int getMaxRequestFields() {
        return maxRequestFields;
    }

    public void setMaxRequestFields(int count) {
        this.maxRequestFields = positive(count, "max request fields");
        this.parserLimits = parserLimits();
    }

    /** @return the most bytes of a response's status line and fields (default 8192) */
    public int getResponseHeaderSize() {
        return responseHeaderSize;
    }

    public void setResponseHeaderSize(int size) {
        this.responseHeaderSize = positive(size, "response header size");
    }

    /** @return the size of the buffer a connection reads into (default 8192) */
    public int getInputBufferSize() {
        return inputBufferSize;
    }

    public void setInputBufferSize(int size) {
        this.inputBufferSize = positive(size, "input buffer size");
    }

    /** @return the size of the aggregation buffer of blocking response streams (default 32 KiB) */
    public int getOutputBufferSize() {
        return outputBufferSize;
    }

    public void setOutputBufferSize(int size) {
        this.outputBufferSize = positive(size, "output buffer size");
    }

    /** @return whether responses carry a {@code Date} (default true) */
    public boolean isSendDateHeader() {
        return sendDateHeader;
    }

    public void setSendDateHeader(boolean send) {
        this.sendDateHeader = send;
    }

    /** @return whether responses carry {@code Server: wharf} (default true) */
    public boolean isSendServerVersion() {
        return sendServerVersion;
    }

    public void setSendServerVersion(boolean send) {
        this.sendServerVersion = send;
    }

    /**
     * @return the scheme of this server's secure connector, {@code https} unless set; where a
     *     request that must be confidential (a servlet {@code CONFIDENTIAL} constraint) is sent
     */
    public String getSecureScheme() {
        return secureScheme;
    }

    public void setSecureScheme(String scheme) {
        this.secureScheme = java.util.Objects.requireNonNull(scheme, "scheme");
    }

    /**
     * @return the port of this server's secure connector, or 0 when there is none known (then a
     *     request that must be confidential is refused with 403 instead of redirected)
     */
    public int getSecurePort() {
        return securePort;
    }

    public void setSecurePort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("secure port must be 0 (none) to 65535: " + port);
        }
        this.securePort = port;
    }

    /** @return the HTTP/1 parsing mode (default strict {@link HttpCompliance#RFC9112}) */
    public HttpCompliance getHttpCompliance() {
        return httpCompliance;
    }

    public void setHttpCompliance(HttpCompliance compliance) {
        this.httpCompliance = compliance;
    }

    /** @return which URI ambiguities are allowed (default none) */
    public UriCompliance getUriCompliance() {
        return uriCompliance;
    }

    public void setUriCompliance(UriCompliance compliance) {
        this.uriCompliance = compliance;
    }

    /**
     * @return the mode {@link Request#getCookies} parses {@code Cookie} headers in, over
     *     HTTP/1.1 and HTTP/2 alike (default strict {@link CookieCompliance#RFC6265})
     */
    public CookieCompliance getCookieCompliance() {
        return cookieCompliance;
    }

    public void setCookieCompliance(CookieCompliance compliance) {
        this.cookieCompliance = compliance;
    }

    /**
     * @return the least bytes per second a client must send while a request is being read
     *     (its header, then its content), measured after the first second; 0 (the default)
     *     for no minimum. A slower client gets 408 and is closed.
     */
    public long getMinRequestDataRate() {
        return minRequestDataRate;
    }

    public void setMinRequestDataRate(long bytesPerSecond) {
        if (bytesPerSecond < 0) {
            throw new IllegalArgumentException("min request data rate must not be negative: " + bytesPerSecond);
        }
        this.minRequestDataRate = bytesPerSecond;
    }

    /** @return how long a request's header may take to arrive once it started (default 30 s) */
    public Duration getHeaderTimeout() {
        return headerTimeout;
    }

    public void setHeaderTimeout(Duration timeout) {
        this.headerTimeout = timeout;
    }

    /**
     * @return how many bytes of request content a handler left unread the server reads and
     *     drops to keep the connection; more and the connection closes (default 16 KiB)
     */
    public long getMaxUnconsumedRequestContent() {
        return maxUnconsumedRequestContent;
    }

    public void setMaxUnconsumedRequestContent(long bytes) {
        this.maxUnconsumedRequestContent = bytes;
    }

    /** @return the parser limits these settings make: the same instance until a setting they depend on changes */
    public HttpParser.Limits toParserLimits() {
        return parserLimits;
    }

    private HttpParser.Limits parserLimits() {
        return HttpParser.Limits.DEFAULT.withMaxHeaderBytes(requestHeaderSize)
                .withMaxRequestLineBytes(requestUriSize)
                .withMaxFields(maxRequestFields);
    }

    /** Adds a request customizer, run in order before handlers. */
    public void addCustomizer(Customizer customizer) {
        customizers.add(customizer);
    }

    /** @return the customizers, in order */
    public List<Customizer> getCustomizers() {
        return customizers;
    }

    private static int positive(int value, String what) {
        if (value <= 0) {
            throw new IllegalArgumentException(what + " must be positive: " + value);
        }
        return value;
    }
}
