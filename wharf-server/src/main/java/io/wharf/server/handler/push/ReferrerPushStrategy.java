package io.wharf.server.handler.push;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import io.wharf.http.HttpHeader;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpURI;
import io.wharf.server.Request;

/**
 * The default {@link PushStrategy}: learns which sub-resources a page needs from the
 * {@code Referer} of the requests browsers make right after it. A page is remembered from its
 * GET on, with the time it began (forgotten again unless it is answered 200); so is every
 * resource answered 200. When a GET for a resource whose path matches the
 * {@linkplain #setResourcePattern resource pattern} (by default {@code .css .js .png .jpg .gif}
 * and similar) is answered 200, carries a same-origin {@code Referer} naming a remembered
 * page, and began within the {@linkplain #setAssociatePeriod associate period} (4 s) after
 * that page's last request, the resource is associated with the page. The next request of the page gets them all: its own and, one level down, those learned
 * for its resources (the image a stylesheet references), up to
 * {@linkplain #setMaxAssociations the maximum} (16) per page.
 *
 * <p>A request that carries {@code If-None-Match} or {@code If-Modified-Since} gets nothing:
 * the browser revalidates its cached page and most likely has the sub-resources too. Requests
 * for resources themselves get nothing either: hints and pushes go with pages.
 *
 * <p><b>Bounds.</b> At most {@linkplain #setMaxPages} pages and resources (1,024) are
 * remembered, each with at most {@code maxAssociations} resources; past them nothing new is
 * learned. Only what the server answered 200 is remembered, and a client can only teach an
 * association within seconds of a page request, so a hostile client can at worst add real
 * resources to a page's hints.
 *
 * <p><b>Threads.</b> Thread-safe and lock-free on the read path: a page's list is replaced
 * whole (copy on write) under the page's lock when a resource is learned. Configure before
 * the server starts.
 */
public class ReferrerPushStrategy implements PushStrategy {

    /** Paths of the resources learned by default: stylesheets, scripts, images and fonts. */
    public static final String DEFAULT_RESOURCE_PATTERN = ".*\\.(css|js|mjs|png|jpe?g|gif|webp|avif|svg|ico|woff2?)$";

    private final Map<String, Page> pages = new ConcurrentHashMap<>();
    private volatile Pattern resourcePattern = Pattern.compile(DEFAULT_RESOURCE_PATTERN, Pattern.CASE_INSENSITIVE);
    private volatile long associateNanos = Duration.ofSeconds(4).toNanos();
    private volatile int maxAssociations = 16;
    private volatile int maxPages = 1024;

    /** One page (or resource) that was asked for, and what was learned to go with it. */
    private static final class Page {
        volatile long lastRequestNanos;
        volatile List<PushResource> resources = List.of();

        Page(long now) {
            lastRequestNanos = now;
        }
    }

    /** Sets the regular expression that the path of a learnable resource matches (case-insensitive). */
    public void setResourcePattern(String regex) {
        resourcePattern = Pattern.compile(Objects.requireNonNull(regex, "regex"), Pattern.CASE_INSENSITIVE);
    }

    /** @return the regular expression of learnable resources' paths */
    public String getResourcePattern() {
        return resourcePattern.pattern();
    }

    /** Sets how long after a page's request a resource that names it as referrer is learned. */
    public void setAssociatePeriod(Duration period) {
        if (period.isNegative()) {
            throw new IllegalArgumentException("the associate period must not be negative: " + period);
        }
        associateNanos = period.toNanos();
    }

    /** @return how long after a page's request its resources are learned */
    public Duration getAssociatePeriod() {
        return Duration.ofNanos(associateNanos);
    }

    /** Sets the most resources learned per page. */
    public void setMaxAssociations(int maxAssociations) {
        if (maxAssociations < 0) {
            throw new IllegalArgumentException("maxAssociations must not be negative: " + maxAssociations);
        }
        this.maxAssociations = maxAssociations;
    }

    /** @return the most resources learned per page */
    public int getMaxAssociations() {
        return maxAssociations;
    }

    /** Sets the most pages remembered; past it new pages are neither learned nor hinted. */
    public void setMaxPages(int maxPages) {
        if (maxPages < 0) {
            throw new IllegalArgumentException("maxPages must not be negative: " + maxPages);
        }
        this.maxPages = maxPages;
    }

    /** @return the most pages remembered */
    public int getMaxPages() {
        return maxPages;
    }

    /** @return how many pages are remembered now */
    public int getPageCount() {
        return pages.size();
    }

