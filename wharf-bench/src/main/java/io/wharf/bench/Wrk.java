package io.wharf.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs the {@code wrk} load generator (one thread, pinned to CPU 1 when {@code taskset}
 * exists) against a URL and reads its summary; as a {@link Load}, it runs HTTP/1.1 scenarios
 * against a server's clear-text HTTP/1.1 port. Called from the macro's driver thread; each
 * run blocks until wrk exits. Pipelining and uploads are Lua scripts written once into a
 * temporary directory owned by this object and deleted by {@link #close()}.
 */
final class Wrk implements Load {

    /** What one wrk run measured: responses received, the wall time wrk reports, and errors. */
    record Result(long requests, double seconds, double requestsPerSecond, long non2xx, String socketErrors) {
    }

    private static final Pattern REQUESTS = Pattern.compile("(\\d+) requests in ([\\d.]+)(us|ms|s|m)");
    private static final Pattern RATE = Pattern.compile("Requests/sec:\\s+([\\d.]+)");
    private static final Pattern NON_2XX = Pattern.compile("Non-2xx or 3xx responses: (\\d+)");
    private static final Pattern SOCKET_ERRORS = Pattern.compile("Socket errors: (.*)");

    private final String executable;
    private final Path directory;

    Wrk() throws IOException {
        executable = find();
        directory = Files.createTempDirectory("wharf-wrk");
    }

    private static String find() {
        for (String candidate : List.of("/usr/bin/wrk", "/usr/local/bin/wrk")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("wrk is not installed (looked in /usr/bin and /usr/local/bin)");
    }

    /** Runs an HTTP/1.1 scenario; fails when a response was not 2xx or none came. */
    @Override
    public Load.Run run(ServerUnderTest server, LoadComparison.Scenario scenario, int seconds) throws IOException, InterruptedException {
        if (scenario.protocol() != Protocol.HTTP_1_1) {
            throw new IllegalArgumentException("wrk speaks HTTP/1.1 only, not " + scenario.protocol());
        }
        String url = "http://127.0.0.1:" + server.port() + scenario.path();
        Result result = scenario.uploadBytes() > 0 ? upload(url, scenario.connections(), scenario.pipeline(), scenario.uploadBytes(), seconds)
            : run(url, scenario.connections(), scenario.pipeline(), seconds);
        if (result.requests() == 0 || result.non2xx() > 0) {
            throw new IllegalStateException(result.requests() + " responses, " + result.non2xx() + " of them not 2xx");
        }
        String errors = result.socketErrors().matches("connect 0, read 0, write 0, timeout 0") ? "" : result.socketErrors();
        return new Load.Run(result.requests(), result.requestsPerSecond(), errors);
    }

    /**
     * @param url the URL to load, for example {@code http://127.0.0.1:8080/plaintext}
     * @param connections keep-alive connections wrk keeps open
     * @param pipeline requests sent back to back on a connection before reading (1: no pipelining)
     * @param seconds how long to run
     */
    Result run(String url, int connections, int pipeline, int seconds) throws IOException, InterruptedException {
        return run(url, connections, pipeline > 1 ? pipelineScript(pipeline) : null, seconds);
    }

    /**
     * As {@link #run(String, int, int, int)}, each request a {@code POST} of {@code bytes} bytes
     * ({@code application/octet-stream}, with its Content-Length); one at a time on each connection.
     */
    Result upload(String url, int connections, int pipeline, int bytes, int seconds) throws IOException, InterruptedException {
        if (pipeline > 1) {
            throw new IllegalArgumentException("uploads are not pipelined here");
        }
        return run(url, connections, uploadScript(bytes), seconds);
    }

    private Result run(String url, int connections, Path script, int seconds) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(ServerChild.pinnedTo("1"));
        command.addAll(List.of(executable, "-t1", "-c" + connections, "-d" + seconds + "s", "--timeout", "10s"));
        if (script != null) {
            command.addAll(List.of("-s", script.toString()));
        }
        command.add(url);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("wrk did not end: " + String.join(" ", command));
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("wrk failed (" + process.exitValue() + "): " + output);
        }
        return parse(output);
    }

    static Result parse(String output) {
        Matcher requests = REQUESTS.matcher(output);
        Matcher rate = RATE.matcher(output);
        if (!requests.find() || !rate.find()) {
            throw new IllegalStateException("no summary in wrk's output: " + output);
        }
        double seconds = Double.parseDouble(requests.group(2)) * switch (requests.group(3)) {
            case "us" -> 1e-6;
            case "ms" -> 1e-3;
            case "m" -> 60;
            default -> 1;
        };
        Matcher non2xx = NON_2XX.matcher(output);
        Matcher socketErrors = SOCKET_ERRORS.matcher(output);
        return new Result(Long.parseLong(requests.group(1)), seconds, Double.parseDouble(rate.group(1)),
            non2xx.find() ? Long.parseLong(non2xx.group(1)) : 0, socketErrors.find() ? socketErrors.group(1).trim() : "");
    }

    /** A script that sends {@code depth} GET requests for the URL's path in one write. */
    private Path pipelineScript(int depth) throws IOException {
        Path script = directory.resolve("pipeline-" + depth + ".lua");
        if (!Files.exists(script)) {
            Files.writeString(script, """
                init = function(args)
                  local requests = {}
                  for i = 1, %d do
                    requests[i] = wrk.format(nil)
                  end
                  req = table.concat(requests)
                end

                request = function()
                  return req
                end
                """.formatted(depth));
        }
        return script;
    }

    /** A script that makes every request a {@code POST} of {@code bytes} bytes of {@code x}. */
    private Path uploadScript(int bytes) throws IOException {
        Path script = directory.resolve("upload-" + bytes + ".lua");
        if (!Files.exists(script)) {
            Files.writeString(script, """
                wrk.method = "POST"
                wrk.headers["Content-Type"] = "application/octet-stream"
                wrk.body = string.rep("x", %d)
                """.formatted(bytes));
        }
        return script;
    }

    @Override
    public void close() throws IOException {
        try (var files = Files.list(directory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(directory);
    }
}
