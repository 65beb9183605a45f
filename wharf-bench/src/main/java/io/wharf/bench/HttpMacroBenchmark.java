package io.wharf.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * {@code ./wharf bench http [ROUNDS]}: the HTTP/1.1 servers side by side — Wharf and Jetty 12.1
 * (each in its own JVM, {@link HelloServers}) and nginx (one worker, {@link NginxChild}) —
 * pinned to CPU 0 and loaded by {@link Wrk} ({@code -t1}) on CPU 1. For each round (default 2)
 * and each server in turn (Wharf, Jetty, nginx: A B C A B C), the server is started and each
 * scenario run twice: a warm-up (5 s) and a measured run (10 s) framed by a mark and a report
 * of the server's CPU time and, for the JVMs, bytes allocated by all its threads. Prints every
 * measurement, then the median over the rounds and the ratios Wharf/Jetty and Wharf/nginx
 * as Markdown tables. {@code -Dwharf.bench.http.seconds=N} and
 * {@code -Dwharf.bench.http.warmup=N} change the durations for a quick look.
 */
public final class HttpMacroBenchmark {

    static final int SECONDS = Integer.getInteger("wharf.bench.http.seconds", 10);
    static final int WARMUP = Integer.getInteger("wharf.bench.http.warmup", 5);

    /** One load: a path, how many keep-alive connections, how many requests pipelined on each. */
    record Scenario(String name, String path, int connections, int pipeline) {
    }

    static final List<Scenario> SCENARIOS = List.of(
        new Scenario("plaintext", "/plaintext", 64, 1),
        new Scenario("plaintext pipelined 16", "/plaintext", 256, 16),
        new Scenario("json", "/json", 256, 1));

    static final List<String> SERVERS = List.of("wharf", "jetty", "nginx");

    /** One measured run of one server on one scenario. Bytes per request is NaN for nginx. */
    record Measurement(int round, String server, Scenario scenario, double requestsPerSecond, double cpuMicrosPerRequest,
                       double bytesPerRequest, String errors) {
    }

    /** What the server spent between a mark and a report: CPU time and (for a JVM) bytes allocated, else -1. */
    record Usage(long cpuNanos, long allocatedBytes) {
    }

    /** A running server under test. */
    interface Subject extends AutoCloseable {
        int port();

        void mark() throws Exception;

        Usage usage() throws Exception;
    }

    private HttpMacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        ServerChild.pinDriver();
        System.out.println("http: wrk -t1, " + WARMUP + " s warm-up + " + SECONDS + " s measured per scenario, " + rounds
            + " rounds, JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        List<Measurement> measurements = new ArrayList<>();
        try (Wrk wrk = new Wrk()) {
            for (int round = 1; round <= rounds; round++) {
                for (String server : SERVERS) {
                    try (Subject subject = start(server)) {
                        for (Scenario scenario : SCENARIOS) {
                            Measurement measurement = measure(wrk, round, server, subject, scenario);
                            measurements.add(measurement);
                            System.out.printf(Locale.ROOT, "  round %d %s %s: %.0f req/s, %.2f µs CPU/req, %.1f B/req%s%n", round, server,
                                scenario.name(), measurement.requestsPerSecond(), measurement.cpuMicrosPerRequest(),
                                measurement.bytesPerRequest(), measurement.errors().isEmpty() ? "" : ", errors: " + measurement.errors());
                        }
                    }
                }
            }
        }
        printAll(measurements);
        printMedians(measurements);
    }

    static Subject start(String server) throws Exception {
        if (server.equals("nginx")) {
            NginxChild nginx = NginxChild.start();
            return new Subject() {
                @Override
                public int port() {
                    return nginx.port();
                }

                @Override
                public void mark() throws Exception {
                    nginx.mark();
                }

                @Override
                public Usage usage() throws Exception {
                    return new Usage(nginx.cpuSinceMark(), -1);
                }

                @Override
                public void close() throws Exception {
                    nginx.close();
                }
            };
        }
        ServerChild child = ServerChild.start(server + "-http");
        return new Subject() {
            @Override
            public int port() {
                return child.port();
            }

            @Override
            public void mark() throws Exception {
                child.command("MARK");
            }

            @Override
            public Usage usage() throws Exception {
                String report = child.command("REPORT");
                return new Usage(ServerChild.field(report, "CPU_NS"), ServerChild.field(report, "ALLOCATED_BYTES"));
            }

            @Override
            public void close() throws Exception {
                child.close();
            }
        };
    }

