package io.wharf.tests;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.wharf.examples.Demo;

/**
 * The push demonstration (the seeds' experiment, redone): the demo's push page, a main HTML
 * resource made in 200 ms with ten sub-resources (a stylesheet that names an image, three
 * scripts, five images), served over TLS through a {@link DelayProxy} that adds a 100 ms round
 * trip, loaded cold (new connections, empty cache) in five ways: Wharf's client over HTTP/1.1
 * (six connections), HTTP/2, and HTTP/2 taking pushes ({@link PageLoader}); headless Chromium
 * over HTTP/1.1 and over HTTP/2, where it gets 103 Early Hints (Chromium takes no pushes).
 * A first Chromium visit teaches the server the page's resources. The ways take turns, round
 * after round; each row gives the median, fastest and slowest page-complete time: for the
 * client, from the first connection to the last byte; for Chromium, the navigation's
 * {@code loadEventEnd}.
 *
 * <p>{@code ./wharf push-demo [LOADS] [RTT_MS]} (default 5 loads each, 100 ms).
 */
public final class PushDemonstration {

    /** The loads of one way, and what the last one said about itself. */
    static final class Row {
        final List<Long> millis = new ArrayList<>();
        String detail = "";

        long median() {
            List<Long> sorted = millis.stream().sorted().toList();
            return sorted.get(sorted.size() / 2);
        }
    }

    private final Path directory;
    private final URI page;
    private final Path certificate;
    private int browsers;

    private PushDemonstration(Path directory, URI page, Path certificate) {
        this.directory = directory;
        this.page = page;
        this.certificate = certificate;
    }

    public static void main(String[] args) throws Exception {
        int loads = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Duration roundTrip = Duration.ofMillis(args.length > 1 ? Long.parseLong(args[1]) : 100);
        Map<String, Row> rows = run(loads, roundTrip);
        System.out.println("push demonstration: the demo's /push/index.html (made in 200 ms, 10 sub-resources) over TLS with a "
                + roundTrip.toMillis() + " ms round trip (user-space delay proxy), " + loads + " cold loads each, JVM " + Runtime.version());
        System.out.println();
        System.out.println("| way | median ms | fastest | slowest | what the last load saw |");
        System.out.println("|---|---:|---:|---:|---|");
        rows.forEach((way, row) -> System.out.println("| " + way + " | " + row.median() + " | "
                + row.millis.stream().mapToLong(Long::longValue).min().orElse(0) + " | "
                + row.millis.stream().mapToLong(Long::longValue).max().orElse(0) + " | " + row.detail + " |"));
    }

    /** @return each way's loads, in the order of the table */
    static Map<String, Row> run(int loads, Duration roundTrip) throws Exception {
        Path directory = Files.createTempDirectory("wharf-push-demo");
        Demo.Running demo = Demo.start(0, 0, directory.resolve("demo-tls"));
        try (DelayProxy proxy = new DelayProxy(demo.httpsPort(), roundTrip.dividedBy(2))) {
            URI page = URI.create("https://127.0.0.1:" + proxy.port() + "/push/index.html");
            PushDemonstration demonstration = new PushDemonstration(directory, page, directory.resolve("demo-tls").resolve("demo.pem"));
            // The first visit teaches the server which resources the page needs (by their Referer).
            demonstration.chromium(new Row(), true);
            Map<String, Row> rows = new LinkedHashMap<>();
            for (String way : List.of("Wharf client, HTTP/1.1 (6 connections)", "Wharf client, HTTP/2", "Wharf client, HTTP/2 + push",
                    "Chromium, HTTP/1.1 (6 connections)", "Chromium, HTTP/2 + 103 Early Hints")) {
                rows.put(way, new Row());
            }
            List<Row> order = List.copyOf(rows.values());
            for (int i = 0; i < loads; i++) {
                demonstration.client(order.get(0), PageLoader.Mode.HTTP_1_1);
                demonstration.client(order.get(1), PageLoader.Mode.HTTP_2);
                demonstration.client(order.get(2), PageLoader.Mode.HTTP_2_PUSH);
                demonstration.chromium(order.get(3), false);
                demonstration.chromium(order.get(4), true);
            }
            return rows;
        } finally {
            demo.server().stop();
        }
    }

    private void client(Row row, PageLoader.Mode mode) throws Exception {
        PageLoader.Load load = PageLoader.load(page, mode);
        row.millis.add(load.millis());
        row.detail = load.resources() + " resources, " + load.pushed() + " of them pushed";
    }

    /** One cold load in a new browser with an empty profile; HTTP/2 or HTTP/1.1 only. */
    private void chromium(Row row, boolean http2) throws Exception {
        Path profile = directory.resolve("chromium-" + browsers++);
        String[] flags = http2 ? new String[0] : new String[] {"--disable-http2"};
        try (Chromium browser = Chromium.trusting(profile, certificate, flags)) {
            Chromium.Page tab = browser.open(page.toString());
            tab.await("document.readyState === 'complete' && performance.getEntriesByType('navigation')[0].loadEventEnd > 0",
                    "true"::equals, Duration.ofSeconds(60));
            String nav = "performance.getEntriesByType('navigation')[0]";
            String resources = "performance.getEntriesByType('resource').filter(e => e.name.includes('/push/'))";
            String seen = tab.evaluate("[Math.round(" + nav + ".loadEventEnd), " + nav + ".nextHopProtocol, " + resources + ".length, "
                    + resources + ".filter(e => e.initiatorType === 'early-hints').length].join(' ')");
            String[] parts = seen.split(" ");
            row.millis.add(Long.parseLong(parts[0]));
            row.detail = parts[1] + ", " + parts[2] + " resources, " + parts[3] + " of them preloaded by Early Hints";
        }
    }
}
