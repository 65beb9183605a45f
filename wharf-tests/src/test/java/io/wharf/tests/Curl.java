package io.wharf.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
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
        return traced(arguments).output();
    }

    /** What one curl run printed: its standard output, and its standard error, where {@code -v} writes the headers it sent and got. */
    record Printed(String output, String errors) {
    }

    /**
     * Runs curl as {@link #run} does and returns its standard error too (with {@code -v}, the
     * request headers as {@code > } lines and the response headers as {@code < } lines).
     */
    static Printed traced(String... arguments) throws IOException, InterruptedException {
        List<String> command = command(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(false).start();
        // Standard error on a thread of its own (not a shared pool's, which may be busy): a long -v
        // trace must not fill its pipe while standard output is read.
        CompletableFuture<byte[]> err = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("curl-stderr").start(() -> {
            try {
                err.complete(process.getErrorStream().readAllBytes());
            } catch (IOException x) {
                err.completeExceptionally(x);
            }
        });
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("curl did not finish: " + command);
        }
        String errors = new String(err.join(), StandardCharsets.UTF_8);
        if (process.exitValue() != 0) {
            throw new AssertionError("curl exited with " + process.exitValue() + ": " + errors + " for " + command);
        }
        return new Printed(new String(out, StandardCharsets.ISO_8859_1), errors);
    }

    /**
     * Starts curl with {@code arguments} (plus -s -S and a 50 s limit) in the background,
     * its standard output to {@code output} and its standard error to {@code output}.err (read
     * with {@link #errors}); the caller waits for it (bounded) and reads its exit code.
     */
    static Process start(Path output, String... arguments) throws IOException {
        return new ProcessBuilder(command(arguments))
            .redirectOutput(output.toFile())
            .redirectError(errorsOf(output).toFile())
            .start();
    }

    /** @return what the curl {@link #start started} with {@code output} wrote to its standard error so far ("" when nothing) */
    static String errors(Path output) throws IOException {
        Path errors = errorsOf(output);
        return Files.exists(errors) ? Files.readString(errors, StandardCharsets.UTF_8) : "";
    }

    private static Path errorsOf(Path output) {
        return output.resolveSibling(output.getFileName() + ".err");
    }

    private static List<String> command(String... arguments) {
        Peers.requireTool("curl");
        List<String> command = new ArrayList<>(List.of("curl", "-s", "-S", "--max-time", "50"));
        command.addAll(List.of(arguments));
        return command;
    }
}
