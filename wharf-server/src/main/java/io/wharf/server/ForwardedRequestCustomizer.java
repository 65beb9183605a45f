package io.wharf.server;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpURI;
import io.wharf.http.HttpVersion;
import io.wharf.server.internal.AddressRange;
import io.wharf.server.internal.ForwardedValues;

/**
 * A request customizer for servers behind HTTP reverse proxies: it applies what the proxies
 * say about the original request — the RFC 7239 {@code Forwarded} header ({@code for=},
 * {@code proto=}, {@code host=}; {@code by=} is checked but not applied, it names the proxy)
 * or the de-facto {@code X-Forwarded-For}, {@code -Proto}, {@code -Host} and {@code -Port} —
 * to the request handlers see: {@link Request#getHttpURI()} gets the forwarded scheme, host
 * and port, {@link Request#isSecure()} is true for {@code https}, and the
 * {@link ConnectionMetaData#getRemoteSocketAddress()} is the forwarded client (an
 * unresolved {@link InetSocketAddress} for {@code unknown} or an obfuscated {@code _name}, with
 * port 0 when none was given). Opt in with {@link HttpConfiguration#addCustomizer}.
 *
 * <p><b>Trust.</b> Headers are applied only when the direct peer is a trusted proxy. By
 * default the trusted proxies are the loopback addresses ({@code 127.0.0.0/8}, {@code ::1})
 * and peers without an IP address (a Unix domain socket, whose access the file system
 * guards, or an in-memory connection); add others with {@link #addTrustedProxy(String)}, or
 * trust every peer with {@link #setTrustAllProxies(boolean)} when the network guarantees it.
 *
 * <p><b>Which hop.</b> With {@link ClientSelection#NEAREST_UNTRUSTED} (the default) the client is
 * found by walking the {@code for} list from the right — the end the nearest proxy wrote —
 * over trusted proxies, stopping at the first address that is not one: entries further left
 * were written by the client itself and may be forged. {@code proto} and {@code host} come
 * from that same element of {@code Forwarded}; for {@code X-Forwarded-Proto/-Host/-Port}, a
 * single value is used as is, a list as long as {@code X-Forwarded-For} at the same index,
 * any other list at its rightmost value. With {@link ClientSelection#FIRST} the first entry
 * of each list is believed, which is only safe when the edge proxy replaces the headers.
 *
 * <p><b>Precedence and errors.</b> A well-formed {@code Forwarded} header, when honoured,
 * wins and the {@code X-Forwarded-*} headers are then ignored. A malformed header, or one
 * with a value that cannot apply (a {@code proto} other than {@code http} or {@code https},
 * a bad host or port), is ignored as a whole, and the request keeps what the connection
 * says; a customizer never fails a request. Values are never echoed anywhere.
 *
 * <p>Configure before the server starts; {@link #customize} runs on the thread handling
 * each request and only reads the configuration.
 */
public class ForwardedRequestCustomizer implements HttpConfiguration.Customizer {

    /** The headers the customizer may honour. */
    public enum Source {
        FORWARDED, X_FORWARDED_FOR, X_FORWARDED_PROTO, X_FORWARDED_HOST, X_FORWARDED_PORT
    }

    /** Which entry of a list of hops names the client. */
    public enum ClientSelection {
        /** The leftmost entry: only safe when the edge proxy replaces, not appends to, the headers. */
        FIRST,
        /** The rightmost entry that is not a trusted proxy. */
        NEAREST_UNTRUSTED
    }

    private static final List<AddressRange> LOOPBACK = List.of(AddressRange.parse("127.0.0.0/8"), AddressRange.parse("::1"));

    private final List<AddressRange> trustedProxies = new CopyOnWriteArrayList<>(LOOPBACK);
    private volatile Set<Source> sources = EnumSet.allOf(Source.class);
    private volatile ClientSelection clientSelection = ClientSelection.NEAREST_UNTRUSTED;
    private volatile boolean trustAllProxies;

    /** @return the headers honoured (default all) */
    public Set<Source> getSources() {
        return EnumSet.copyOf(sources);
    }

    /** @param sources the headers to honour; the others are ignored */
    public void setSources(Set<Source> sources) {
        this.sources = sources.isEmpty() ? EnumSet.noneOf(Source.class) : EnumSet.copyOf(sources);
    }

    /** @param forwardedOnly true to honour only the standard {@code Forwarded} header, false for all */
    public void setForwardedOnly(boolean forwardedOnly) {
        setSources(forwardedOnly ? EnumSet.of(Source.FORWARDED) : EnumSet.allOf(Source.class));
    }

    /** @return whether only {@code Forwarded} is honoured */
    public boolean isForwardedOnly() {
        return sources.equals(EnumSet.of(Source.FORWARDED));
    }

    public ClientSelection getClientSelection() {
        return clientSelection;
    }

    /** @param selection which hop names the client (default {@link ClientSelection#NEAREST_UNTRUSTED}) */
    public void setClientSelection(ClientSelection selection) {
        this.clientSelection = java.util.Objects.requireNonNull(selection, "selection");
    }

