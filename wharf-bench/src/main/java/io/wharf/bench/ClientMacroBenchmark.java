package io.wharf.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./wharf bench client [ROUNDS] [SECONDS] [WARMUP]}: the HTTP clients side by side —
 * Wharf's {@code HttpClient}, Jetty 12.1's and the JDK's {@code java.net.http.HttpClient}
 * (HTTP/1.1) — each in its own JVM ({@link ClientProcess}, the server JVMs' flags) pinned to
 * CPU 1, against nginx (one worker, {@link NginxChild}) pinned to CPU 0. Each keeps 64
 * keep-alive GET requests for {@code /plaintext} in flight ({@link ClientLoad}). For each round
 * (default 3) and each client in turn (Wharf, Jetty, JDK), a new client JVM runs two warm-ups
 * (default 10 s each: Jetty's and the JDK's clients were still getting faster after 15 s) and
 * a measured run (default 10 s). Reported per run: requests/s, client
 * CPU µs per request (its process CPU time over the requests), requests per client-CPU-second,
 * bytes allocated per request, errors; then the medians and the ratios Wharf/Jetty and
 * Wharf/JDK. The goal is requests per client-CPU-second ≥ 1.2x Jetty's and ≥ 2x the
 * JDK's. Called on the driver thread, pinned to CPU 1 with the client.
 */
public final class ClientMacroBenchmark {

    static final int CONCURRENCY = 64;
    static final List<String> CLIENTS = List.of("wharf", "jetty", "jdk");

    /** One measured run of one client. */
    record Measurement(int round, String client, double requestsPerSecond, double cpuMicrosPerRequest, double bytesPerRequest, long errors) {

        double requestsPerCpuSecond() {
            return 1e6 / cpuMicrosPerRequest;
        }
    }

    private ClientMacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int warmup = args.length > 2 ? Integer.parseInt(args[2]) : 10;
        ServerChild.pinDriver();
        System.out.println("client: " + CONCURRENCY + " requests in flight, GET /plaintext from nginx, " + warmup + " s warm-up (twice) + "
            + seconds + " s measured per client, " + rounds + " rounds, JVM " + Runtime.version() + ", client options " + ServerChild.JVM_OPTIONS);
        List<Measurement> measurements = new ArrayList<>();
        try (NginxChild nginx = NginxChild.start()) {
            String uri = "http://127.0.0.1:" + nginx.port() + "/plaintext";
            for (int round = 1; round <= rounds; round++) {
                for (String client : CLIENTS) {
                    Measurement measurement = measure(round, client, uri, seconds, warmup);
                    measurements.add(measurement);
                    System.out.printf(Locale.ROOT, "  round %d %s: %.0f req/s, %.2f µs CPU/req, %.1f B/req, %d errors%n", round, client,
                        measurement.requestsPerSecond(), measurement.cpuMicrosPerRequest(), measurement.bytesPerRequest(), measurement.errors());
                }
            }
        }
        print(measurements);
    }

    private static Measurement measure(int round, String client, String uri, int seconds, int warmup) throws Exception {
        try (ServerChild child = ServerChild.startClient(client, uri, Integer.toString(CONCURRENCY))) {
            for (int i = 0; i < 2; i++) {
                child.command("RUN " + warmup);
            }
            String done = child.command("RUN " + seconds);
            long requests = ServerChild.field(done, "REQUESTS");
            if (requests == 0) {
                throw new IllegalStateException(client + " completed no request: " + done);
            }
            return new Measurement(round, client, (double) requests / seconds, ServerChild.field(done, "CPU_NS") / 1000.0 / requests,
                (double) ServerChild.field(done, "ALLOCATED_BYTES") / requests, ServerChild.field(done, "ERRORS"));
        }
    }

    private static void print(List<Measurement> measurements) {
        System.out.println();
        System.out.println("| round | client | requests/s | client CPU µs/request | requests per client-CPU-second | bytes allocated/request | errors |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Measurement m : measurements) {
            System.out.printf(Locale.ROOT, "| %d | %s | %.0f | %.2f | %.0f | %.1f | %d |%n", m.round(), m.client(), m.requestsPerSecond(),
                m.cpuMicrosPerRequest(), m.requestsPerCpuSecond(), m.bytesPerRequest(), m.errors());
        }
        System.out.println();
        System.out.println("Medians over the rounds:");
        System.out.println();
        System.out.println("| client | requests/s | client CPU µs/request | requests per client-CPU-second | bytes allocated/request |");
        System.out.println("|---|---|---|---|---|");
        double[][] medians = new double[CLIENTS.size()][];
        for (int i = 0; i < CLIENTS.size(); i++) {
            String client = CLIENTS.get(i);
            List<Measurement> runs = measurements.stream().filter(m -> m.client().equals(client)).toList();
            medians[i] = new double[] {Median.of(runs, Measurement::requestsPerSecond), Median.of(runs, Measurement::cpuMicrosPerRequest),
                Median.of(runs, Measurement::requestsPerCpuSecond), Median.of(runs, Measurement::bytesPerRequest)};
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.2f | %.0f | %.1f |%n", client, medians[i][0], medians[i][1], medians[i][2], medians[i][3]);
        }
        for (int i = 1; i < CLIENTS.size(); i++) {
            System.out.printf(Locale.ROOT, "| ratio Wharf/%s | %.2f | %.2f | %.2f | %.2f |%n", CLIENTS.get(i), medians[0][0] / medians[i][0],
                medians[0][1] / medians[i][1], medians[0][2] / medians[i][2], medians[0][3] / medians[i][3]);
        }
    }
}
