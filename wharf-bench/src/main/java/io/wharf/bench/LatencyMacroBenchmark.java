package io.wharf.bench;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;

/**
 * {@code ./wharf bench latency [SERVER...]}: latency at fixed rates, measured by Wharf's load generator (its
 * Java API, in the driver JVM pinned to CPU 1) against the {@code http} run's servers — Wharf and
 * Jetty 12.1 ({@link HelloServers}, each in its own JVM) and nginx (one worker) — pinned to CPU 0,
 * on {@code /plaintext} and {@code /json}, over HTTP/1.1 on {@value #USERS} connections.
 *
 * <p>Before the first point, the driver JVM warms its own generator up against the first server for
 * {@code -Dwharf.bench.latency.driver-warmup} (default 30) s, half in the closed model and half in
 * the open one at the cap's rate: a cold generator made the first server and path measured (whichever
 * it was) reach a lower maximum and show a higher p99 at its low rates, which measured the order,
 * not the server.
 *
 * <p>For each server and path: wrk ({@code -t1 -c64}) warms the server up for {@code -Dwharf.bench.latency.max-seconds} (default 5) s,
 * then measures its maximum as long (reported, for scale); the generator's closed model
 * ({@value #USERS} users back to back), after a warm-up run twice as long, then measures the maximum the
 * generator itself reaches against that server as long, and that maximum, capped at
 * {@code -Dwharf.bench.latency.max-base} (default 33,000: the open model, dearer per request
 * than the closed one, fell behind at 42,000/s), is the one the rates are fractions of
 * ({@link #FRACTIONS}): on one core the generator cannot send what wrk's C reaches, and a rate it
 * cannot hold would measure the generator, not the server. Each rate is an open-model run
 * ({@link Model#OPEN}) with two seconds' worth of warm-up iterations, then
 * {@code -Dwharf.bench.latency.seconds} (default 10) measured: corrected p50, p99 and p99.9 (from
 * each request's intended send time), the uncorrected p99, the rate achieved and the requests the
 * generator sent late (its own lag: when it has some, the point measures the generator too).
 *
 * <p>All servers run at once (only one is loaded at a time), and each rate is measured
 * {@code -Dwharf.bench.latency.repeats} (default 3) times, the servers taking turns in an order
 * that rotates each time, so the machine's drift falls on all of them alike; a point's figures are
 * those of its run with the median p99. One run per point compared servers measured minutes
 * apart, and a p99 that moved 3x between two runs of the same server.
 *
 * <p>Then the rate accuracy of the issue: {@value #ACCURACY_RATE} requests/s for
 * {@value #ACCURACY_SECONDS} s against nginx, the achieved rate against the target, checked against
 * the requests nginx counted.
 *
 * <p>Prints every point and the tables; draws the p99 and p99.9 against the fraction of the
 * maximum, one chart per path, as PNG with XChart (the load report's charting library) into
 * {@code -Dwharf.bench.latency.charts} (default {@code wharf-bench/target/latency}).
 */
public final class LatencyMacroBenchmark {

    static final int USERS = 64;
    static final int MAX_SECONDS = Integer.getInteger("wharf.bench.latency.max-seconds", 5);
    static final double[] FRACTIONS = {0.25, 0.50, 0.75, 0.90};
    static final int SECONDS = Integer.getInteger("wharf.bench.latency.seconds", 10);
    /** The most the rates' base may be: about what the open model holds on one core at 90 % (it fell behind at 42,000/s). */
    static final int MAX_BASE = Integer.getInteger("wharf.bench.latency.max-base", 33_000);
    static final int REPEATS = Integer.getInteger("wharf.bench.latency.repeats", 3);
    static final int DRIVER_WARMUP_SECONDS = Integer.getInteger("wharf.bench.latency.driver-warmup", 30);
    static final int ACCURACY_RATE = 10_000;
    static final int ACCURACY_SECONDS = 20;
    static final List<String> SERVERS = List.of("wharf", "jetty", "nginx");
    static final List<String> PATHS = List.of("/plaintext", "/json");

    /** One open-model point: a server and path at a fraction of the maximum the generator reached against it. */
    record Point(String server, String path, double wrkMax, double generatorMax, double fraction, LoadResult result) {

        double lateShare() {
            return result.lag().requests() == 0 ? 0 : (double) result.lag().lateRequests() / result.lag().requests();
        }
    }

