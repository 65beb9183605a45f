package io.wharf.client;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A proxy the client sends requests through, set with {@link HttpClient#setProxies}:
 * <ul>
 * <li>{@link #http} — an HTTP proxy: plain {@code http} requests go to it in absolute form
 *     ({@code GET http://host:port/path HTTP/1.1}); {@code https} requests go through a
 *     {@code CONNECT host:port} tunnel, and TLS runs end to end with the origin inside it.</li>
 * <li>{@link #socks5} — a SOCKS5 proxy (RFC 1928): a tunnel for both schemes; host names are
 *     sent unresolved, so the proxy resolves them.</li>
 * </ul>
 * {@link #withCredentials} adds a user name and password: sent as {@code Proxy-Authorization:
 * Basic} to an HTTP proxy (with every forwarded request and with each CONNECT), or as the
 * username/password method of RFC 1929 to a SOCKS5 proxy. {@link #excluding} names the hosts
 * that go direct instead.
 *
 * <pre>{@code
 * client.setProxies(List.of(
 *     Proxy.http("proxy.example", 3128).withCredentials("ann", "secret").excluding("localhost", "*.internal")));
 * }</pre>
 *
 * <p>Immutable: the {@code with}/{@code excluding} methods return new proxies. Any thread.
 * Equal proxies share destinations (and so connections); the password takes part in equality
 * but never in {@link #toString()}.
 */
public final class Proxy {

    /** The protocol spoken to the proxy. */
    public enum Kind {
        /** An HTTP/1.1 proxy: absolute-form requests for http, CONNECT tunnels for https. */
        HTTP,
        /** A SOCKS5 proxy: a tunnel for every request. */
        SOCKS5
    }

    private static final Pattern WITH_PORT = Pattern.compile("(.*[^:]):(\\d{1,5})");

    private final Kind kind;
    private final String host;
    private final int port;
    private final String username;
    private final String password;
    private final List<HostPattern> exclusions;

    private Proxy(Kind kind, String host, int port, String username, String password, List<HostPattern> exclusions) {
        this.kind = kind;
        this.host = host;
        this.port = port;
        this.username = username;
        this.password = password;
        this.exclusions = exclusions;
    }

    /** @return an HTTP proxy at {@code host:port}, for every destination, without credentials */
    public static Proxy http(String host, int port) {
        return new Proxy(Kind.HTTP, checkHost(host), checkPort(port), null, null, List.of());
    }

    /** @return a SOCKS5 proxy at {@code host:port}, for every destination, without credentials */
    public static Proxy socks5(String host, int port) {
        return new Proxy(Kind.SOCKS5, checkHost(host), checkPort(port), null, null, List.of());
    }

    /**
     * @return this proxy with a user name and password (HTTP: Basic, in UTF-8; SOCKS5: RFC 1929,
     *     where each must take 1 to 255 bytes in UTF-8)
     */
    public Proxy withCredentials(String username, String password) {
        Objects.requireNonNull(username, "username");
        Objects.requireNonNull(password, "password");
        if (kind == Kind.SOCKS5) {
            checkSocksCredential("user name", username);
            checkSocksCredential("password", password);
        } else if (username.indexOf(':') >= 0) {
            throw new IllegalArgumentException("a Basic user name cannot hold ':': " + username);
        }
        return new Proxy(kind, host, port, username, password, exclusions);
    }

    /**
     * @param hostPatterns hosts whose requests go direct: a host name or IP literal (IPv6 in
     *     brackets), where {@code *} stands for any characters ({@code *.internal},
     *     {@code 10.*}), optionally followed by {@code :port} to exclude only that port; case
     *     does not matter
     * @return this proxy with these exclusions added
     * @throws IllegalArgumentException when a pattern is empty or malformed
     */
    public Proxy excluding(String... hostPatterns) {
        List<HostPattern> all = new ArrayList<>(exclusions);
        for (String pattern : hostPatterns) {
            all.add(HostPattern.parse(pattern));
        }
        return new Proxy(kind, host, port, username, password, List.copyOf(all));
    }

    /** @return whether requests to {@code origin} go through this proxy (none of its exclusions matches) */
    public boolean appliesTo(Origin origin) {
        for (HostPattern exclusion : exclusions) {
            if (exclusion.matches(origin)) {
                return false;
            }
        }
        return true;
    }

    public Kind getKind() {
        return kind;
    }

    /** @return the proxy's host name or IP literal, as given */
    public String getHost() {
        return host;
    }

    public int getPort() {
        return port;
    }

    /** @return the user name sent to the proxy, or null when none */
    public String getUsername() {
        return username;
    }

    /** @return the password sent to the proxy, or null when none */
    public String getPassword() {
        return password;
    }

    /** @return whether credentials are set */
    public boolean hasCredentials() {
        return username != null;
    }

    /** @return the exclusion patterns, as given (normalized to lower case) */
    public List<String> getExclusions() {
        return exclusions.stream().map(HostPattern::text).toList();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Proxy that && kind == that.kind && port == that.port && host.equals(that.host)
                && Objects.equals(username, that.username) && Objects.equals(password, that.password)
                && exclusions.equals(that.exclusions);
    }

    @Override
    public int hashCode() {
        return Objects.hash(kind, host, port, username, exclusions);
    }

    /** @return for example {@code http://127.0.0.1:3128} or {@code socks5://ann@127.0.0.1:1080} (never the password) */
    @Override
    public String toString() {
        String authority = (host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host) + ":" + port;
        return kind.name().toLowerCase(Locale.ROOT) + "://" + (username == null ? "" : username + "@") + authority;
    }

    private static String checkHost(String host) {
        Objects.requireNonNull(host, "host");
        if (host.isBlank()) {
            throw new IllegalArgumentException("proxy without a host");
        }
        return host;
    }

    private static int checkPort(int port) {
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("proxy port out of range: " + port);
        }
        return port;
    }

    private static void checkSocksCredential(String what, String value) {
        int length = value.getBytes(StandardCharsets.UTF_8).length;
        if (length < 1 || length > 255) {
            throw new IllegalArgumentException("a SOCKS5 " + what + " takes 1 to 255 bytes in UTF-8, not " + length);
        }
    }

    /** One exclusion: a host glob and an optional port (-1: any). */
    private record HostPattern(String text, Pattern host, int port) {

        static HostPattern parse(String text) {
            Objects.requireNonNull(text, "host pattern");
            String normalized = text.trim().toLowerCase(Locale.ROOT);
            String hostPart = normalized;
            int port = -1;
            Matcher withPort = WITH_PORT.matcher(normalized);
            if (withPort.matches() && (withPort.group(1).indexOf(':') < 0 || withPort.group(1).endsWith("]"))) {
                hostPart = withPort.group(1);
                port = Integer.parseInt(withPort.group(2));
                checkPort(port);
            }
            if (hostPart.isEmpty()) {
                throw new IllegalArgumentException("empty host pattern: '" + text + "'");
            }
            if (hostPart.indexOf(':') >= 0 && !(hostPart.startsWith("[") && hostPart.endsWith("]"))) {
                throw new IllegalArgumentException("host pattern '" + text + "': write IPv6 literals in brackets, [::1]");
            }
            StringBuilder regex = new StringBuilder();
            for (String literal : hostPart.split("\\*", -1)) {
                if (!regex.isEmpty()) {
                    regex.append(".*");
                }
                regex.append(Pattern.quote(literal));
            }
            return new HostPattern(normalized, Pattern.compile(regex.toString()), port);
        }

        boolean matches(Origin origin) {
            return (port < 0 || port == origin.port()) && host.matcher(origin.host()).matches();
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof HostPattern that && text.equals(that.text);
        }

        @Override
        public int hashCode() {
            return text.hashCode();
        }
    }
}
