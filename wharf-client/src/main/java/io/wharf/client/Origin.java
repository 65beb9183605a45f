package io.wharf.client;

import java.net.URI;
import java.util.Locale;
import java.util.Objects;

/**
 * Where requests go: a scheme, a host and a port, and an optional tag that keeps apart
 * requests to the same server that must not share connections. The key of a
 * {@link Destination}; immutable, any thread.
 *
 * @param scheme {@code http} (lower case)
 * @param host the host name or IP literal, lower case (an IPv6 literal in brackets)
 * @param port the port, 1 to 65535
 * @param tag an application's key to separate connections, or null
 */
public record Origin(String scheme, String host, int port, Object tag) {

    public Origin {
        scheme = Objects.requireNonNull(scheme, "scheme").toLowerCase(Locale.ROOT);
        host = Objects.requireNonNull(host, "host").toLowerCase(Locale.ROOT);
        if (host.isEmpty()) {
            throw new IllegalArgumentException("origin without a host");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
    }

    /** @return the origin of {@code uri}, its port defaulted from its scheme */
    public static Origin of(URI uri, Object tag) {
        String scheme = uri.getScheme();
        if (scheme == null || uri.getHost() == null) {
            throw new IllegalArgumentException("not an absolute URI with a host: " + uri);
        }
        return new Origin(scheme, uri.getHost(), uri.getPort() > 0 ? uri.getPort() : defaultPort(scheme), tag);
    }

    /** @return 443 for https and wss, otherwise 80 */
    public static int defaultPort(String scheme) {
        return switch (scheme.toLowerCase(Locale.ROOT)) {
            case "https", "wss" -> 443;
            default -> 80;
        };
    }

    /** @return the value of a Host field for this origin: the port only when not the scheme's default */
    public String authority() {
        return port == defaultPort(scheme) ? host : host + ":" + port;
    }

    @Override
    public String toString() {
        return scheme + "://" + host + ":" + port + (tag == null ? "" : "[" + tag + "]");
    }
}
