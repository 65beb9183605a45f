package io.wharf.client.internal.cookie;

import java.net.CookieStore;
import java.net.HttpCookie;
import java.net.URI;
import java.util.List;

import io.wharf.client.Response;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cookies on the wire for the client: the {@code Cookie} field of a request, from what the
 * {@link CookieStore} gives for its URI, and the {@code Set-Cookie} fields of a response, read
 * by {@link SetCookieParser} into the store. A store that throws is logged and skipped: the
 * exchange goes on without cookies. Static; called by a conversation's hops, any thread.
 */
public final class CookieHeaders {

    private static final Logger LOG = LoggerFactory.getLogger(CookieHeaders.class);

    private CookieHeaders() {
    }

    /** Appends the store's cookies for {@code uri}, a request's, to its Cookie field in {@code headers} (one field, the request's own first). */
    public static void addTo(CookieStore store, URI uri, HttpFields.Mutable headers) {
        if (store == null) {
            return;
        }
        List<HttpCookie> cookies;
        try {
            cookies = store.get(uri);
        } catch (RuntimeException x) {
            LOG.warn("Cookie store {} failed to give the cookies of {}", store, uri, x);
            return;
        }
        if (cookies.isEmpty()) {
            return;
        }
        String own = headers.get(HttpHeader.COOKIE);
        StringBuilder value = new StringBuilder(own == null ? "" : own);
        for (HttpCookie cookie : cookies) {
            if (!value.isEmpty()) {
                value.append("; ");
            }
            value.append(cookie.getName()).append('=').append(cookie.getValue());
        }
        headers.put(HttpHeader.COOKIE, value.toString());
    }

    /** Puts the cookies the response sets into the store, as set by a response to {@code uri}. */
    public static void store(CookieStore store, URI uri, Response response) {
        if (store == null) {
            return;
        }
        List<String> values = response.getHeaders().getValuesList(HttpHeader.SET_COOKIE);
        long now = System.currentTimeMillis();
        for (String value : values) {
            HttpCookie cookie = SetCookieParser.parse(value, uri, now);
            if (cookie == null) {
                continue;
            }
            try {
                store.add(uri, cookie);
            } catch (RuntimeException x) {
                LOG.warn("Cookie store {} failed to keep a cookie set by {}", store, uri, x);
            }
        }
    }
}