    private LatencyMacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        List<String> servers = args.length == 0 ? SERVERS : List.of(args);
        if (!SERVERS.containsAll(servers)) {
            throw new IllegalArgumentException("the servers are " + SERVERS + ", not " + servers);
        }
        ServerChild.pinDriver();
        Path charts = Path.of(System.getProperty("wharf.bench.latency.charts", "wharf-bench/target/latency"));
        System.out.println("latency: wharf-loadgen (open model, " + USERS + " users x 1 connection, HTTP/1.1) on CPU 1, servers on CPU 0; "
            + SECONDS + " s measured per rate after 2 s of warm-up iterations; JVM " + Runtime.version() + ", server options "
            + ServerChild.JVM_OPTIONS);
        List<Point> points = new ArrayList<>();
        List<ServerUnderTest> subjects = new ArrayList<>();
        try (Wrk wrk = new Wrk()) {
            for (String server : servers) {
                subjects.add(start(server));
            }
            warmDriver(uri(subjects.get(0), PATHS.get(0)));
            for (String path : PATHS) {
                List<Maxima> maxima = new ArrayList<>();
                for (int i = 0; i < servers.size(); i++) {
                    maxima.add(maxima(wrk, servers.get(i), uri(subjects.get(i), path)));
                }
                for (double fraction : FRACTIONS) {
                    List<List<Point>> runs = new ArrayList<>();
                    servers.forEach(server -> runs.add(new ArrayList<>()));
                    for (int repeat = 0; repeat < REPEATS; repeat++) {
                        for (int turn = 0; turn < servers.size(); turn++) {
                            int i = (turn + repeat) % servers.size();
                            runs.get(i).add(point(servers.get(i), uri(subjects.get(i), path), maxima.get(i), fraction, repeat));
                        }
                    }
                    runs.forEach(list -> points.add(medianRun(list)));
                }
            }
        } finally {
            for (ServerUnderTest subject : subjects) {
                subject.close();
            }
        }
        print(points);
        Files.createDirectories(charts);
        for (String path : PATHS) {
            Path file = charts.resolve("latency" + path.replace('/', '-') + ".png");
            LatencyChart.write(points.stream().filter(p -> p.path().equals(path)).toList(), servers, path, file);
            System.out.println("chart: " + file);
        }
        accuracy();
    }

    private static ServerUnderTest start(String server) throws Exception {
        return server.equals("nginx") ? ServerUnderTest.of(NginxChild.start()) : ServerUnderTest.of(ServerChild.start(server + "-http"));
    }

    /** Runs the generator, closed then open, against {@code uri} so that the driver JVM has compiled its hot code; nothing is kept. */
    private static void warmDriver(URI uri) throws InterruptedException {
        Duration half = Duration.ofSeconds(Math.max(1, DRIVER_WARMUP_SECONDS / 2));
        LoadResult closed = LoadGenerator.builder(uri).model(Model.CLOSED).usersPerThread(USERS).duration(half).build().run();
        LoadResult open = LoadGenerator.builder(uri).usersPerThread(USERS).rate(MAX_BASE).duration(half).build().run();
        System.out.printf(Locale.ROOT, "  driver warm-up on %s: closed model %.0f req/s, then open model %.0f of %d req/s%n", uri,
            closed.achievedRate(), open.achievedRate(), MAX_BASE);
    }

    private static URI uri(ServerUnderTest subject, String path) {
        return URI.create("http://127.0.0.1:" + subject.port() + path);
    }

    /** What a server reached on a path: wrk's maximum, and the base of the rates (the generator's closed-model maximum, capped). */
    record Maxima(double wrk, double generator) {
    }

    /** @return wrk's maximum against {@code uri} (after as long a warm-up) and the generator's, capped */
    private static Maxima maxima(Wrk wrk, String server, URI uri) throws Exception {
        wrk.run(uri.toString(), USERS, 1, MAX_SECONDS);
        double wrkMax = wrk.run(uri.toString(), USERS, 1, MAX_SECONDS).requestsPerSecond();
        // Twice: the first run is the warm-up of the generator's own code against this server.
        LoadResult closed = null;
        for (int run = 0; run < 2; run++) {
            closed = LoadGenerator.builder(uri).model(Model.CLOSED).usersPerThread(USERS)
                .duration(Duration.ofSeconds(run == 0 ? 2L * MAX_SECONDS : MAX_SECONDS)).build().run();
            failOnErrors(server, uri.getPath(), closed);
        }
        double generatorMax = Math.min(closed.achievedRate(), MAX_BASE);
        System.out.printf(Locale.ROOT, "  %s %s: wrk -c%d max %.0f req/s; generator closed model max %.0f req/s; base %.0f%n", server,
            uri.getPath(), USERS, wrkMax, closed.achievedRate(), generatorMax);
        return new Maxima(wrkMax, generatorMax);
    }

    /** One open-model run of {@code server} at {@code fraction} of the generator's maximum. */
    private static Point point(String server, URI uri, Maxima maxima, double fraction, int repeat) throws InterruptedException {
        double rate = Math.round(maxima.generator() * fraction);
        LoadResult result = LoadGenerator.builder(uri).usersPerThread(USERS).rate(rate).warmupIterations(Math.round(rate * 2))
            .duration(Duration.ofSeconds(SECONDS)).build().run();
        failOnErrors(server, uri.getPath(), result);
        Point point = new Point(server, uri.getPath(), maxima.wrk(), maxima.generator(), fraction, result);
        System.out.printf(Locale.ROOT, "    %s %s run %d, %.0f%% = %.0f/s: achieved %.0f/s, corrected p50 %s p99 %s p99.9 %s ms,"
                + " uncorrected p99 %s ms, %.2f%% sent late%n", server, uri.getPath(), repeat + 1, 100 * fraction, rate,
            result.achievedRate(), millis(result.correctedMicros(50)), millis(result.correctedMicros(99)),
            millis(result.correctedMicros(99.9)), millis(result.uncorrectedMicros(99)), 100 * point.lateShare());
        return point;
    }

    /** @return the run whose corrected p99 is the median of the runs' (the lower middle one of an even count) */
    static Point medianRun(List<Point> runs) {
        List<Point> sorted = new ArrayList<>(runs);
        sorted.sort(java.util.Comparator.comparingLong(p -> p.result().correctedMicros(99)));
        return sorted.get((sorted.size() - 1) / 2);
    }

    private static void failOnErrors(String server, String path, LoadResult result) {
        if (result.errors() > 0) {
            throw new IllegalStateException(server + " " + path + ": " + result.errors() + " errors " + result.errorsByKind() + " "
                + result.errorExamples());
        }
    }

    /** The rate accuracy: {@value #ACCURACY_RATE}/s for {@value #ACCURACY_SECONDS} s, checked against nginx's count. */
    private static void accuracy() throws Exception {
        try (NginxChild nginx = NginxChild.start()) {
            URI uri = URI.create("http://127.0.0.1:" + nginx.port() + "/plaintext");
            long warmup = ACCURACY_RATE * 2L;
            long before = nginx.requestsServed();
            LoadResult result = LoadGenerator.builder(uri).usersPerThread(USERS).rate(ACCURACY_RATE).warmupIterations(warmup)
                .duration(Duration.ofSeconds(ACCURACY_SECONDS)).build().run();
            long served = nginx.requestsServed() - before - 1 - warmup;
            double error = (result.achievedRate() - ACCURACY_RATE) / ACCURACY_RATE;
            System.out.println();
            System.out.printf(Locale.ROOT, "Rate accuracy: %d/s asked for %d s against nginx: achieved %.1f/s (%+.3f%%, goal within 1%%: %s);"
                    + " %d of %d scheduled iterations started, %d requests ended, %d errors; nginx served %d measured requests"
                    + " (%.1f/s over %d s); %d requests sent late%n", ACCURACY_RATE, ACCURACY_SECONDS, result.achievedRate(), 100 * error,
                Math.abs(error) <= 0.01 ? "met" : "not met", result.iterations(), result.intendedIterations(), result.requests(),
                result.errors(), served, (double) served / ACCURACY_SECONDS, ACCURACY_SECONDS, result.lag().lateRequests());
        }
    }

    private static void print(List<Point> points) {
        System.out.println();
        System.out.println("Each point's run with the median p99 of " + REPEATS + ":");
        System.out.println();
        System.out.println("| server | path | wrk max req/s | generator max req/s | % of max | rate req/s | % of wrk's max | achieved | p50 ms"
            + " | p99 ms | p99.9 ms | uncorrected p99 ms | sent late |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Point p : points) {
            LoadResult r = p.result();
            System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.0f %% | %.0f | %.0f %% | %.0f | %s | %s | %s | %s | %.2f %% |%n", p.server(),
                p.path(), p.wrkMax(), p.generatorMax(), 100 * p.fraction(), r.targetRate(), 100 * r.targetRate() / p.wrkMax(), r.achievedRate(),
                millis(r.correctedMicros(50)),
                millis(r.correctedMicros(99)), millis(r.correctedMicros(99.9)), millis(r.uncorrectedMicros(99)), 100 * p.lateShare());
        }
        System.out.println();
        System.out.println("Wharf's corrected p99 against Jetty's at each fraction of each one's maximum (goal: never higher):");
        System.out.println();
        System.out.println("| path | % of max | Wharf p99 ms | Jetty p99 ms | Wharf/Jetty | nginx p99 ms |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        for (String path : PATHS) {
            for (double fraction : FRACTIONS) {
                long wharf = p99(points, "wharf", path, fraction);
                long jetty = p99(points, "jetty", path, fraction);
                System.out.printf(Locale.ROOT, "| %s | %.0f %% | %s | %s | %s | %s |%n", path, 100 * fraction, millis(wharf), millis(jetty),
                    wharf < 0 || jetty <= 0 ? "n/a" : String.format(Locale.ROOT, "%.2f", (double) wharf / jetty),
                    millis(p99(points, "nginx", path, fraction)));
            }
        }
    }

    private static long p99(List<Point> points, String server, String path, double fraction) {
        return points.stream().filter(p -> p.server().equals(server) && p.path().equals(path) && p.fraction() == fraction).findFirst()
            .map(p -> p.result().correctedMicros(99)).orElse(-1L);
    }

    /** @return {@code micros} in milliseconds for a table, or n/a for a point not measured (-1) */
    static String millis(long micros) {
        return micros < 0 ? "n/a" : String.format(Locale.ROOT, "%.3f", micros / 1000.0);
    }
}
