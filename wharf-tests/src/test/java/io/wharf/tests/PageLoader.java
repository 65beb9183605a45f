package io.wharf.tests;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.client.BufferingResponseListener;
import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.client.HttpTransport;
import io.wharf.client.Request;

/**
 * Loads a page the way a browser would, with Wharf's client: the HTML, then every same-origin
 * resource it names ({@code src=} and {@code href=}) at once, and the images its stylesheets
 * name ({@code url(...)}), each with a {@code Referer}. With push, what the server pushes is
 * taken and not asked for again. Each load uses a new client, so it pays for its connections
 * and TLS handshakes as a first visit does. Over HTTP/1.1 it opens at most six connections,
 * as browsers do.
 */
final class PageLoader {

    private static final Pattern REFERENCE = Pattern.compile("(?:src|href)=\"(/[^\"]*)\"");
    private static final Pattern CSS_URL = Pattern.compile("url\\(\"?'?(/[^\")']*)");

    /** How a load went: its time from the first connection to the last byte, and what it fetched. */
    record Load(long millis, int resources, int pushed, Set<String> paths) {
    }

    /** The ways of loading. */
    enum Mode {
        HTTP_1_1, HTTP_2, HTTP_2_PUSH
    }

    private PageLoader() {
    }

    /** Loads {@code page} (an https URI of a server whose certificate is trusted insecurely) in {@code mode}. */
    static Load load(URI page, Mode mode) throws Exception {
        HttpClient client = new HttpClient(mode == Mode.HTTP_1_1 ? HttpTransport.HTTP_1_1 : HttpTransport.DYNAMIC);
        client.setTrustAllCertificatesInsecurely(true);
        client.setMaxConnectionsPerDestination(6);
        client.getHttp2Configuration().setPushEnabled(mode == Mode.HTTP_2_PUSH);
        client.start();
        try {
            return new Visit(client, page).run();
        } finally {
            client.stop();
        }
    }

    /** One page load: its pushed responses and its requests. */
    private static final class Visit {
        private final HttpClient client;
        private final URI page;
        private final Map<String, CompletableFuture<ContentResponse>> pushed = new ConcurrentHashMap<>();
        private final Map<String, CompletableFuture<ContentResponse>> fetched = new ConcurrentHashMap<>();
        private final AtomicInteger pushesUsed = new AtomicInteger();

        Visit(HttpClient client, URI page) {
            this.client = client;
            this.page = page;
        }

        Load run() throws Exception {
            long start = System.nanoTime();
            Request request = client.newRequest(page).onPush(promise -> {
                BufferingResponseListener listener = new BufferingResponseListener(16 << 20);
                pushed.put(promise.getPath(), listener.future());
                return listener;
            });
            ContentResponse html = request.send();
            check(html, page.getPath());
            List<CompletableFuture<?>> all = new ArrayList<>();
            for (String path : references(REFERENCE, html)) {
                CompletableFuture<ContentResponse> resource = fetch(path, page.toString());
                all.add(path.endsWith(".css") ? resource.thenCompose(css -> styleImages(css, path)) : resource);
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            return new Load(millis, fetched.size(), pushesUsed.get(), Set.copyOf(fetched.keySet()));
        }

        private CompletableFuture<?> styleImages(ContentResponse css, String path) {
            List<CompletableFuture<ContentResponse>> images = new ArrayList<>();
            for (String image : references(CSS_URL, css)) {
                images.add(fetch(image, page.resolve(path).toString()));
            }
            return CompletableFuture.allOf(images.toArray(CompletableFuture[]::new));
        }

        /** @return the response for {@code path}: the pushed one when the server pushed it, else asked for */
        private CompletableFuture<ContentResponse> fetch(String path, String referer) {
            return fetched.computeIfAbsent(path, key -> {
                CompletableFuture<ContentResponse> push = pushed.get(key);
                if (push != null) {
                    pushesUsed.incrementAndGet();
                    return push.thenApply(response -> check(response, key));
                }
                return client.newRequest(page.resolve(key)).header("Referer", referer).sendAsync()
                        .thenApply(response -> check(response, key));
            });
        }

        private static ContentResponse check(ContentResponse response, String path) {
            if (response.getStatus() != 200) {
                throw new IllegalStateException(path + " answered " + response.getStatus());
            }
            return response;
        }

        private static Set<String> references(Pattern pattern, ContentResponse response) {
            Set<String> paths = new LinkedHashSet<>();
            Matcher matcher = pattern.matcher(new String(response.getContent(), StandardCharsets.UTF_8));
            while (matcher.find()) {
                paths.add(matcher.group(1));
            }
            return paths;
        }
    }
}
