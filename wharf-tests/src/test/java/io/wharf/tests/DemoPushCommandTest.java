package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * The nghttp command the demo's home page tells a visitor to run to see pushes: read from the
 * page, its port changed to the demo's free one, run by Bash exactly as written as many times
 * as the page says; the last run must receive PUSH_PROMISE frames for the push page's linked
 * resources. (The server learns a page's resources from the {@code Referer} of their
 * requests, which nghttp sends only when told to.)
 */
@Timeout(180)
class DemoPushCommandTest {

    /** The resources the push page links to; the stylesheet's own image is not among them, nghttp does not read CSS. */
    private static final List<String> LINKED = List.of("/push/style.css", "/push/app1.js", "/push/app2.js", "/push/app3.js",
            "/push/img1.svg", "/push/img2.svg", "/push/img3.svg", "/push/img4.svg", "/push/img5.svg");

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    @Test
    void theHomePagesNghttpCommandShowsPushes() throws Exception {
        Peers.requireTool("nghttp");
        Demo.Running demo = demos.start(directory.resolve("demo-tls"));
        String home = Curl.run("http://localhost:" + demo.httpPort() + "/");
        Matcher shown = Pattern.compile("<code>(nghttp [^<]*)</code>\\s*(once|twice|three times)?").matcher(home);
        assertTrue(shown.find(), "no nghttp command on the home page: " + home);
        String asShown = unescape(shown.group(1));
        int runs = switch (shown.group(2) == null ? "once" : shown.group(2)) {
            case "twice" -> 2;
            case "three times" -> 3;
            default -> 1;
        };
        assertTrue(!shown.find(), "one nghttp command on the home page: " + home);
        String command = asShown.replace("localhost:8080", "localhost:" + demo.httpPort());
        assertNotEquals(asShown, command, "the command names the demo's default port 8080: " + asShown);

        String output = "";
        for (int run = 1; run <= runs; run++) {
            output = bash(command, directory.resolve("nghttp-" + run + ".txt"));
        }
        Matcher promised = Pattern.compile("recv PUSH_PROMISE frame").matcher(output);
        int promises = 0;
        while (promised.find()) {
            promises++;
        }
        List<String> missing = new ArrayList<>();
        for (String resource : LINKED) {
            if (!output.contains(":path: " + resource + "\n")) {
                missing.add(resource);
            }
        }
        assertEquals(List.of(), missing, "not promised to `" + command + "` run " + runs + " times (" + promises
                + " PUSH_PROMISE frames): " + output);
        assertTrue(promises >= LINKED.size(), promises + " PUSH_PROMISE frames: " + output);
    }

    /** Runs {@code command} with {@code bash -c}, output to {@code log}, for at most 60 s; @return the output */
    private static String bash(String command, Path log) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("`" + command + "` did not finish in 60 s: " + Files.readString(log, StandardCharsets.UTF_8));
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "`" + command + "` failed: " + output);
        return output;
    }

    /** @return the text of an HTML code element: its character references undone */
    private static String unescape(String html) {
        return html.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"").replace("&#39;", "'").replace("&amp;", "&");
    }
}
