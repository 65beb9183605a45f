package io.wharf.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One load generator of the {@code loadgen-cost} run, as a command line to start in its own
 * process and a reading of what it said at the end: Wharf's ({@code ./wharf load}'s
 * {@code LoadCommand} in a JVM with the servers' flags), k6 (its constant-arrival-rate executor),
 * wrk and h2load (both closed: they send as fast as their connections allow). Made by the
 * factories below on the driver thread; immutable.
 *
 * @param tool the generator's name
 * @param setting how it was set up, for the table (connections, streams, rate)
 * @param holdsRate whether it sends at a fixed rate (open model), rather than as fast as it can
 * @param warmupSeconds how long it runs before its CPU is measured
 * @param command the command line, without the {@code taskset} that pins it
 * @param outcome reads the tool's output (and any summary file it wrote) into a note for the table; throws when it failed
 */
record LoadTool(String tool, String setting, boolean holdsRate, int warmupSeconds, List<String> command, Outcome outcome) {

    /** Reads what a finished tool said: a short note (errors, rate it reached), or an exception when requests failed. */
    interface Outcome {
        String read(String output) throws IOException;
    }

    private static final Pattern WHARF_ERRORS = Pattern.compile("\"errors\":\\s*(\\d+)");
    private static final Pattern WHARF_LATE = Pattern.compile("\"lateRequests\":\\s*(\\d+)");
    private static final Pattern K6_COUNTS = Pattern.compile("requests (\\d+) failed (\\d+) dropped (\\d+)");

    /**
     * Wharf's generator, open model at {@code rate} reached after a linear ramp-up of {@code rampUp} seconds (while
     * its JVM compiles), {@code users} users of one connection each, on one sending thread.
     */
    static LoadTool wharf(String url, Protocol protocol, int rate, int users, int rampUp, int warmup, int seconds, Path directory) {
        Path json = directory.resolve("wharf-" + protocol + ".json");
        List<String> command = ServerChild.java("io.wharf.loadgen.cli.LoadCommand");
        command.addAll(List.of("--rate", Integer.toString(rate), "--ramp-up", rampUp + "s", "--duration", seconds + "s", "--threads", "1", "--users", Integer.toString(users),
            "--connections", "1", "--protocol", wharfProtocol(protocol), "--json", json.toString()));
        if (protocol == Protocol.H2) {
            command.add("--insecure");
        }
        command.add(url);
        return new LoadTool("wharf-loadgen", users + " users x 1 connection, " + rate + "/s", true, warmup, command, output -> {
            String summary = Files.readString(json);
            long errors = number(WHARF_ERRORS, summary, "errors");
            if (errors > 0) {
                throw new IllegalStateException("wharf-loadgen: " + errors + " errors:\n" + output);
            }
            // Not its achieved rate: with a ramp-up, that counts the ramp's slower start too.
            return number(WHARF_LATE, summary, "lateRequests") + " requests sent late by its own count";
        });
    }

    private static String wharfProtocol(Protocol protocol) {
        return switch (protocol) {
            case HTTP_1_1 -> "http/1.1";
            case H2C -> "h2c";
            case H2 -> "h2";
        };
    }

