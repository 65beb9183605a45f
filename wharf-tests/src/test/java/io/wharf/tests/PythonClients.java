package io.wharf.tests;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.testing.Peers;

import org.junit.jupiter.api.Assumptions;

/**
 * Test helper: HTTP clients written in Python by others — {@code h2}, {@code httpx} with HTTP/2
 * and {@code websockets}, at pinned versions — in a venv of their own under
 * {@code ~/.cache/wharf} ({@code WHARF_CACHE}), like kosoku's. The first test that needs them
 * makes the venv with {@code python3 -m venv} and installs them with pip (again when the pins
 * change), under a file lock, since tests in other checkouts may share the cache; where pip
 * cannot install them the test fails in CI and is skipped elsewhere, as with a missing peer.
 * {@link #start} runs one of the scripts in {@code src/test/resources/python} with that venv's
 * Python. Called on the test's thread.
 */
final class PythonClients {

    /** The packages and their versions; written into the venv once installed, to know it is current. */
    static final List<String> PACKAGES = List.of("h2==4.1.0", "httpx[http2]==0.28.1", "websockets==15.0.1");

    private PythonClients() {
    }

    /**
     * Starts {@code script} (a file in {@code src/test/resources/python}) with {@code arguments},
     * its standard error merged into its standard output; the caller reads it and waits (bounded).
     */
    static Process start(String script, String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of(python().toString(), script(script).toString()));
        command.addAll(List.of(arguments));
        return new ProcessBuilder(command).redirectErrorStream(true).start();
    }

    /**
     * Runs {@code script} to its end, at most 60 s.
     *
     * @return its output
     * @throws AssertionError when it exits with an error or does not finish, with its output
     */
    static String run(String script, String... arguments) throws Exception {
        Process process = start(script, arguments);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError(script + " did not finish: " + output);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError(script + " exited with " + process.exitValue() + ": " + output);
        }
        return output;
    }

    /** @return the venv's python, the venv made and the packages installed first when they are not yet */
    private static Path python() throws Exception {
        Peers.requireTool("python3");
        Path cache = Path.of(System.getenv().getOrDefault("WHARF_CACHE", System.getProperty("user.home") + "/.cache/wharf"));
        Path venv = cache.resolve("python-clients-venv");
        Path pins = venv.resolve("wharf-pins.txt");
        String wanted = String.join("\n", PACKAGES);
        Files.createDirectories(cache);
        try (FileChannel channel = FileChannel.open(cache.resolve("python-clients.lock"), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                FileLock lock = channel.lock()) {
            if (!Files.exists(pins) || !Files.readString(pins, StandardCharsets.UTF_8).equals(wanted)) {
                install(venv);
                Files.writeString(pins, wanted, StandardCharsets.UTF_8);
            }
        }
        return venv.resolve("bin/python");
    }

    private static void install(Path venv) throws IOException, InterruptedException {
        String made = runOrNull(List.of("python3", "-m", "venv", "--clear", venv.toString()));
        List<String> pip = new ArrayList<>(List.of(venv.resolve("bin/pip").toString(), "install", "-q", "--disable-pip-version-check"));
        pip.addAll(PACKAGES);
        String installed = made == null ? runOrNull(pip) : made;
        if (installed != null) {
            String missing = "could not install " + PACKAGES + " into " + venv + ": " + installed;
            if ("true".equals(System.getenv("CI"))) {
                throw new AssertionError(missing);
            }
            Assumptions.assumeTrue(false, missing);
        }
    }

    /** @return null when {@code command} succeeded within 5 minutes, else its output */
    private static String runOrNull(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(5, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return "did not finish: " + command + " " + output;
        }
        return process.exitValue() == 0 ? null : "exit " + process.exitValue() + ": " + command + " " + output;
    }

    private static Path script(String name) throws URISyntaxException {
        var resource = PythonClients.class.getResource("/python/" + name);
        if (resource == null) {
            throw new IllegalArgumentException("no script src/test/resources/python/" + name);
        }
        return new File(resource.toURI()).toPath();
    }
}
