package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.wharf.examples.WebSocketEchoServer;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Autobahn WebSocket conformance cases, run by kosoku (installed by
 * {@code scripts/install-peers kosoku} into a venv under {@code ~/.cache/wharf}) against the
 * echo server of {@code ./wharf ws-echo}: every case of sections 1 to 11 must pass (OK,
 * NON-STRICT or INFORMATIONAL). Sections 12 and 13 (permessage-deflate) wait for the extension.
 * In CI a missing kosoku fails the test; elsewhere it is skipped.
 */
class AutobahnTest {

    private static final Pattern CASE = Pattern.compile(
        "\"(\\d+(?:\\.\\d+)+)\"\\s*:\\s*\\{\\s*\"behavior\"\\s*:\\s*\"([A-Z-]+)\"\\s*,\\s*\"behaviorClose\"\\s*:\\s*\"([A-Z-]+)\"");

    @TempDir
    Path directory;

    private WebSocketEchoServer.Running echo;

    @AfterEach
    void stop() throws Exception {
        if (echo != null) {
            echo.server().stop();
        }
    }

    @Test
    void casesOneToElevenPass() throws Exception {
        String kosoku = kosoku();
        echo = WebSocketEchoServer.start(0);
        Path reports = directory.resolve("reports");
        List<String> command = new ArrayList<>(List.of(kosoku, "-m", "fuzzingclient", "-i", "*", "-x", "12.*", "-x", "13.*",
            "-p", "2", "-o", reports.toString(), "127.0.0.1:" + echo.port()));
        Process process = new ProcessBuilder(command).directory(directory.toFile()).redirectErrorStream(true)
            .redirectOutput(directory.resolve("kosoku.log").toFile()).start();
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("kosoku did not finish in 5 minutes");
        }
        String log = Files.readString(directory.resolve("kosoku.log"), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "kosoku failed: " + log);
        String index = Files.readString(reports.resolve("index.json"), StandardCharsets.UTF_8);
        Map<String, Integer> behaviors = new TreeMap<>();
        List<String> failed = new ArrayList<>();
        Matcher matcher = CASE.matcher(index);
        int cases = 0;
        while (matcher.find()) {
            cases++;
            behaviors.merge(matcher.group(2), 1, Integer::sum);
            if (!passed(matcher.group(2)) || !passed(matcher.group(3))) {
                failed.add(matcher.group(1) + " " + matcher.group(2) + "/" + matcher.group(3));
            }
        }
        System.out.println("Autobahn cases 1-11 against ws-echo: " + cases + " cases, " + behaviors);
        assertTrue(cases >= 300, "expected the 301 cases of sections 1-11, found " + cases + ": " + log);
        assertTrue(failed.isEmpty(), "failed cases: " + failed);
    }

    private static boolean passed(String behavior) {
        return behavior.equals("OK") || behavior.equals("NON-STRICT") || behavior.equals("INFORMATIONAL");
    }

    /** @return kosoku's path: the venv install-peers makes, or the PATH; fails in CI, skips elsewhere, when missing */
    private static String kosoku() {
        String cache = System.getenv().getOrDefault("WHARF_CACHE", System.getProperty("user.home") + "/.cache/wharf");
        File venv = new File(cache, "kosoku-venv/bin/kosoku");
        if (venv.canExecute()) {
            return venv.getPath();
        }
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (new File(directory, "kosoku").canExecute()) {
                return new File(directory, "kosoku").getPath();
            }
        }
        String missing = "kosoku is not installed; run scripts/install-peers kosoku";
        if ("true".equals(System.getenv("CI"))) {
            throw new AssertionError(missing);
        }
        Assumptions.assumeTrue(false, missing);
        return null;
    }
}