    /**
     * k6 with its constant-arrival-rate executor at {@code rate}, {@code users} VUs allocated
     * before the start (each VU has its connection), bodies discarded, no usage report; its
     * summary hook writes the counts the note is made of. k6 speaks HTTP/2 only over TLS (ALPN).
     */
    static LoadTool k6(String url, int rate, int users, int warmup, int seconds, Path directory) throws IOException {
        Path script = directory.resolve("k6-load.js");
        Path summary = directory.resolve("k6-summary.txt");
        Files.writeString(script, """
            import http from 'k6/http';

            export const options = {
              discardResponseBodies: true,
              insecureSkipTLSVerify: true,
              scenarios: {
                load: {
                  executor: 'constant-arrival-rate',
                  rate: Number(__ENV.RATE),
                  timeUnit: '1s',
                  duration: __ENV.DURATION,
                  preAllocatedVUs: Number(__ENV.VUS),
                  maxVUs: Number(__ENV.VUS),
                },
              },
            };

            export default function () {
              http.get(__ENV.URL);
            }

            export function handleSummary(data) {
              const count = (name, field) => data.metrics[name] ? data.metrics[name].values[field] : 0;
              return {
                [__ENV.SUMMARY]: 'requests ' + count('http_reqs', 'count') + ' failed ' + count('http_req_failed', 'passes')
                  + ' dropped ' + count('dropped_iterations', 'count') + '\\n',
              };
            }
            """);
        List<String> command = List.of("env", "K6_NO_USAGE_REPORT=true", "RATE=" + rate, "VUS=" + users, "DURATION=" + seconds + "s",
            "URL=" + url, "SUMMARY=" + summary, find("k6"), "run", "--quiet", "--no-color", script.toString());
        return new LoadTool("k6", users + " VUs, constant-arrival-rate " + rate + "/s", true, warmup, command, output -> {
            Matcher counts = K6_COUNTS.matcher(Files.readString(summary));
            if (!counts.find()) {
                throw new IllegalStateException("k6 wrote no summary:\n" + output);
            }
            if (Long.parseLong(counts.group(2)) > 0) {
                throw new IllegalStateException("k6: " + counts.group(2) + " of " + counts.group(1) + " requests failed:\n" + output);
            }
            return "dropped iterations (rate not held): " + counts.group(3);
        });
    }

    /** wrk, one thread, {@code connections} connections: closed, as fast as they go. */
    static LoadTool wrk(String url, int connections, int warmup, int seconds) {
        List<String> command = List.of(find("wrk"), "-t1", "-c" + connections, "-d" + seconds + "s", "--timeout", "10s", url);
        return new LoadTool("wrk", "-t1 -c" + connections + " (closed)", false, warmup, command, output -> {
            Wrk.Result result = Wrk.parse(output);
            if (result.non2xx() > 0) {
                throw new IllegalStateException("wrk: " + result.non2xx() + " responses not 2xx:\n" + output);
            }
            return result.socketErrors().isEmpty() ? "" : "socket errors: " + result.socketErrors();
        });
    }

    /** h2load, one thread, {@code connections} connections with {@code streams} requests in flight each: closed. */
    static LoadTool h2load(String url, Protocol protocol, int connections, int streams, int warmup, int seconds) {
        List<String> command = new ArrayList<>(List.of(find("h2load"), "-t1", "-c" + connections, "-m" + streams, "-D", Integer.toString(seconds)));
        if (protocol == Protocol.HTTP_1_1) {
            command.add("--h1");
        }
        command.add(url);
        return new LoadTool("h2load", "-t1 -c" + connections + " -m" + streams + (protocol == Protocol.HTTP_1_1 ? " --h1" : "") + " (closed)",
            false, warmup, List.copyOf(command), output -> {
                H2load.check(H2load.parse(output), output);
                return "";
            });
    }

    /** @return the path of {@code name} in /usr/bin, /usr/local/bin or Go's bin directory ({@code ~/go/bin}, where install-peers puts k6) */
    static String find(String name) {
        List<Path> candidates = new ArrayList<>(List.of(Path.of("/usr/bin", name), Path.of("/usr/local/bin", name)));
        String goPath = System.getenv("GOPATH");
        candidates.add(Path.of(goPath != null ? goPath : System.getProperty("user.home") + "/go", "bin", name));
        for (Path candidate : candidates) {
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        throw new IllegalStateException(name + " is not installed (looked in " + candidates + "); run scripts/install-peers " + name);
    }

    private static long number(Pattern pattern, String text, String name) {
        return Long.parseLong(group(pattern, text, name));
    }

    private static String group(Pattern pattern, String text, String name) {
        Matcher matcher = pattern.matcher(text);
        if (!matcher.find()) {
            throw new IllegalStateException("no " + name + " in " + text);
        }
        return matcher.group(1);
    }
}
