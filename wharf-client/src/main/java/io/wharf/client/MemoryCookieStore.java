package io.wharf.client;

import java.net.CookieStore;
import java.net.HttpCookie;
import java.net.URI;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;

import io.wharf.client.internal.cookie.CookieRules;

/**
 * The cookie store an {@link HttpClient} starts with: cookies in memory, kept and matched as
 * RFC 6265 says a user agent does. {@link #add} takes a cookie with the URI of the request
 * whose response set it; {@link #get} gives the cookies to send to a URI.
 *
 * <ul>
 * <li><b>Domain.</b> A cookie without a domain is host-only: sent back to its host only. One
 *     whose domain the host domain-matches ({@code example.com} set by {@code www.example.com})
 *     is sent to that domain and every name under it. A domain the host does not match is
 *     refused, and so is a domain of one label ({@code com}, {@code localhost}) or any domain
 *     set by an IP address: Wharf keeps no public suffix list, so it treats single labels as
 *     public suffixes (a domain of two labels such as {@code co.uk} is not recognised as one).</li>
 * <li><b>Path.</b> A cookie without a path (or with one not starting with {@code /}) gets the
 *     default path of its request ({@code /a/b} for {@code /a/b/c}); it is sent to that path
 *     and the paths under it, on segment boundaries.</li>
 * <li><b>Secure.</b> A secure cookie is sent over https (and wss) only; one set by an http
 *     response is refused, and a plain http response cannot replace a secure cookie.</li>
 * <li><b>Expiry.</b> A max-age of 0 deletes the cookie of the same name, domain and path; a
 *     positive one expires it after that many seconds (a {@code Set-Cookie} Expires is turned
 *     into a max-age when it is read); -1 keeps it for the life of the store. Expired cookies
 *     are never returned and are dropped as they are found.</li>
 * <li><b>Order.</b> {@link #get} lists longer paths first, then older cookies first.</li>
 * <li><b>Bounds.</b> At most {@code maxCookies} cookies (3000 by default) and
 *     {@code maxCookiesPerDomain} (50) per domain or host: beyond them, the oldest go.</li>
 * </ul>
 * SameSite and HttpOnly are kept on the cookies but change nothing: a client neither browses
 * across sites nor runs scripts.
 *
 * <p><b>Threads.</b> Any thread may call any method; one lock guards the list, held only to
 * scan or change it. Cookies handed in are copied, and cookies handed out are copies.
 */
public final class MemoryCookieStore implements CookieStore {

    /** The default most cookies kept. */
    public static final int DEFAULT_MAX_COOKIES = 3000;
    /** The default most cookies kept for one domain or host. */
    public static final int DEFAULT_MAX_COOKIES_PER_DOMAIN = 50;

    /** One cookie as stored, with what RFC 6265 keeps beside it. */
    private record Entry(HttpCookie cookie, String domain, boolean hostOnly, String path, long expiresAt, long created) {

        boolean expired(long now) {
            return expiresAt <= now;
        }

        boolean sameAs(String name, String otherDomain, String otherPath) {
            return cookie.getName().equals(name) && domain.equals(otherDomain) && path.equals(otherPath);
        }

        boolean matches(String host, String requestPath, boolean secure) {
            boolean hostMatches = hostOnly ? host.equals(domain) : CookieRules.domainMatches(host, domain);
            return hostMatches && CookieRules.pathMatches(requestPath, path) && (secure || !cookie.getSecure());
        }
    }

    private final Clock clock;
    private final int maxCookies;
    private final int maxCookiesPerDomain;
    private final List<Entry> entries = new ArrayList<>();
    private long sequence;

    /** A store with the default bounds, on the system clock. */
    public MemoryCookieStore() {
        this(Clock.systemUTC(), DEFAULT_MAX_COOKIES, DEFAULT_MAX_COOKIES_PER_DOMAIN);
    }

