package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;

/**
 * Runs the real curl binary (installed by {@code scripts/install-peers}, which
 * {@code ./wharf test} calls) and returns what it printed. In CI a missing curl fails the
 * test; elsewhere the test is skipped with a message.
 */
final class Curl {

    private Curl() {
    }

    /** Fails in CI, skips elsewhere, when {@code tool} is not on the PATH. */
    static void requireTool(String tool) {
        boolean present = false;
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (new java.io.File(directory, tool).canExecute()) {
                present = true;
                break;
            }
        }
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(present, tool + " is not installed; scripts/install-peers installs it");
        } else {
            Assumptions.assumeTrue(present, tool + " is not installed; run scripts/install-peers " + tool);
        }
    }

    /**
     * Runs curl with {@code arguments} (plus -s -S), waiting at most 60 s.
     *
     * @return standard output as ISO-8859-1 text
     * @throws AssertionError when curl exits with an error, with its standard error
     */
    static String run(String... arguments) throws IOException, InterruptedException {
        requireTool("curl");
        List<String> command = new ArrayList<>(List.of("curl", "-s", "-S", "--max-time", "50"));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        byte[] out = process.getInputStream().readAllBytes();
        byte[] err = process.getErrorStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("curl did not finish: " + command);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("curl exited with " + process.exitValue() + ": " + new String(err, StandardCharsets.UTF_8) + " for " + command);
        }
        return new String(out, StandardCharsets.ISO_8859_1);
    }
}
