package io.wharf.server.http2.internal;

import io.wharf.http.HostPort;

/**
 * A connection's last parsed {@code :authority} (or {@code Host}): a client names the same
 * authority on every stream of a connection, so it is parsed once, not once per request, as
 * HTTP/1.1 does with its {@code Host} line. Any other text is parsed and becomes the last.
 *
 * <p><b>Threads.</b> Asked by whichever thread builds a request's URI (the reading thread, or an
 * executor thread for a blocking handler tree). The text and its parse are kept together in one
 * immutable record behind a plain field: a thread sees an older or a newer pair, never a mixed
 * one, and either is right for the text it matches.
 */
final class LastAuthority {

    private record Parsed(String text, HostPort hostPort) {
    }

    private Parsed last;

    /**
     * @param text a non-empty {@code :authority} or {@code Host} value
     * @return its host and port
     * @throws IllegalArgumentException when it is not an authority, as {@link HostPort#parse} says
     */
    HostPort parse(String text) {
        Parsed parsed = last;
        if (parsed != null && parsed.text.equals(text)) {
            return parsed.hostPort;
        }
        HostPort hostPort = HostPort.parse(text);
        last = new Parsed(text, hostPort);
        return hostPort;
    }
}