    @Override
    public List<PushResource> resourcesFor(Request request) {
        if (!HttpMethod.GET.is(request.getMethod())) {
            return List.of();
        }
        HttpURI uri = request.getHttpURI();
        String pathQuery = uri.getPathQuery();
        if (pathQuery == null || isResource(uri.getPath())) {
            return List.of();
        }
        String key = key(uri, pathQuery);
        Page page = pages.get(key);
        if (page == null) {
            // Remembered from its request on, since a browser asks for the resources while the
            // page's response is still under way; forgotten again unless it is answered 200.
            if (pages.size() < maxPages) {
                pages.putIfAbsent(key, new Page(request.getBeginNanoTime()));
            }
            return List.of();
        }
        page.lastRequestNanos = request.getBeginNanoTime();
        if (request.getHeaders().contains(HttpHeader.IF_NONE_MATCH) || request.getHeaders().contains(HttpHeader.IF_MODIFIED_SINCE)) {
            return List.of();
        }
        return withNested(uri, page.resources);
    }

    @Override
    public void answered(Request request, int status) {
        if (!HttpMethod.GET.is(request.getMethod())) {
            return;
        }
        HttpURI uri = request.getHttpURI();
        String pathQuery = uri.getPathQuery();
        if (pathQuery == null) {
            return;
        }
        if (status != HttpStatus.OK_200) {
            // A page that was not served is not remembered (unless it had been, with resources).
            String key = key(uri, pathQuery);
            Page page = pages.get(key);
            if (page != null && page.resources.isEmpty()) {
                pages.remove(key, page);
            }
            return;
        }
        long begin = request.getBeginNanoTime();
        // Only pages and resources that were served are remembered; a resource is a referrer
        // too (the images of a stylesheet), so both kinds are.
        Page self = pages.get(key(uri, pathQuery));
        if (self == null) {
            if (pages.size() < maxPages) {
                pages.putIfAbsent(key(uri, pathQuery), new Page(begin));
            }
        } else if (begin - self.lastRequestNanos > 0) {
            self.lastRequestNanos = begin;
        }
        if (!isResource(uri.getPath())) {
            return;
        }
        String referrerKey = referrerKey(request, uri);
        Page referrer = referrerKey == null ? null : pages.get(referrerKey);
        if (referrer == null) {
            return;
        }
        long after = begin - referrer.lastRequestNanos;
        if (after >= 0 && after <= associateNanos) {
            learn(referrer, PushResource.of(pathQuery));
        }
    }

    private void learn(Page page, PushResource resource) {
        if (page.resources.contains(resource)) {
            return;
        }
        synchronized (page) {
            List<PushResource> known = page.resources;
            if (known.size() >= maxAssociations || known.contains(resource)) {
                return;
            }
            List<PushResource> more = new ArrayList<>(known.size() + 1);
            more.addAll(known);
            more.add(resource);
            page.resources = List.copyOf(more);
        }
    }

    /** @return the page's resources followed by those learned for them, without repeats, at most maxAssociations */
    private List<PushResource> withNested(HttpURI uri, List<PushResource> direct) {
        if (direct.isEmpty()) {
            return direct;
        }
        Set<PushResource> all = new LinkedHashSet<>(direct);
        int limit = maxAssociations;
        for (PushResource resource : direct) {
            Page nested = pages.get(key(uri, resource.pathQuery()));
            if (nested != null) {
                for (PushResource inner : nested.resources) {
                    if (all.size() >= limit) {
                        break;
                    }
                    all.add(inner);
                }
            }
        }
        return all.size() == direct.size() ? direct : List.copyOf(all);
    }

    private boolean isResource(String path) {
        return path != null && resourcePattern.matcher(path).matches();
    }

    /** @return the key of the page the request's same-origin Referer names, or null */
    private static String referrerKey(Request request, HttpURI uri) {
        String referer = request.getHeaders().get(HttpHeader.REFERER);
        if (referer == null) {
            return null;
        }
        HttpURI referrer;
        try {
            referrer = HttpURI.parse(referer);
        } catch (IllegalArgumentException x) {
            return null;
        }
        if (!referrer.isAbsolute() || referrer.isBad() || !sameOrigin(uri, referrer) || referrer.getPathQuery() == null) {
            return null;
        }
        return key(uri, referrer.getPathQuery());
    }

    private static boolean sameOrigin(HttpURI uri, HttpURI referrer) {
        String host = uri.getHost();
        return host != null && host.equalsIgnoreCase(referrer.getHost())
                && portOf(uri) == portOf(referrer);
    }

    private static int portOf(HttpURI uri) {
        if (uri.getPort() > 0) {
            return uri.getPort();
        }
        String scheme = uri.getScheme() == null ? "http" : uri.getScheme().toLowerCase(Locale.ROOT);
        return scheme.equals("https") || scheme.equals("wss") ? 443 : 80;
    }

    private static String key(HttpURI uri, String pathQuery) {
        return uri.getHost() == null ? pathQuery : uri.getHost().toLowerCase(Locale.ROOT) + ':' + portOf(uri) + pathQuery;
    }

    @Override
    public String toString() {
        return "ReferrerPushStrategy[" + pages.size() + " pages, " + resourcePattern.pattern() + "]";
    }
}
