package io.wharf.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.TrustManagerFactory;

/**
 * {@code ./wharf bench tls-handshakes [SECONDS] [ROUNDS]}: full TLS handshakes per second of
 * server CPU, ALPN {@code h2} against {@code http/1.1}, Wharf vs Jetty 12.1 vs nginx, the servers
 * of the {@code h2} run ({@link Http2Servers}, {@link NginxChild#startHttp2}) pinned to CPU 0 with
 * the {@link BenchCertificate} (ECDSA P-256). The driver, pinned to CPU 1, runs {@value #THREADS}
 * threads, each making connection after connection with {@link HandshakeClient}: a full handshake
 * (no resumption) offering one protocol, one request, close. For each round (default 1) and
 * server (A B C): a warm-up with each protocol ({@code -Dwharf.bench.tls.warmup=N}, default 10 s:
 * a JVM needs thousands of handshakes before its TLS code is compiled), then, for each protocol
 * (h2 first in odd rounds, http/1.1 first in even ones), SECONDS (default 10) measured between a mark and a report of the server's CPU time and bytes
 * allocated. Prints handshakes/s (wall, bounded by the driver's one core as much as by the
 * server's), server CPU ms per handshake, the handshakes one server core would do at that cost,
 * and bytes allocated per handshake (JVMs), then medians and the ratios Wharf/Jetty and Wharf/nginx.
 */
public final class TlsHandshakeBenchmark {

    static final int THREADS = 4;
    static final int WARMUP = Integer.getInteger("wharf.bench.tls.warmup", 10);
    static final List<String> SERVERS = List.of("wharf", "jetty", "nginx");
    static final List<String> PROTOCOLS = List.of("h2", "http/1.1");

    /** One measured run: a server, the protocol offered, and what the server spent on the handshakes. */
    record Measurement(int round, String server, String protocol, long handshakes, double seconds, long cpuNanos, long allocatedBytes) {

        double handshakesPerSecond() {
            return handshakes / seconds;
        }

        double cpuMillisPerHandshake() {
            return cpuNanos / 1e6 / handshakes;
        }

        /** @return the handshakes per second one server core would do at this CPU cost */
        double handshakesPerCoreSecond() {
            return handshakes / (cpuNanos / 1e9);
        }

        /** @return bytes allocated per handshake, NaN for nginx */
        double bytesPerHandshake() {
            return allocatedBytes < 0 ? Double.NaN : (double) allocatedBytes / handshakes;
        }
    }

    private TlsHandshakeBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        if (seconds < 1 || rounds < 1) {
            throw new IllegalArgumentException("SECONDS and ROUNDS must be at least 1");
        }
        ServerChild.pinDriver();
        System.out.println("tls-handshakes: " + THREADS + " client threads (JDK SSLSocket, a fresh SSLContext per connection), " + WARMUP
            + " s warm-up + " + seconds + " s measured per protocol, " + rounds + " rounds, certificate ECDSA P-256, JVM "
            + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        List<Measurement> measurements = new ArrayList<>();
        try (BenchCertificate certificate = BenchCertificate.create()) {
            TrustManagerFactory trust = certificate.trustManagers();
            for (int round = 1; round <= rounds; round++) {
                for (String server : SERVERS) {
                    try (ServerUnderTest subject = start(server, certificate)) {
                        HandshakeClient client = new HandshakeClient(trust, subject.port(Protocol.H2));
                        // Both protocols share most of the TLS code: warm up with both before measuring
                        // either, and measure them in turns (h2 first in odd rounds, http/1.1 in even ones).
                        for (String protocol : PROTOCOLS) {
                            drive(client, protocol, WARMUP);
                        }
                        for (String protocol : round % 2 == 1 ? PROTOCOLS : PROTOCOLS.reversed()) {
                            subject.mark();
                            long start = System.nanoTime();
                            long handshakes = drive(client, protocol, seconds);
                            double elapsed = (System.nanoTime() - start) / 1e9;
                            ServerUnderTest.Usage usage = subject.usage();
                            Measurement m = new Measurement(round, server, protocol, handshakes, elapsed, usage.cpuNanos(), usage.allocatedBytes());
                            measurements.add(m);
                            System.out.printf(Locale.ROOT, "  round %d %s ALPN %s: %d handshakes, %.0f/s, %.3f ms server CPU each, %s B each%n",
                                round, server, protocol, handshakes, m.handshakesPerSecond(), m.cpuMillisPerHandshake(),
                                bytes(m.bytesPerHandshake()));
                        }
                    }
                }
            }
        }
        printMedians(measurements);
    }

