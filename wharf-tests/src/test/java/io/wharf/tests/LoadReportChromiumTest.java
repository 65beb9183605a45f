package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.wharf.examples.Demo;
import io.wharf.loadgen.HtmlReport;
import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Protocol;
import io.wharf.loadgen.Resource;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The load generator's HTML report in real headless Chromium: a short run against the demo
 * (trees of {@code /hello} and two sub-resources, one of them missing, so that there are errors,
 * and a probe), its report and the report of its merged interval log opened from files, and each
 * of their five charts drawn — an SVG box of the chart's size, and, painted onto a canvas by the
 * browser itself, thousands of pixels that are not background in several colours (axes, text and
 * the series' lines).
 */
@Timeout(120)
class LoadReportChromiumTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final List<String> CAPTIONS = List.of("Latency percentiles over time", "The probe's latency over time, beside the loaders'",
            "Latency by percentile", "Throughput over time", "Errors by kind over time");

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    private Chromium chromium;

    @AfterEach
    void stop() throws Exception {
        if (chromium != null) {
            chromium.close();
        }
    }

    @Test
    void chartsRender() throws Exception {
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        Path log = directory.resolve("run.hlog");
        LoadResult result = LoadGenerator.builder(URI.create("http://127.0.0.1:" + demo.httpPort() + "/"))
                .protocol(Protocol.H2C)
                .resource(Resource.of("/hello", Resource.of("/json"), Resource.of("/no-such-page")))
                .rate(150)
                .warmupIterations(50)
                .duration(Duration.ofSeconds(2))
                .reportInterval(Duration.ofMillis(200))
                .probe(10)
                .intervalLog(log)
                .build()
                .run();
        assertTrue(result.requests() > 0, "requests: " + result.requests());
        assertTrue(result.errorsByKind().containsKey("HTTP 404"), "errors: " + result.errorsByKind());
        assertTrue(result.probe().requests() > 0, "probe requests: " + result.probe().requests());
        Path report = directory.resolve("report.html");
        HtmlReport.write(result, report);
        Path merged = directory.resolve("merged.html");
        HtmlReport.write(LoadResult.merge(List.of(log)), merged);

        chromium = Chromium.start(directory.resolve("profile"));
        for (Path page : List.of(report, merged)) {
            String url = page.toUri().toString();
            Chromium.Page tab = chromium.open(url);
            // Not the ready state alone: the new tab's about:blank is already complete.
            tab.awaitLoaded(url, WAIT);
            assertChartsDrawn(tab, page.getFileName().toString());
        }
    }

    private static void assertChartsDrawn(Chromium.Page page, String name) throws Exception {
        assertEquals(String.valueOf(CAPTIONS.size()), page.evaluate("document.querySelectorAll('figure svg').length"), name);
        assertEquals(String.join("|", CAPTIONS),
                page.evaluate("Array.from(document.querySelectorAll('figcaption')).map(caption => caption.textContent).join('|')"), name);
        Map<String, String> drawn = new TreeMap<>();
        for (int chart = 0; chart < CAPTIONS.size(); chart++) {
            drawn.put(name + " " + CAPTIONS.get(chart), page.evaluate(paint(chart)));
        }
        for (Map.Entry<String, String> chart : drawn.entrySet()) {
            String[] numbers = chart.getValue().split(" ");
            int width = Integer.parseInt(numbers[0]);
            int height = Integer.parseInt(numbers[1]);
            int inked = Integer.parseInt(numbers[2]);
            int colours = Integer.parseInt(numbers[3]);
            assertTrue(width >= 600 && height >= 300, chart.getKey() + " is laid out at its size: " + drawn);
            assertTrue(inked > 2_000, chart.getKey() + " has ink: " + drawn);
            assertTrue(colours >= 3, chart.getKey() + " has axes, text and series in colours: " + drawn);
        }
    }

    /**
     * @return JavaScript that draws the SVG of figure {@code chart} onto a canvas, as the browser
     *     renders it, and answers "width height inkedPixels colours"
     */
    private static String paint(int chart) {
        return """
                new Promise((resolve, reject) => {
                  const svg = document.querySelector('#chart-%d svg');
                  const box = svg.getBoundingClientRect();
                  const image = new Image();
                  image.onerror = () => reject(new Error('the chart does not load as an image'));
                  image.onload = () => {
                    const canvas = document.createElement('canvas');
                    canvas.width = Math.round(box.width);
                    canvas.height = Math.round(box.height);
                    const context = canvas.getContext('2d');
                    context.fillStyle = '#fff';
                    context.fillRect(0, 0, canvas.width, canvas.height);
                    context.drawImage(image, 0, 0, canvas.width, canvas.height);
                    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
                    let inked = 0;
                    const colours = new Set();
                    for (let i = 0; i < pixels.length; i += 4) {
                      if (pixels[i] < 200 || pixels[i + 1] < 200 || pixels[i + 2] < 200) {
                        inked++;
                        colours.add((pixels[i] >> 5) + ',' + (pixels[i + 1] >> 5) + ',' + (pixels[i + 2] >> 5));
                      }
                    }
                    resolve(Math.round(box.width) + ' ' + Math.round(box.height) + ' ' + inked + ' ' + colours.size);
                  };
                  const source = new XMLSerializer().serializeToString(svg);
                  image.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(source);
                })""".formatted(chart);
    }
}