    /**
     * Trusts a proxy address or block besides the loopback defaults.
     *
     * @param addressOrCidr an IP literal ({@code 192.0.2.7}, {@code ::1}) or a CIDR block ({@code 10.0.0.0/8})
     * @throws IllegalArgumentException when it is neither
     */
    public void addTrustedProxy(String addressOrCidr) {
        trustedProxies.add(AddressRange.parse(addressOrCidr));
    }

    /** Forgets every trusted address, the loopback defaults included; peers without an IP address stay trusted. */
    public void clearTrustedProxies() {
        trustedProxies.clear();
    }

    public boolean isTrustAllProxies() {
        return trustAllProxies;
    }

    /** @param trustAll true to apply the headers whoever the peer is (default false) */
    public void setTrustAllProxies(boolean trustAll) {
        this.trustAllProxies = trustAll;
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        if (!isTrustedPeer(request.getConnectionMetaData().getRemoteSocketAddress())) {
            return request;
        }
        HttpFields headers = request.getHeaders();
        Forwarding forwarding = null;
        if (sources.contains(Source.FORWARDED)) {
            forwarding = fromForwarded(values(headers, HttpHeader.FORWARDED));
        }
        if (forwarding == null) {
            forwarding = fromXForwarded(headers);
        }
        if (forwarding == null || forwarding.isEmpty()) {
            return request;
        }
        return forwarding.apply(request);
    }

    private boolean isTrustedPeer(SocketAddress peer) {
        if (peer instanceof InetSocketAddress inet) {
            return inet.getAddress() != null && isTrusted(inet.getAddress());
        }
        // A Unix domain socket or an in-memory connection: the peer is on this host.
        return true;
    }

    private boolean isTrusted(InetAddress address) {
        if (trustAllProxies) {
            return true;
        }
        for (AddressRange range : trustedProxies) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
    }

    /** @return the values of every field named {@code header}, in order */
    private static List<String> values(HttpFields headers, HttpHeader header) {
        List<String> values = new ArrayList<>(1);
        for (HttpField field : headers) {
            if (field.is(header.asString())) {
                values.add(field.getValue());
            }
        }
        return values;
    }

    /** @return the index of the entry naming the client among {@code nodes} (null entries are unknown) */
    private int chooseHop(List<ForwardedValues.Node> nodes) {
        if (clientSelection == ClientSelection.FIRST) {
            return 0;
        }
        for (int i = nodes.size() - 1; i > 0; i--) {
            ForwardedValues.Node node = nodes.get(i);
            if (node == null || node.address() == null || !isTrusted(node.address())) {
                return i;
            }
        }
        return 0;
    }

    /** @return what a well-formed Forwarded header says, or null when it is absent or not usable */
    private Forwarding fromForwarded(List<String> fieldValues) {
        if (fieldValues.isEmpty()) {
            return null;
        }
        List<Map<String, String>> elements = ForwardedValues.forwardedElements(fieldValues);
        if (elements == null) {
            return null;
        }
        List<ForwardedValues.Node> nodes = new ArrayList<>(elements.size());
        for (Map<String, String> element : elements) {
            String by = element.get("by");
            if (by != null && ForwardedValues.forwardedNode(by) == null) {
                return null;
            }
            String forValue = element.get("for");
            ForwardedValues.Node node = forValue == null ? null : ForwardedValues.forwardedNode(forValue);
            if (forValue != null && node == null) {
                return null;
            }
            nodes.add(node);
        }
        int hop = chooseHop(nodes);
        Map<String, String> chosen = elements.get(hop);
        ForwardedValues.Node client = nodes.get(hop);
        String scheme = chosen.get("proto");
        if (scheme != null && (scheme = scheme(scheme)) == null) {
            return null;
        }
        HostPort host = null;
        if (chosen.containsKey("host") && (host = hostPort(chosen.get("host"))) == null) {
            return null;
        }
        return new Forwarding(client == null ? null : client.toSocketAddress(), scheme, host, -1);
    }

    /** @return what the X-Forwarded-* headers honoured say; parts that are malformed are left out */
    private Forwarding fromXForwarded(HttpFields headers) {
        List<String> forwardedFor = sources.contains(Source.X_FORWARDED_FOR) ? list(headers, HttpHeader.X_FORWARDED_FOR) : null;
        List<ForwardedValues.Node> nodes = null;
        if (forwardedFor != null) {
            nodes = new ArrayList<>(forwardedFor.size());
            for (String element : forwardedFor) {
                ForwardedValues.Node node = ForwardedValues.forwardedForNode(element);
                if (node == null) {
                    nodes = null;
                    break;
                }
                nodes.add(node);
            }
        }
        int hop = nodes == null ? -1 : chooseHop(nodes);
        int hops = nodes == null ? 0 : nodes.size();
        SocketAddress client = nodes == null ? null : nodes.get(hop).toSocketAddress();

        String proto = pick(sources.contains(Source.X_FORWARDED_PROTO) ? list(headers, HttpHeader.X_FORWARDED_PROTO) : null, hop, hops);
        String scheme = proto == null ? null : scheme(proto);
        String hostText = pick(sources.contains(Source.X_FORWARDED_HOST) ? list(headers, HttpHeader.X_FORWARDED_HOST) : null, hop, hops);
        HostPort host = hostText == null ? null : hostPort(hostText);
        String portText = pick(sources.contains(Source.X_FORWARDED_PORT) ? list(headers, HttpHeader.X_FORWARDED_PORT) : null, hop, hops);
        int port = portText == null ? -1 : ForwardedValues.port(portText);
        return new Forwarding(client, scheme, host, port);
    }

