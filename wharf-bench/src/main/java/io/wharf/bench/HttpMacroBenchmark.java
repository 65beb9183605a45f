package io.wharf.bench;

import java.util.List;

/**
 * {@code ./wharf bench http [ROUNDS]}: the HTTP/1.1 servers side by side — Wharf and Jetty 12.1
 * (each in its own JVM, {@link HelloServers}) and nginx (one worker, {@link NginxChild}) —
 * pinned to CPU 0 and loaded by {@link Wrk} ({@code -t1}) on CPU 1. For each round (default 2)
 * and each server in turn (Wharf, Jetty, nginx: A B C A B C), the server is started and each
 * scenario run three times: two warm-ups (5 s each) and a measured run (10 s) framed by a mark and a report
 * of the server's CPU time and, for the JVMs, bytes allocated by all its threads
 * ({@link LoadComparison}). Prints every measurement, then the median over the rounds and the
 * ratios Wharf/Jetty and Wharf/nginx as Markdown tables. {@code -Dwharf.bench.http.seconds=N}
 * and {@code -Dwharf.bench.http.warmup=N} change the durations for a quick look.
 */
public final class HttpMacroBenchmark {

    static final int SECONDS = Integer.getInteger("wharf.bench.http.seconds", 10);
    static final int WARMUP = Integer.getInteger("wharf.bench.http.warmup", 5);

    static final List<LoadComparison.Scenario> SCENARIOS = List.of(
        new LoadComparison.Scenario("plaintext", "/plaintext", 64, 1, 0),
        new LoadComparison.Scenario("plaintext pipelined 16", "/plaintext", 256, 16, 0),
        new LoadComparison.Scenario("json", "/json", 256, 1, 0));

    static final List<String> SERVERS = List.of("wharf", "jetty", "nginx");

    private HttpMacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        ServerChild.pinDriver();
        System.out.println("http: wrk -t1, " + WARMUP + " s warm-up (twice) + " + SECONDS + " s measured per scenario, " + rounds
            + " rounds, JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        LoadComparison comparison = new LoadComparison(SERVERS, HttpMacroBenchmark::start, SCENARIOS, WARMUP, SECONDS);
        List<LoadComparison.Measurement> measurements = comparison.run(rounds);
        comparison.printAll(measurements);
        comparison.printMedians(measurements);
    }

    private static ServerUnderTest start(String server) throws Exception {
        return server.equals("nginx") ? ServerUnderTest.of(NginxChild.start()) : ServerUnderTest.of(ServerChild.start(server + "-http"));
    }
}
