package io.wharf.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Servers side by side under a {@link Load} ({@link Wrk} by default): the loop and the tables
 * shared by the {@code http}, {@code static}, {@code h2} and {@code servlet} macro runs. For each
 * round and each server in turn (A B C A B C), the server is started and each scenario run three times: two
 * warm-ups (each opening its connections, so that a JVM has compiled what opening them takes)
 * and a measured run framed by a mark and a report of the server's CPU time and, for the JVMs,
 * bytes allocated by all its threads. The first server is Wharf, the one the ratios are about.
 * Called from the macro's driver thread, which has pinned itself to CPU 1.
 */
final class LoadComparison {

    /**
     * One load: a path, how many keep-alive connections, how many requests in flight on each
     * (pipelined for HTTP/1.1, concurrent streams for HTTP/2), the size of each response body
     * when the throughput in bytes is worth a column (else 0), the protocol spoken, and the
     * size of a request body: above 0, each request is a {@code POST} of that many bytes, else a {@code GET}.
     */
    record Scenario(String name, String path, int connections, int pipeline, long bodyBytes, Protocol protocol, int uploadBytes) {

        /** A scenario of {@code GET} requests. */
        Scenario(String name, String path, int connections, int pipeline, long bodyBytes, Protocol protocol) {
            this(name, path, connections, pipeline, bodyBytes, protocol, 0);
        }

        /** An HTTP/1.1 scenario of {@code GET} requests. */
        Scenario(String name, String path, int connections, int pipeline, long bodyBytes) {
            this(name, path, connections, pipeline, bodyBytes, Protocol.HTTP_1_1);
        }
    }

    /** One measured run of one server on one scenario. Bytes per request is NaN for nginx. */
    record Measurement(int round, String server, Scenario scenario, double requestsPerSecond, double cpuMicrosPerRequest,
                       double bytesPerRequest, String errors) {

        /** @return response body bytes per second, in millions */
        double megabytesPerSecond() {
            return requestsPerSecond * scenario.bodyBytes() / 1e6;
        }
    }

    /** Starts one of the servers by name. */
    interface Starter {
        ServerUnderTest start(String server) throws Exception;
    }

    private final List<String> servers;
    private final Starter starter;
    private final Load.Opener load;
    private final List<Scenario> scenarios;
    private final int warmupSeconds;
    private final int seconds;
    private final boolean throughput;

    LoadComparison(List<String> servers, Starter starter, List<Scenario> scenarios, int warmupSeconds, int seconds) {
        this(servers, starter, Wrk::new, scenarios, warmupSeconds, seconds);
    }

    LoadComparison(List<String> servers, Starter starter, Load.Opener load, List<Scenario> scenarios, int warmupSeconds, int seconds) {
        this.servers = List.copyOf(servers);
        this.starter = starter;
        this.load = load;
        this.scenarios = List.copyOf(scenarios);
        this.warmupSeconds = warmupSeconds;
        this.seconds = seconds;
        this.throughput = scenarios.stream().anyMatch(scenario -> scenario.bodyBytes() > 0);
    }

    /** Runs all rounds, printing each measurement as it is taken, and returns them. */
    List<Measurement> run(int rounds) throws Exception {
        List<Measurement> measurements = new ArrayList<>();
        try (Load tool = load.open()) {
            for (int round = 1; round <= rounds; round++) {
                for (String server : servers) {
                    try (ServerUnderTest subject = starter.start(server)) {
                        for (Scenario scenario : scenarios) {
                            Measurement measurement = measure(tool, round, server, subject, scenario);
                            measurements.add(measurement);
                            System.out.printf(Locale.ROOT, "  round %d %s %s: %.0f req/s, %.2f µs CPU/req, %.1f B/req%s%n", round, server,
                                scenario.name(), measurement.requestsPerSecond(), measurement.cpuMicrosPerRequest(),
                                measurement.bytesPerRequest(), measurement.errors().isEmpty() ? "" : ", errors: " + measurement.errors());
                        }
                    }
                }
            }
        }
        return measurements;
    }