    /** @return the comma-separated elements of the header, or null when absent or with an empty element */
    private static List<String> list(HttpFields headers, HttpHeader header) {
        List<String> values = values(headers, header);
        if (values.isEmpty()) {
            return null;
        }
        List<String> elements = ForwardedValues.commaList(values);
        return elements == null || elements.isEmpty() ? null : elements;
    }

    /** @return the value of a list for the chosen hop; see the class comment */
    private String pick(List<String> values, int hop, int hops) {
        if (values == null) {
            return null;
        }
        if (values.size() == 1 || clientSelection == ClientSelection.FIRST) {
            return values.get(0);
        }
        return values.size() == hops && hop >= 0 ? values.get(hop) : values.get(values.size() - 1);
    }

    /** @return {@code "http"} or {@code "https"}, or null for anything else */
    private static String scheme(String proto) {
        String scheme = proto.toLowerCase(Locale.ROOT);
        return scheme.equals("http") || scheme.equals("https") ? scheme : null;
    }

    private static HostPort hostPort(String text) {
        try {
            HostPort host = HostPort.parse(text);
            return host.hasPort() && host.getPort() == 0 ? null : host;
        } catch (IllegalArgumentException x) {
            return null;
        }
    }

    /**
     * What the proxies said: each part null (or -1) when not said or not usable.
     *
     * @param client the client's address
     * @param scheme {@code http} or {@code https}
     * @param host the host, with a port when one was given
     * @param port the port of {@code X-Forwarded-Port}
     */
    private record Forwarding(SocketAddress client, String scheme, HostPort host, int port) {

        boolean isEmpty() {
            return client == null && scheme == null && host == null && port < 0;
        }

        Request apply(Request request) {
            HttpURI original = request.getHttpURI();
            HttpURI uri = original;
            if (scheme != null || host != null || port > 0) {
                HttpURI.Builder builder = HttpURI.build(original);
                if (scheme != null) {
                    builder.scheme(scheme);
                }
                if (host != null) {
                    builder.host(host.getHost()).port(host.hasPort() ? host.getPort() : port > 0 ? port : -1);
                } else if (port > 0) {
                    builder.port(port);
                } else if (scheme != null && !scheme.equals(original.getScheme())) {
                    // The internal port means nothing for the forwarded scheme: use its default.
                    builder.port(-1);
                }
                uri = builder.asImmutable();
            }
            boolean secure = scheme != null ? scheme.equals("https") : request.isSecure();
            return new ForwardedRequest(request, uri, secure, client);
        }
    }

    /** The request as forwarded. */
    private static final class ForwardedRequest extends Request.Wrapper {
        private final HttpURI uri;
        private final boolean secure;
        private final ConnectionMetaData metaData;

        ForwardedRequest(Request wrapped, HttpURI uri, boolean secure, SocketAddress client) {
            super(wrapped);
            this.uri = uri;
            this.secure = secure;
            this.metaData = new ForwardedMetaData(wrapped.getConnectionMetaData(), secure, client);
        }

        @Override
        public HttpURI getHttpURI() {
            return uri;
        }

        @Override
        public boolean isSecure() {
            return secure;
        }

        @Override
        public ConnectionMetaData getConnectionMetaData() {
            return metaData;
        }
    }

    /** The connection as the client saw it: forwarded remote address and security, the rest as is. */
    private record ForwardedMetaData(ConnectionMetaData wrapped, boolean secure, SocketAddress client) implements ConnectionMetaData {
        @Override
        public String getId() {
            return wrapped.getId();
        }

        @Override
        public String getProtocol() {
            return wrapped.getProtocol();
        }

        @Override
        public HttpVersion getHttpVersion() {
            return wrapped.getHttpVersion();
        }

        @Override
        public Connector getConnector() {
            return wrapped.getConnector();
        }

        @Override
        public HttpConfiguration getHttpConfiguration() {
            return wrapped.getHttpConfiguration();
        }

        @Override
        public SocketAddress getRemoteSocketAddress() {
            return client != null ? client : wrapped.getRemoteSocketAddress();
        }

        @Override
        public SocketAddress getLocalSocketAddress() {
            return wrapped.getLocalSocketAddress();
        }

        @Override
        public boolean isSecure() {
            return secure;
        }

        @Override
        public boolean isPersistent() {
            return wrapped.isPersistent();
        }

        @Override
        public Optional<ProxyHeader> getProxyHeader() {
            return wrapped.getProxyHeader();
        }
    }
}