    /**
     * @param clock the clock expiry is measured on
     * @param maxCookies the most cookies kept, at least 1
     * @param maxCookiesPerDomain the most cookies kept for one domain or host, at least 1
     */
    public MemoryCookieStore(Clock clock, int maxCookies, int maxCookiesPerDomain) {
        if (maxCookies < 1 || maxCookiesPerDomain < 1) {
            throw new IllegalArgumentException("cookie bounds must be at least 1: " + maxCookies + ", " + maxCookiesPerDomain);
        }
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxCookies = maxCookies;
        this.maxCookiesPerDomain = maxCookiesPerDomain;
    }

    /**
     * Stores {@code cookie} as set by a response to {@code uri}, replacing the cookie of the
     * same name, domain and path, or deletes that cookie when {@code cookie} has expired.
     * A cookie the rules above refuse is ignored.
     *
     * @param uri the URI of the request whose response set the cookie; null only for a
     *     cookie with a domain (then trusted as given)
     */
    @Override
    public void add(URI uri, HttpCookie cookie) {
        Objects.requireNonNull(cookie, "cookie");
        String host = CookieRules.host(uri);
        String domain = cookie.getDomain() == null || cookie.getDomain().isEmpty() ? null
                : canonicalDomain(cookie.getDomain());
        boolean hostOnly;
        if (domain == null) {
            if (host == null) {
                return;
            }
            domain = host;
            hostOnly = true;
        } else if (host == null) {
            if (domain.indexOf('.') < 0) {
                return;
            }
            hostOnly = false;
        } else if (domain.equals(host)) {
            hostOnly = domain.indexOf('.') < 0 || CookieRules.isIpLiteral(host);
        } else if (CookieRules.mayWiden(host, domain)) {
            hostOnly = false;
        } else {
            return;
        }
        boolean secureOrigin = uri == null || CookieRules.isSecure(uri);
        if (cookie.getSecure() && !secureOrigin) {
            return;
        }
        String path = cookie.getPath() != null && cookie.getPath().startsWith("/") ? cookie.getPath()
                : CookieRules.defaultPath(uri == null ? null : uri.getRawPath());
        long now = clock.millis();
        long maxAge = cookie.getMaxAge();
        long expiresAt = maxAge < 0 ? Long.MAX_VALUE
                : maxAge >= (Long.MAX_VALUE - now) / 1000 ? Long.MAX_VALUE : now + maxAge * 1000;
        HttpCookie copy = (HttpCookie) cookie.clone();
        copy.setDomain(hostOnly ? null : domain);
        copy.setPath(path);
        synchronized (this) {
            if (!secureOrigin && shadowsSecure(cookie.getName(), domain, path)) {
                return;
            }
            // The list stays in creation order: a replacement takes its predecessor's place and age.
            int at = entries.size();
            long created = ++sequence;
            for (int i = 0; i < entries.size(); i++) {
                Entry old = entries.get(i);
                if (old.sameAs(copy.getName(), domain, path)) {
                    entries.remove(i);
                    at = i;
                    created = old.created();
                    break;
                }
            }
            if (expiresAt <= now) {
                return;
            }
            entries.add(at, new Entry(copy, domain, hostOnly, path, expiresAt, created));
            evict(domain, now);
        }
    }

    /** Whether a secure cookie of this name would be replaced or shadowed from an insecure origin (RFC 6265bis 5.7). */
    private boolean shadowsSecure(String name, String domain, String path) {
        for (Entry entry : entries) {
            if (entry.cookie().getSecure() && entry.cookie().getName().equals(name)
                    && (CookieRules.domainMatches(domain, entry.domain()) || CookieRules.domainMatches(entry.domain(), domain))
                    && CookieRules.pathMatches(path, entry.path())) {
                return true;
            }
        }
        return false;
    }

