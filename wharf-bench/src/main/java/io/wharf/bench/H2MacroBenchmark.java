package io.wharf.bench;

import java.util.List;
import java.util.Locale;

/**
 * {@code ./wharf bench h2 [ROUNDS]}: the HTTP/2 servers side by side — Wharf and Jetty 12.1
 * (each in its own JVM, {@link Http2Servers}) and nginx (one worker, {@link NginxChild#startHttp2})
 * — pinned to CPU 0 and loaded by {@link H2load} ({@code -t1}) on CPU 1, with the hello-world
 * {@code GET /plaintext}: h2c with prior knowledge on 16 connections × 32 streams and on
 * 4 × 100, and h2 over TLS (ALPN) on 16 × 32. Each server also takes the {@code http} run's
 * HTTP/1.1 plaintext load from {@link Wrk} on its HTTP/1.1 port, so that h2c's cost per request
 * can be set against HTTP/1.1's from the same run. Rounds (default 2), order (A B C), warm-ups,
 * measurement and tables are {@link LoadComparison}'s; then the goals are read off the
 * medians: Wharf's h2c CPU per request against its HTTP/1.1 one and against Jetty's h2c, and
 * bytes allocated per HTTP/2 request. {@code -Dwharf.bench.h2.seconds=N} and
 * {@code -Dwharf.bench.h2.warmup=N} change the durations (default 10 and 5).
 */
public final class H2MacroBenchmark {

    static final int SECONDS = Integer.getInteger("wharf.bench.h2.seconds", 10);
    static final int WARMUP = Integer.getInteger("wharf.bench.h2.warmup", 5);

    static final LoadComparison.Scenario HTTP_1_1 = new LoadComparison.Scenario("HTTP/1.1 -c64 (wrk)", "/plaintext", 64, 1, 0);
    static final LoadComparison.Scenario H2C = new LoadComparison.Scenario("h2c -c16 -m32", "/plaintext", 16, 32, 0, Protocol.H2C);
    static final LoadComparison.Scenario H2C_DEEP = new LoadComparison.Scenario("h2c -c4 -m100", "/plaintext", 4, 100, 0, Protocol.H2C);
    static final LoadComparison.Scenario H2 = new LoadComparison.Scenario("h2 TLS -c16 -m32", "/plaintext", 16, 32, 0, Protocol.H2);

    static final List<String> SERVERS = List.of("wharf", "jetty", "nginx");

    /** Goal of the HTTP/2 issue: at most 1 KiB allocated per HTTP/2 request. */
    static final double MAX_BYTES_PER_REQUEST = 1024;

    private H2MacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        if (rounds < 1) {
            throw new IllegalArgumentException("ROUNDS must be at least 1, not " + rounds);
        }
        ServerChild.pinDriver();
        System.out.println("h2: h2load -t1 (HTTP/1.1: wrk -t1), " + WARMUP + " s warm-up (twice) + " + SECONDS + " s measured per scenario, "
            + rounds + " rounds, JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS + ", certificate ECDSA P-256");
        try (BenchCertificate certificate = BenchCertificate.create()) {
            LoadComparison comparison = new LoadComparison(SERVERS, server -> start(server, certificate), ByProtocol::new,
                List.of(HTTP_1_1, H2C, H2C_DEEP, H2), WARMUP, SECONDS);
            List<LoadComparison.Measurement> measurements = comparison.run(rounds);
            comparison.printAll(measurements);
            comparison.printMedians(measurements);
            printGoals(measurements);
        }
    }

    private static ServerUnderTest start(String server, BenchCertificate certificate) throws Exception {
        return server.equals("nginx")
            ? ServerUnderTest.of(NginxChild.startHttp2(certificate))
            : ServerUnderTest.of(ServerChild.start(server + "-h2", certificate.directory().toString()));
    }

    private static void printGoals(List<LoadComparison.Measurement> measurements) {
        double http = median(measurements, "wharf", HTTP_1_1, LoadComparison.Measurement::cpuMicrosPerRequest);
        System.out.println();
        System.out.println("Goals (medians):");
        System.out.println();
        System.out.printf(Locale.ROOT, "- Wharf HTTP/1.1 plaintext (wrk -c64): %.2f µs CPU/request%n", http);
        for (LoadComparison.Scenario scenario : List.of(H2C, H2C_DEEP, H2)) {
            double wharf = median(measurements, "wharf", scenario, LoadComparison.Measurement::cpuMicrosPerRequest);
            double jetty = median(measurements, "jetty", scenario, LoadComparison.Measurement::cpuMicrosPerRequest);
            double bytes = median(measurements, "wharf", scenario, LoadComparison.Measurement::bytesPerRequest);
            System.out.printf(Locale.ROOT, "- Wharf %s: %.2f µs CPU/request = %.2fx Wharf's HTTP/1.1, %.2fx Jetty's %s; %.1f B allocated/request (%s 1 KiB)%n",
                scenario.name(), wharf, wharf / http, wharf / jetty, scenario.name(), bytes, bytes <= MAX_BYTES_PER_REQUEST ? "within" : "above");
        }
        System.out.println("  (goal: h2c CPU/request ≤ 1.0x Wharf's HTTP/1.1 and ≤ 0.7x Jetty's h2c; ≤ 1 KiB allocated per HTTP/2 request)");
    }

    private static double median(List<LoadComparison.Measurement> measurements, String server, LoadComparison.Scenario scenario,
                                 java.util.function.ToDoubleFunction<LoadComparison.Measurement> value) {
        return Median.of(measurements.stream().filter(m -> m.server().equals(server) && m.scenario().equals(scenario)).toList(), value);
    }

    /** wrk for the HTTP/1.1 scenario, h2load for the HTTP/2 ones. */
    private static final class ByProtocol implements Load {

        private final H2load h2load = new H2load();
        private final Wrk wrk = new Wrk();

        ByProtocol() throws Exception {
        }

        @Override
        public Load.Run run(ServerUnderTest server, LoadComparison.Scenario scenario, int seconds) throws Exception {
            return scenario.protocol() == Protocol.HTTP_1_1 ? wrk.run(server, scenario, seconds) : h2load.run(server, scenario, seconds);
        }

        @Override
        public void close() throws Exception {
            try (h2load; wrk) {
                // closes both
            }
        }
    }
}
