package io.wharf.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.testing.Peers;

/**
 * Runs the real curl binary (installed by {@code scripts/install-peers}, which
 * {@code ./wharf test} calls) and returns what it printed. In CI a missing curl fails the
 * test; elsewhere the test is skipped with a message.
 */
final class Curl {

    private Curl() {
    }

    /**
     * Runs curl with {@code arguments} (plus -s -S), waiting at most 60 s.
     *
     * @return standard output as ISO-8859-1 text
     * @throws AssertionError when curl exits with an error, with its standard error
     */
    static String run(String... arguments) throws IOException, InterruptedException {
        Peers.requireTool("curl");
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
