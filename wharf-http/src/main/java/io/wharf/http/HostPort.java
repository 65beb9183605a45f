package io.wharf.http;

import java.util.Locale;
import java.util.Objects;

import io.wharf.http.internal.IpLiteral;
import io.wharf.http.internal.PrintableText;
import io.wharf.http.internal.UriCharacters;

/**
 * A host and an optional port, as in a {@code Host} header or the authority of a URI
 * (RFC 3986 section 3.2.2 and 3.2.3): a reg-name or IPv4 address ({@code example.com},
 * {@code 127.0.0.1}) or a bracketed IP-literal ({@code [::1]}), then {@code :port}.
 *
 * <p>{@link #parse} refuses, with an {@link IllegalArgumentException} naming the problem
 * (and never echoing more than one printable character of the input), a port above 65535 or
 * with a non-digit, an empty host, a host character outside the reg-name grammar (space,
 * {@code '@'}, {@code '/'}, {@code '\'}, controls) and a malformed or unterminated
 * IP-literal. The server calls it on the parsing thread for each {@code Host} header; the
 * result is immutable and safe to share, and holds no buffers. Linear in the input, no
 * regular expressions.
 */
public final class HostPort {

    /** The largest port number. */
    public static final int MAXIMUM_PORT = 65535;

    private static final HostPort EMPTY = new HostPort("", -1);

    private final String host;
    private final int port;

    private HostPort(String host, int port) {
        this.host = host;
        this.port = port;
    }

    /**
     * @param authority {@code host}, {@code host:port}, {@code [v6]} or {@code [v6]:port};
     *     an empty port ({@code "host:"}) counts as none
     * @return the host and port
     * @throws IllegalArgumentException naming what is wrong, including an empty host
     */
    public static HostPort parse(String authority) {
        if (authority.isEmpty()) {
            throw new IllegalArgumentException("empty host");
        }
        return read(authority);
    }

    /**
     * Like {@link #parse} but takes an empty value as no host, as a {@code Host} header may
     * be for a target URI without an authority (RFC 9112 section 3.2).
     *
     * @return the host and port, with an empty host and no port for an empty value
     */
    public static HostPort parseAllowingEmptyHost(String authority) {
        return authority.isEmpty() ? EMPTY : read(authority);
    }

    /**
     * @param host a reg-name, IPv4 address or bracketed IP-literal; an IPv6 address without
     *     brackets is given them
     * @param port the port, or -1 for none
     * @throws IllegalArgumentException when either is not valid
     */
    public static HostPort of(String host, int port) {
        Objects.requireNonNull(host, "host");
        if (port < -1 || port > MAXIMUM_PORT) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        String bracketed = host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
        HostPort checked = parse(bracketed);
        if (checked.port >= 0) {
            throw new IllegalArgumentException("host holds a port");
        }
        return new HostPort(checked.host, port);
    }

    private static HostPort read(String authority) {
        int hostEnd;
        if (authority.charAt(0) == '[') {
            int close = authority.indexOf(']');
            if (close < 0) {
                throw new IllegalArgumentException("unterminated IPv6 literal: no ']'");
            }
            if (!IpLiteral.isValid(authority, 1, close)) {
                throw new IllegalArgumentException("malformed IP literal in host");
            }
            hostEnd = close + 1;
            if (hostEnd < authority.length() && authority.charAt(hostEnd) != ':') {
                throw new IllegalArgumentException("unexpected character "
                        + PrintableText.describe(authority.charAt(hostEnd)) + " after IP literal");
            }
        } else {
            hostEnd = regNameEnd(authority);
            if (hostEnd == 0) {
                throw new IllegalArgumentException("empty host");
            }
        }
        String host = hostEnd == authority.length() ? authority : authority.substring(0, hostEnd);
        int port = hostEnd == authority.length() ? -1 : port(authority, hostEnd + 1);
        return new HostPort(host, port);
    }

    /** @return the index of the {@code ':'} ending the reg-name, or the length */
    private static int regNameEnd(String authority) {
        int colon = authority.indexOf(':');
        int end = colon < 0 ? authority.length() : colon;
        int bad = UriCharacters.firstNotEncodedText(authority, 0, end, "");
        if (bad >= 0) {
            char c = authority.charAt(bad);
            throw new IllegalArgumentException(c == '%'
                    ? "bad percent encoding in host"
                    : "illegal character " + PrintableText.describe(c) + " in host");
        }
        return end;
    }

    private static int port(String authority, int from) {
        int port = 0;
        for (int i = from; i < authority.length(); i++) {
            char c = authority.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("non-digit character " + PrintableText.describe(c) + " in port");
            }
            port = port * 10 + c - '0';
            if (port > MAXIMUM_PORT) {
                throw new IllegalArgumentException("port out of range: above " + MAXIMUM_PORT);
            }
        }
        return from == authority.length() ? -1 : port;
    }

    /** @return the host as given, an IP-literal with its brackets; empty only from {@link #parseAllowingEmptyHost} */
    public String getHost() {
        return host;
    }

    /** @return the port, or -1 when none was given */
    public int getPort() {
        return port;
    }

    /** @return the port, or {@code defaultPort} when none was given */
    public int getPort(int defaultPort) {
        return port < 0 ? defaultPort : port;
    }

    /** @return whether a port was given */
    public boolean hasPort() {
        return port >= 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof HostPort that && port == that.port && host.equalsIgnoreCase(that.host);
    }

    @Override
    public int hashCode() {
        return host.toLowerCase(Locale.ROOT).hashCode() * 31 + port;
    }

    /** @return {@code host} or {@code host:port} */
    @Override
    public String toString() {
        return port < 0 ? host : host + ":" + port;
    }
}