    private Measurement measure(Load tool, int round, String server, ServerUnderTest subject, Scenario scenario) throws Exception {
        // Two warm-up runs: the measured run opens its connections anew, and a JVM's JIT, having
        // compiled the hot methods while no connection opened, recompiles them when accepts and
        // first requests take their untaken branches. A second warm-up run takes that cost
        // (C2 threads used about 1 µs per request of 7-8 in a measured run after one warm-up).
        for (int warmup = 0; warmup < 2; warmup++) {
            run(tool, server, subject, scenario, warmupSeconds);
        }
        subject.mark();
        Load.Run result = run(tool, server, subject, scenario, seconds);
        ServerUnderTest.Usage usage = subject.usage();
        double bytes = usage.allocatedBytes() < 0 ? Double.NaN : (double) usage.allocatedBytes() / result.requests();
        return new Measurement(round, server, scenario, result.requestsPerSecond(), usage.cpuNanos() / 1000.0 / result.requests(),
            bytes, result.errors());
    }

    private static Load.Run run(Load tool, String server, ServerUnderTest subject, Scenario scenario, int seconds) throws Exception {
        try {
            return tool.run(subject, scenario, seconds);
        } catch (IllegalStateException x) {
            throw new IllegalStateException(server + " " + scenario.name() + ": " + x.getMessage(), x);
        }
    }

    /** Prints every measurement as a Markdown table. */
    void printAll(List<Measurement> measurements) {
        System.out.println();
        System.out.println("| round | scenario | server | requests/s |" + (throughput ? " MB/s |" : "")
            + " server CPU µs/request | bytes allocated/request | socket errors |");
        System.out.println("|---|---|---|---|" + (throughput ? "---|" : "") + "---|---|---|");
        for (Measurement m : measurements) {
            System.out.printf(Locale.ROOT, "| %d | %s | %s | %.0f |%s %.2f | %s | %s |%n", m.round(), m.scenario().name(), m.server(),
                m.requestsPerSecond(), throughput ? String.format(Locale.ROOT, " %.1f |", m.megabytesPerSecond()) : "",
                m.cpuMicrosPerRequest(), bytes(m.bytesPerRequest()), m.errors().isEmpty() ? "none" : m.errors());
        }
    }

    /** Prints the medians over the rounds and the ratios of the first server to each other one as a Markdown table. */
    void printMedians(List<Measurement> measurements) {
        System.out.println();
        System.out.println("Medians over the rounds:");
        System.out.println();
        System.out.println("| scenario | server | requests/s |" + (throughput ? " MB/s |" : "")
            + " server CPU µs/request | bytes allocated/request |");
        System.out.println("|---|---|---|" + (throughput ? "---|" : "") + "---|---|");
        for (Scenario scenario : scenarios) {
            double[][] medians = new double[servers.size()][];
            for (int s = 0; s < servers.size(); s++) {
                String server = servers.get(s);
                List<Measurement> runs = measurements.stream().filter(m -> m.scenario().equals(scenario) && m.server().equals(server)).toList();
                medians[s] = new double[] {Median.of(runs, Measurement::requestsPerSecond), Median.of(runs, Measurement::megabytesPerSecond),
                    Median.of(runs, Measurement::cpuMicrosPerRequest), Median.of(runs, Measurement::bytesPerRequest)};
                System.out.printf(Locale.ROOT, "| %s | %s | %.0f |%s %.2f | %s |%n", scenario.name(), server, medians[s][0],
                    throughput ? String.format(Locale.ROOT, " %.1f |", medians[s][1]) : "", medians[s][2], bytes(medians[s][3]));
            }
            for (int s = 1; s < servers.size(); s++) {
                System.out.printf(Locale.ROOT, "| %s | ratio Wharf/%s | %.2f |%s %.2f | %s |%n", scenario.name(), servers.get(s),
                    medians[0][0] / medians[s][0],
                    throughput ? String.format(Locale.ROOT, " %.2f |", medians[0][1] / medians[s][1]) : "",
                    medians[0][2] / medians[s][2],
                    Double.isNaN(medians[s][3]) ? "" : String.format(Locale.ROOT, "%.2f", medians[0][3] / medians[s][3]));
            }
        }
    }

    private static String bytes(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.1f", value);
    }
}
