package io.wharf.loadgen;

import java.net.URI;
import java.util.Locale;

import io.wharf.client.HttpTransport;

/**
 * The HTTP version a {@link LoadGenerator} speaks to its target, and the URI scheme it goes with:
 * HTTP/1.1 over {@code http} or {@code https}, h2c (HTTP/2 with prior knowledge) over
 * {@code http}, h2 (HTTP/2 chosen by ALPN) over {@code https}. Immutable.
 */
public enum Protocol {
    /** HTTP/1.1, plain or over TLS: one request at a time per connection. */
    HTTP_1_1("http/1.1", HttpTransport.HTTP_1_1),
    /** HTTP/2 over plain TCP with prior knowledge: many streams on one connection. */
    H2C("h2c", HttpTransport.HTTP_2),
    /** HTTP/2 over TLS, agreed by ALPN. */
    H2("h2", HttpTransport.HTTP_2);

    private final String token;
    private final HttpTransport transport;

    Protocol(String token, HttpTransport transport) {
        this.token = token;
        this.transport = transport;
    }

    /** @return the name on the command line: {@code http/1.1}, {@code h2c} or {@code h2} */
    public String token() {
        return token;
    }

    /** @return what the client is built with */
    public HttpTransport transport() {
        return transport;
    }

    /**
     * @return the protocol named {@code token} ({@code http/1.1}, {@code h2c}, {@code h2}, any case)
     * @throws IllegalArgumentException naming the accepted tokens for another one
     */
    public static Protocol of(String token) {
        for (Protocol protocol : values()) {
            if (protocol.token.equals(token.toLowerCase(Locale.ROOT))) {
                return protocol;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + token + "': expected http/1.1, h2c or h2");
    }

    /**
     * Checks that {@code target} has the scheme this protocol is spoken over.
     *
     * @throws IllegalArgumentException naming the protocol and the scheme it needs
     */
    public void check(URI target) {
        String scheme = target.getScheme() == null ? "" : target.getScheme().toLowerCase(Locale.ROOT);
        boolean fits = switch (this) {
            case HTTP_1_1 -> scheme.equals("http") || scheme.equals("https");
            case H2C -> scheme.equals("http");
            case H2 -> scheme.equals("https");
        };
        if (!fits) {
            throw new IllegalArgumentException(token + " cannot load " + target + ": "
                    + (this == H2 ? "h2 needs an https URL" : this == H2C ? "h2c needs an http URL" : "the URL must be http or https"));
        }
    }

    @Override
    public String toString() {
        return token;
    }
}
