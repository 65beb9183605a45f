package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.examples.Demo;
import io.wharf.testing.Peers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's push page ({@code /push/index.html}, ten sub-resources, made in 200 ms) with real
 * clients: after a first visit teaches the server the page's resources, nghttp (which accepts
 * pushes) gets them all pushed over h2c, and headless Chromium (which does not) gets them
 * announced by 103 Early Hints over h2 and preloads them while the page is being made. Chromium
 * trusts the demo's certificate for this (it ignores Early Hints on a connection with a
 * certificate error).
 *
 * <p>Chromium is served across a {@link DelayProxy} with a 100 ms round trip, as Early Hints are
 * in use, not over bare loopback. Chromium's HTTP/2 stream reports its request sent with a posted
 * task, and only a 103 that arrives after that task ran reaches the page: one read before (the
 * server answers within microseconds on loopback, while a loaded machine or Chromium's start-up
 * work holds that task back, up to 50 ms seen) is taken as the response's head and then replaced
 * by the 200, and nothing is preloaded (its net-log shows the 103's HEADERS before the end of
 * HTTP_TRANSACTION_SEND_REQUEST, and no HTTP_TRANSACTION_READ_EARLY_HINTS_RESPONSE_HEADERS). With
 * a round trip, that task would have to wait longer than it to miss the 103, as over a network
 * (in 30 loaded runs the 103 came 101 to 253 ms after the request counted as sent). On failure
 * the second browser's net-log is kept in {@code target/surefire-reports} and its events for
 * the page are in the message.
 */
@Timeout(120)
class PushDemoTest {

    /**
     * The round trip between Chromium and a server that sends it Early Hints, here and in
     * {@link PushDemonstrationTest}: twice the longest Chromium was seen to hold back its
     * "request sent" task on this loaded machine (see the class comment).
     */
    static final Duration ROUND_TRIP = Duration.ofMillis(100);

    private static final List<String> RESOURCES = List.of("/push/style.css", "/push/app1.js", "/push/app2.js", "/push/app3.js",
            "/push/img1.svg", "/push/img2.svg", "/push/img3.svg", "/push/img4.svg", "/push/img5.svg", "/push/background.svg");

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    @Test
    void nghttpGetsTheTenResourcesPushed() throws Exception {
        Peers.requireTool("nghttp");
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        String base = "http://127.0.0.1:" + demo.httpPort();
        String page = base + "/push/index.html";
        // A browser's first visit: the page, its resources naming it, the stylesheet's image naming
        // the stylesheet (one curl each, all on one connection, so it takes well under the 4 s
        // in which resources are associated with a page).
        Curl.run("--http2-prior-knowledge", "-o", "/dev/null", page);
        // (--http2, the Upgrade: curl 7.88 cannot reuse a prior-knowledge connection, with nginx either.)
        List<String> fromPage = new java.util.ArrayList<>(List.of("--http2", "-H", "Referer: " + page));
        RESOURCES.stream().filter(resource -> !resource.endsWith("background.svg"))
                .forEach(resource -> fromPage.addAll(List.of("-o", "/dev/null", base + resource)));
        Curl.run(fromPage.toArray(String[]::new));
        Curl.run("--http2-prior-knowledge", "-o", "/dev/null", "-H", "Referer: " + base + "/push/style.css", base + "/push/background.svg");
        Process nghttp = new ProcessBuilder("nghttp", "-nv", page).redirectErrorStream(true).start();
        String output = new String(nghttp.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(nghttp.waitFor(60, TimeUnit.SECONDS), "nghttp did not finish");
        assertEquals(0, nghttp.exitValue(), output);
        Matcher promised = Pattern.compile("recv PUSH_PROMISE frame").matcher(output);
        int promises = 0;
        while (promised.find()) {
            promises++;
        }
        assertEquals(RESOURCES.size(), promises, output);
        for (String resource : RESOURCES) {
            assertTrue(output.contains(":path: " + resource), resource + " promised: " + output);
        }
    }

    @Test
    void chromiumPreloadsWhatTheEarlyHintsAnnounce() throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        try (DelayProxy network = new DelayProxy(demo.httpsPort(), ROUND_TRIP.dividedBy(2))) {
            String origin = "https://127.0.0.1:" + network.port();
            String page = origin + "/push/index.html";
            String loaded = "document.readyState === 'complete' && location.pathname === '/push/index.html'";
            // The first browser's visit teaches the server; a second browser (an empty cache, so no
            // conditional request) then gets the 103. curl checks the server hints before the second
            // browser comes, so a failure tells a server that did not hint from a browser that ignored the hint.
            Path pem = directory.resolve("demo-tls").resolve("demo.pem");
            try (Chromium first = Chromium.trusting(directory.resolve("first"), pem)) {
                first.open(page).await(loaded, "true"::equals, Duration.ofSeconds(30));
            }
            String hints = Curl.run("-k", "--http2", "-o", "/dev/null", "-D", "-", page);
            assertTrue(hints.contains("</push/style.css>"), "the server's heads after the first visit announce no /push/style.css: " + hints);
            NetLog netLog = new NetLog(directory.resolve("second-net-log.json"));
            String protocol;
            String hinted;
            String all;
            try (Chromium second = Chromium.trusting(directory.resolve("second"), pem, netLog.flags())) {
                Chromium.Page tab = second.open(page);
                tab.await(loaded, "true"::equals, Duration.ofSeconds(30));
                protocol = tab.evaluate("performance.getEntriesByType('navigation')[0].nextHopProtocol");
                hinted = tab.evaluate("performance.getEntriesByType('resource').filter(e => e.initiatorType === 'early-hints')"
                        + ".map(e => new URL(e.name).pathname).sort().join(',')");
                all = tab.evaluate("performance.getEntriesByType('resource').map(e => e.initiatorType + ' ' + new URL(e.name).pathname"
                        + " + ' ' + Math.round(e.startTime)).join(', ') + ' / response ' + Math.round(performance.getEntriesByType('navigation')[0].responseStart)");
            }
            assertEquals("h2", protocol);
            for (String resource : RESOURCES) {
                if (!hinted.contains(resource)) {
                    fail(resource + " preloaded by Early Hints: " + all + "; the server's heads to curl: " + hints + "\n" + kept(netLog, origin));
                }
            }
        }
    }

    /** @return the net-log, copied where the build keeps test reports, and its events for {@code origin} */
    private static String kept(NetLog netLog, String origin) {
        try {
            Path reports = Files.createDirectories(Path.of("target", "surefire-reports"));
            Path kept = Files.copy(netLog.file(), reports.resolve("PushDemoTest-net-log.json"), StandardCopyOption.REPLACE_EXISTING);
            return "The second browser's net-log, " + kept.toAbsolutePath() + ", for " + origin + ":\n" + netLog.events(origin);
        } catch (IOException x) {
            return "The second browser's net-log could not be read: " + x;
        }
    }
}
