package io.wharf.bench;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Runs nghttp2's {@code h2load} (one thread, pinned to CPU 1 when {@code taskset} exists) for
 * the HTTP/2 scenarios of a macro run: h2c with prior knowledge against a server's h2c port,
 * or h2 over TLS (ALPN; TLS 1.3 with {@value #TLS13_CIPHER_SUITE} only) against its TLS port,
 * for a fixed time ({@code -D}, no warm-up inside the run: the server's CPU is measured around
 * the whole run, so every request it served must be among those counted). Reads the summary
 * and fails when any request failed, errored or timed out, when a status was not 2xx, or when
 * the negotiated protocol is not the one asked for. Called from the macro's driver thread;
 * each run blocks until h2load exits.
 */
final class H2load implements Load {

    /** What one h2load run measured, from its summary lines. */
    record Result(double requestsPerSecond, long succeeded, long failed, long errored, long timedOut, long notStatus2xx,
                  String applicationProtocol, String tls) {
    }

    private static final Pattern FINISHED = Pattern.compile("finished in [\\d.]+\\w+, ([\\d.]+) req/s");
    private static final Pattern REQUESTS = Pattern.compile(
        "requests: \\d+ total, \\d+ started, \\d+ done, (\\d+) succeeded, (\\d+) failed, (\\d+) errored, (\\d+) timeout");
    private static final Pattern STATUS = Pattern.compile("status codes: \\d+ 2xx, (\\d+) 3xx, (\\d+) 4xx, (\\d+) 5xx");
    private static final Pattern APPLICATION_PROTOCOL = Pattern.compile("Application protocol: (\\S+)");
    private static final Pattern TLS_PROTOCOL = Pattern.compile("TLS Protocol: (\\S+)");
    private static final Pattern CIPHER = Pattern.compile("Cipher: (\\S+)");

    /**
     * The one TLS 1.3 suite h2load offers, so that every server uses it: h2load's own first
     * choice, which nginx (client order) took while the JVMs (server order) took AES-256.
     */
    static final String TLS13_CIPHER_SUITE = "TLS_AES_128_GCM_SHA256";

    private final String executable;
    private String lastTls = "";

    H2load() {
        executable = find();
    }

    private static String find() {
        for (String candidate : List.of("/usr/bin/h2load", "/usr/local/bin/h2load")) {
            if (Files.isExecutable(Path.of(candidate))) {
                return candidate;
            }
        }
        throw new IllegalStateException("h2load is not installed (looked in /usr/bin and /usr/local/bin; Debian's package is nghttp2-client)");
    }

    @Override
    public Load.Run run(ServerUnderTest server, LoadComparison.Scenario scenario, int seconds) throws Exception {
        String url = switch (scenario.protocol()) {
            case H2C -> "http://127.0.0.1:" + server.port(Protocol.H2C) + scenario.path();
            case H2 -> "https://127.0.0.1:" + server.port(Protocol.H2) + scenario.path();
            case HTTP_1_1 -> throw new IllegalArgumentException("h2load runs the HTTP/2 scenarios only");
        };
        if (scenario.uploadBytes() > 0) {
            throw new IllegalArgumentException("h2load is driven here with GET requests only, not uploads");
        }
        Result result = run(url, scenario.connections(), scenario.pipeline(), seconds);
        String expected = scenario.protocol() == Protocol.H2 ? "h2" : "h2c";
        if (!expected.equals(result.applicationProtocol())) {
            throw new IllegalStateException("h2load spoke " + result.applicationProtocol() + ", not " + expected);
        }
        if (!result.tls().isEmpty() && !lastTls.equals(url + result.tls())) {
            lastTls = url + result.tls();
            System.out.println("  (h2load negotiated " + result.tls() + " with " + url + ")");
        }
        return new Load.Run(result.succeeded(), result.requestsPerSecond(), "");
    }

    /**
     * @param url an {@code http} URL (h2c with prior knowledge) or an {@code https} one (h2 by ALPN)
     * @param connections connections h2load opens
     * @param streams concurrent streams on each ({@code -m})
     * @param seconds how long to run ({@code -D})
     */
    Result run(String url, int connections, int streams, int seconds) throws Exception {
        List<String> command = new ArrayList<>(ServerChild.pinnedTo("1"));
        command.addAll(List.of(executable, "-t1", "-c" + connections, "-m" + streams, "-D", Integer.toString(seconds)));
        if (url.startsWith("https:")) {
            command.add("--tls13-ciphers=" + TLS13_CIPHER_SUITE);
        }
        command.add(url);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(seconds + 60L, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("h2load did not end: " + String.join(" ", command));
        }
        if (process.exitValue() != 0) {
            throw new IllegalStateException("h2load failed (" + process.exitValue() + "): " + output);
        }
        return check(parse(output), output);
    }

    /** @return the summary of h2load's output; throws when a summary line is missing */
    static Result parse(String output) {
        Matcher finished = FINISHED.matcher(output);
        Matcher requests = REQUESTS.matcher(output);
        Matcher status = STATUS.matcher(output);
        if (!finished.find() || !requests.find() || !status.find()) {
            throw new IllegalStateException("no summary in h2load's output: " + output);
        }
        Matcher protocol = APPLICATION_PROTOCOL.matcher(output);
        Matcher tlsProtocol = TLS_PROTOCOL.matcher(output);
        Matcher cipher = CIPHER.matcher(output);
        String tls = tlsProtocol.find() ? tlsProtocol.group(1) + (cipher.find() ? " " + cipher.group(1) : "") : "";
        return new Result(Double.parseDouble(finished.group(1)), Long.parseLong(requests.group(1)), Long.parseLong(requests.group(2)),
            Long.parseLong(requests.group(3)), Long.parseLong(requests.group(4)),
            Long.parseLong(status.group(1)) + Long.parseLong(status.group(2)) + Long.parseLong(status.group(3)),
            protocol.find() ? protocol.group(1) : "none", tls);
    }

    /**
     * @return the result when every request succeeded with a 2xx status; throws otherwise, with
     * h2load's output. (h2load counts a status when the response head comes, so a stream still
     * open when the time is up has a status but is not among those done; it is not a failure.)
     */
    static Result check(Result result, String output) {
        if (result.succeeded() == 0 || result.failed() > 0 || result.errored() > 0 || result.timedOut() > 0 || result.notStatus2xx() > 0) {
            throw new IllegalStateException(result.succeeded() + " requests succeeded, " + result.failed() + " failed, " + result.errored()
                + " errored, " + result.timedOut() + " timed out, " + result.notStatus2xx() + " answered 3xx, 4xx or 5xx; h2load said:\n"
                + output);
        }
        return result;
    }

    @Override
    public void close() {
        // nothing kept
    }
}
