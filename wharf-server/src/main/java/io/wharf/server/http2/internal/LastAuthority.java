package io.wharf.server.http2.internal;

import io.wharf.http.HostPort;
import io.wharf.http.HttpField;
import io.wharf.http.HttpHeader;

/**
 * A connection's last {@code :authority} (or {@code Host}): a client names the same authority on
 * every stream of a connection, so it is parsed once, not once per request, as HTTP/1.1 does with
 * its {@code Host} line, and the {@code Host} field made for requests without one is made once
 * too. Any other text is parsed (or made a field) and becomes the last.
 *
 * <p><b>Threads.</b> Asked by whichever thread builds a request's URI (the reading thread, or an
 * executor thread for a blocking handler tree), and by the reading thread for the field. Each
 * answer is kept with its text in one immutable object behind a plain field: a thread sees an
 * older or a newer one, never a mixed one, and either is right for the text it matches.
 */
final class LastAuthority {

    private record Parsed(String text, HostPort hostPort) {
    }

    private Parsed last;
    private HttpField lastHostField;

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

    /** @return a {@code Host} field of {@code authority}, the same one while the authority repeats */
    HttpField hostField(String authority) {
        HttpField field = lastHostField;
        if (field == null || !field.getValue().equals(authority)) {
            field = new HttpField(HttpHeader.HOST, authority);
            lastHostField = field;
        }
        return field;
    }
}