    private static Measurement measure(Wrk wrk, int round, String server, Subject subject, Scenario scenario) throws Exception {
        String url = "http://127.0.0.1:" + subject.port() + scenario.path();
        check(wrk.run(url, scenario.connections(), scenario.pipeline(), WARMUP), server, scenario);
        subject.mark();
        Wrk.Result result = wrk.run(url, scenario.connections(), scenario.pipeline(), SECONDS);
        Usage usage = subject.usage();
        check(result, server, scenario);
        double bytes = usage.allocatedBytes() < 0 ? Double.NaN : (double) usage.allocatedBytes() / result.requests();
        String errors = result.socketErrors().matches("connect 0, read 0, write 0, timeout 0") ? "" : result.socketErrors();
        return new Measurement(round, server, scenario, result.requestsPerSecond(), usage.cpuNanos() / 1000.0 / result.requests(),
            bytes, errors);
    }

    private static void check(Wrk.Result result, String server, Scenario scenario) {
        if (result.requests() == 0 || result.non2xx() > 0) {
            throw new IllegalStateException(server + " " + scenario.name() + ": " + result.requests() + " responses, " + result.non2xx()
                + " of them not 2xx");
        }
    }

    private static void printAll(List<Measurement> measurements) {
        System.out.println();
        System.out.println("| round | scenario | server | requests/s | server CPU µs/request | bytes allocated/request | socket errors |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Measurement m : measurements) {
            System.out.printf(Locale.ROOT, "| %d | %s | %s | %.0f | %.2f | %s | %s |%n", m.round(), m.scenario().name(), m.server(),
                m.requestsPerSecond(), m.cpuMicrosPerRequest(), bytes(m.bytesPerRequest()), m.errors().isEmpty() ? "none" : m.errors());
        }
    }

    private static void printMedians(List<Measurement> measurements) {
        System.out.println();
        System.out.println("Medians over the rounds:");
        System.out.println();
        System.out.println("| scenario | server | requests/s | server CPU µs/request | bytes allocated/request |");
        System.out.println("|---|---|---|---|---|");
        for (Scenario scenario : SCENARIOS) {
            double[][] medians = new double[SERVERS.size()][];
            for (int s = 0; s < SERVERS.size(); s++) {
                String server = SERVERS.get(s);
                List<Measurement> runs = measurements.stream().filter(m -> m.scenario().equals(scenario) && m.server().equals(server)).toList();
                medians[s] = new double[] {median(runs, Measurement::requestsPerSecond), median(runs, Measurement::cpuMicrosPerRequest),
                    median(runs, Measurement::bytesPerRequest)};
                System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.2f | %s |%n", scenario.name(), server, medians[s][0], medians[s][1],
                    bytes(medians[s][2]));
            }
            for (int s = 1; s < SERVERS.size(); s++) {
                System.out.printf(Locale.ROOT, "| %s | ratio Wharf/%s | %.2f | %.2f | %s |%n", scenario.name(), SERVERS.get(s),
                    medians[0][0] / medians[s][0], medians[0][1] / medians[s][1],
                    Double.isNaN(medians[s][2]) ? "" : String.format(Locale.ROOT, "%.2f", medians[0][2] / medians[s][2]));
            }
        }
    }

    private static String bytes(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
    }

    static double median(List<Measurement> runs, ToDoubleFunction<Measurement> value) {
        double[] values = runs.stream().mapToDouble(value).sorted().toArray();
        if (values.length == 0) {
            return Double.NaN;
        }
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }
}