    private static ServerUnderTest start(String server, BenchCertificate certificate) throws Exception {
        return server.equals("nginx")
            ? ServerUnderTest.of(NginxChild.startHttp2(certificate))
            : ServerUnderTest.of(ServerChild.start(server + "-h2", certificate.directory().toString()));
    }

    /** Runs the client threads for {@code seconds}; fails on the first failed connection. @return the connections made */
    static long drive(HandshakeClient client, String protocol, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Long>> counts = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                counts.add(threads.submit(() -> {
                    long done = 0;
                    while (System.nanoTime() < deadline) {
                        client.exchange(protocol);
                        done++;
                    }
                    return done;
                }));
            }
            long total = 0;
            for (Future<Long> count : counts) {
                total += count.get(seconds + 60L, TimeUnit.SECONDS);
            }
            return total;
        } finally {
            threads.shutdownNow();
        }
    }

    private static void printMedians(List<Measurement> measurements) {
        System.out.println();
        System.out.println("Medians over the rounds:");
        System.out.println();
        System.out.println("| ALPN | server | handshakes/s (wall) | server CPU ms/handshake | handshakes per server core-second | bytes allocated/handshake |");
        System.out.println("|---|---|---|---|---|---|");
        for (String protocol : PROTOCOLS) {
            double[][] medians = new double[SERVERS.size()][];
            for (int s = 0; s < SERVERS.size(); s++) {
                String server = SERVERS.get(s);
                List<Measurement> runs = runs(measurements, server, protocol);
                medians[s] = new double[] {Median.of(runs, Measurement::handshakesPerSecond), Median.of(runs, Measurement::cpuMillisPerHandshake),
                    Median.of(runs, Measurement::handshakesPerCoreSecond), Median.of(runs, Measurement::bytesPerHandshake)};
                System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.3f | %.0f | %s |%n", protocol, server, medians[s][0], medians[s][1],
                    medians[s][2], bytes(medians[s][3]));
            }
            for (int s = 1; s < SERVERS.size(); s++) {
                System.out.printf(Locale.ROOT, "| %s | ratio Wharf/%s | %.2f | %.2f | %.2f | %s |%n", protocol, SERVERS.get(s),
                    medians[0][0] / medians[s][0], medians[0][1] / medians[s][1], medians[0][2] / medians[s][2],
                    Double.isNaN(medians[s][3]) ? "" : String.format(Locale.ROOT, "%.2f", medians[0][3] / medians[s][3]));
            }
        }
        System.out.println();
        for (String server : SERVERS) {
            double h2 = Median.of(runs(measurements, server, "h2"), Measurement::cpuMillisPerHandshake);
            double http11 = Median.of(runs(measurements, server, "http/1.1"), Measurement::cpuMillisPerHandshake);
            System.out.printf(Locale.ROOT, "- %s: a connection with ALPN h2 costs %.2fx the server CPU of one with http/1.1%n", server, h2 / http11);
        }
    }

    private static List<Measurement> runs(List<Measurement> measurements, String server, String protocol) {
        return measurements.stream().filter(m -> m.server().equals(server) && m.protocol().equals(protocol)).toList();
    }

    private static String bytes(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%.0f", value);
    }
}
