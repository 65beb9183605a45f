package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.loadgen.internal.LogMerge;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HTML report's page: self-contained, charts with ids of their own, the numbers, the errors, the resources, the probe,
 * for a run and for its merged logs alike. (Chromium draws it in wharf-tests.)
 */
@Timeout(60)
class HtmlReportTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void isOneSelfContainedPageWithFourCharts() throws Exception {
        try (DelayingHandler answers = new DelayingHandler(path -> 0);
             LoadTestServer server = new LoadTestServer(leaks.pool(), answers.handler())) {
            LoadResult result = LoadGenerator.builder(URI.create(server.uri("/")))
                    .resource(Resource.of("/page", Resource.of("/style.css")))
                    .rate(200)
                    .duration(Duration.ofSeconds(1))
                    .reportInterval(Duration.ofMillis(100))
                    .build()
                    .run();
            String html = HtmlReport.of(result);
            assertEquals(4, count(html, "<svg"), "four charts");
            assertFalse(html.contains("<script"), "no script");
            assertFalse(Pattern.compile("(src|href)=\"(https?:)?//").matcher(html).find(), "nothing fetched from elsewhere");
            for (String title : new String[] {"Latency percentiles over time", "Latency by percentile", "Throughput over time", "Errors by kind"}) {
                assertTrue(html.contains(title), title);
            }
            assertTrue(html.contains("/style.css"), "the resources' table");
            assertTrue(result.intervals().size() >= 5, "intervals: " + result.intervals().size());
            Set<String> ids = new HashSet<>();
            Matcher matcher = Pattern.compile(" id=\"([^\"]+)\"").matcher(html);
            while (matcher.find()) {
                assertTrue(ids.add(matcher.group(1)), "id " + matcher.group(1) + " appears twice");
            }
        }
    }

    @Test
    void showsTheErrorsTheResourcesAndTheProbeOfARunAndOfItsMergedLogs(@TempDir Path directory) throws Exception {
        LoadResult result;
        try (LoadTestServer server = new LoadTestServer(leaks.pool(), LoadTestServer.answering(path -> path.equals("/busy") ? 503 : 200))) {
            result = LoadGenerator.builder(URI.create(server.uri("/")))
                    .resource(Resource.of("/page", Resource.of("/busy"), Resource.of("/style.css")))
                    .connectionsPerUser(3)
                    .rate(200)
                    .iterations(100)
                    .probe(20)
                    .reportInterval(Duration.ofMillis(100))
                    .intervalLog(directory.resolve("run.hlog"))
                    .build()
                    .run();
        }
        LoadResult merged = LogMerge.merge(List.of(directory.resolve("run.hlog")));
        for (LoadResult shown : List.of(result, merged)) {
            String html = HtmlReport.of(shown);
            assertEquals(5, count(html, "<svg"), "five charts");
            assertTrue(figure(html, "The probe's latency over time").contains("<svg"), "the probe's chart");
            assertTrue(figure(html, "Errors by kind over time").contains("<svg"), "the errors' chart");
            assertTrue(html.contains("<tr><td>HTTP 503</td><td>100</td>"), "the errors' table");
            Matcher busy = Pattern.compile("<tr><td>/busy</td><td>100</td><td>100</td>").matcher(html);
            assertTrue(busy.find(), "the resources' table");
            assertTrue(html.contains("<tr><td>/style.css</td><td>100</td><td>0</td>"), "the resources' table");
            assertTrue(html.contains("100 trees"), "the trees");
        }
    }

    /** @return the figure whose caption starts with {@code caption} */
    private static String figure(String html, String caption) {
        int end = html.indexOf("<figcaption>" + caption);
        assertTrue(end > 0, "a figure '" + caption + "'");
        return html.substring(html.lastIndexOf("<figure", end), end);
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
