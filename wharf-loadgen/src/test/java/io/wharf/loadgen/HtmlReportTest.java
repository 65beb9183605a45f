package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The HTML report's page: self-contained, four charts with ids of their own, the numbers, the warning. (Chromium draws it in wharf-tests.) */
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

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