    /** Drops expired cookies, then the oldest of {@code domain} and then the oldest of all past the bounds. */
    private void evict(String domain, long now) {
        entries.removeIf(entry -> entry.expired(now));
        int inDomain = 0;
        for (Entry entry : entries) {
            if (entry.domain().equals(domain)) {
                inDomain++;
            }
        }
        for (int i = 0; i < entries.size() && inDomain > maxCookiesPerDomain; ) {
            if (entries.get(i).domain().equals(domain)) {
                entries.remove(i);
                inDomain--;
            } else {
                i++;
            }
        }
        while (entries.size() > maxCookies) {
            entries.remove(0);
        }
    }

    /** @return copies of the unexpired cookies to send with a request to {@code uri}, longer paths first */
    @Override
    public List<HttpCookie> get(URI uri) {
        String host = CookieRules.host(Objects.requireNonNull(uri, "uri"));
        if (host == null) {
            return List.of();
        }
        String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
        boolean secure = CookieRules.isSecure(uri);
        long now = clock.millis();
        List<Entry> matched = new ArrayList<>();
        synchronized (this) {
            entries.removeIf(entry -> entry.expired(now));
            for (Entry entry : entries) {
                if (entry.matches(host, path, secure)) {
                    matched.add(entry);
                }
            }
        }
        matched.sort(Comparator.comparingInt((Entry entry) -> entry.path().length()).reversed()
                .thenComparingLong(Entry::created));
        List<HttpCookie> cookies = new ArrayList<>(matched.size());
        for (Entry entry : matched) {
            cookies.add((HttpCookie) entry.cookie().clone());
        }
        return cookies;
    }

    /** @return copies of every unexpired cookie, oldest first */
    @Override
    public List<HttpCookie> getCookies() {
        long now = clock.millis();
        List<HttpCookie> cookies = new ArrayList<>();
        synchronized (this) {
            entries.removeIf(entry -> entry.expired(now));
            for (Entry entry : entries) {
                cookies.add((HttpCookie) entry.cookie().clone());
            }
        }
        return cookies;
    }

    /** @return {@code http://domain/} for each domain or host that has cookies */
    @Override
    public List<URI> getURIs() {
        Set<String> domains = new LinkedHashSet<>();
        synchronized (this) {
            for (Entry entry : entries) {
                domains.add(entry.domain());
            }
        }
        List<URI> uris = new ArrayList<>(domains.size());
        for (String domain : domains) {
            uris.add(URI.create("http://" + (domain.indexOf(':') >= 0 ? "[" + domain + "]" : domain) + "/"));
        }
        return uris;
    }

    /**
     * Removes the cookie of {@code cookie}'s name, domain (or, without one, {@code uri}'s host)
     * and path (any path when it has none).
     *
     * @return whether a cookie was removed
     */
    @Override
    public boolean remove(URI uri, HttpCookie cookie) {
        Objects.requireNonNull(cookie, "cookie");
        String domain = cookie.getDomain() != null && !cookie.getDomain().isEmpty() ? canonicalDomain(cookie.getDomain())
                : CookieRules.host(uri);
        synchronized (this) {
            return entries.removeIf(entry -> entry.cookie().getName().equals(cookie.getName())
                    && (domain == null || entry.domain().equals(domain))
                    && (cookie.getPath() == null || entry.path().equals(cookie.getPath())));
        }
    }

    /** @return whether there was a cookie to remove */
    @Override
    public synchronized boolean removeAll() {
        boolean any = !entries.isEmpty();
        entries.clear();
        return any;
    }

    private static String canonicalDomain(String domain) {
        String canonical = domain.startsWith(".") ? domain.substring(1) : domain;
        if (canonical.endsWith(".")) {
            canonical = canonical.substring(0, canonical.length() - 1);
        }
        return canonical.toLowerCase(Locale.ROOT);
    }

    @Override
    public synchronized String toString() {
        return "MemoryCookieStore[" + entries.size() + " cookies]";
    }
}
