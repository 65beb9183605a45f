package io.wharf.tests;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Assumptions;

/**
 * kosoku, the Autobahn WebSocket conformance cases (installed by {@code scripts/install-peers
 * kosoku} into a venv under {@code ~/.cache/wharf}), as both Autobahn tests use it: where it
 * is, and what its {@code index.json} report says of each case.
 */
final class Kosoku {

    /** One case's entry: {@code "1.1.1": {"behavior": "OK", "behaviorClose": "OK", ...}}. */
    private static final Pattern CASE = Pattern.compile(
        "\"(\\d+(?:\\.\\d+)+)\"\\s*:\\s*\\{\\s*\"behavior\"\\s*:\\s*\"([A-Z-]+)\"\\s*,\\s*\"behaviorClose\"\\s*:\\s*\"([A-Z-]+)\"");

    private Kosoku() {
    }

    /**
     * The cases of one report.
     *
     * @param cases how many cases it lists
     * @param behaviors how many cases had each behavior
     * @param failed the cases whose behavior or close behavior Autobahn does not count as passed
     * @param notOk the cases that passed other than OK (NON-STRICT, INFORMATIONAL), with their behaviors
     */
    record Report(int cases, Map<String, Integer> behaviors, List<String> failed, List<String> notOk) {
    }

    /** @return what {@code index} (a report's index.json) says */
    static Report read(Path index) throws IOException {
        String json = Files.readString(index, StandardCharsets.UTF_8);
        Map<String, Integer> behaviors = new TreeMap<>();
        List<String> failed = new ArrayList<>();
        List<String> notOk = new ArrayList<>();
        Matcher matcher = CASE.matcher(json);
        int cases = 0;
        while (matcher.find()) {
            cases++;
            behaviors.merge(matcher.group(2), 1, Integer::sum);
            if (!passed(matcher.group(2)) || !passed(matcher.group(3))) {
                failed.add(matcher.group(1) + " " + matcher.group(2) + "/" + matcher.group(3));
            } else if (!matcher.group(2).equals("OK") || !matcher.group(3).equals("OK")) {
                notOk.add(matcher.group(1) + " " + matcher.group(2) + "/" + matcher.group(3));
            }
        }
        return new Report(cases, behaviors, failed, notOk);
    }

    private static boolean passed(String behavior) {
        return behavior.equals("OK") || behavior.equals("NON-STRICT") || behavior.equals("INFORMATIONAL");
    }

    /** @return kosoku's path: the venv install-peers makes, or the PATH; fails in CI, skips elsewhere, when missing */
    static String executable() {
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
