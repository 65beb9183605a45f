package io.wharf.bench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./wharf bench pipeline [REQUESTS] [ROUNDS] [WARMUP]}: one TCP connection carrying
 * REQUESTS (default 1,000,000) pipelined {@code GET /plaintext HTTP/1.1} requests to Wharf's
 * and Jetty 12.1's hello servers ({@link HelloServers}, each in its own JVM pinned to CPU 0),
 * driven by {@link PipelinedLoad} from this JVM pinned to CPU 1. Each run starts the server,
 * makes one exchange to learn the length of a response, sends WARMUP (default 200,000)
 * requests, then the measured REQUESTS framed by a mark and a report of the server's CPU time
 * and bytes allocated. Runs alternate Wharf, Jetty, Wharf, Jetty ... for ROUNDS (default 3)
 * rounds; prints every run, then the medians and the ratios Wharf/Jetty as Markdown tables.
 */
public final class PipelineMacroBenchmark {

    static final List<String> SERVERS = List.of("wharf", "jetty");

    /** One measured run: wall time of the pipelined requests and the server's CPU and allocation over them. */
    record Run(int round, String server, long requests, double seconds, double cpuMillis, double bytesPerRequest) {

        double requestsPerSecond() {
            return requests / seconds;
        }

        double cpuMicrosPerRequest() {
            return cpuMillis * 1000 / requests;
        }
    }

    private PipelineMacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        long requests = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        long warmup = args.length > 2 ? Long.parseLong(args[2]) : 200_000;
        ServerChild.pinDriver();
        System.out.println("pipeline: " + requests + " pipelined GET /plaintext on one connection after " + warmup + " warm-up requests, "
            + PipelinedLoad.BATCH + " per write, at most " + PipelinedLoad.WINDOW + " in flight, " + rounds + " rounds, JVM "
            + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        List<Run> runs = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (String server : SERVERS) {
                Run run = run(round, server, requests, warmup);
                runs.add(run);
                System.out.printf(Locale.ROOT, "  round %d %s: %.2f s, %.0f req/s, %.2f µs CPU/req, %.1f B/req%n", round, server,
                    run.seconds(), run.requestsPerSecond(), run.cpuMicrosPerRequest(), run.bytesPerRequest());
            }
        }
        printAll(runs);
        printMedians(runs);
    }

    static Run run(int round, String server, long requests, long warmup) throws Exception {
        try (ServerUnderTest subject = ServerUnderTest.of(ServerChild.start(server + "-http"));
             Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), subject.port()), 10_000);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(PipelinedLoad.STALL_SECONDS * 1000);
            byte[] request = HttpProbe.get("/plaintext", subject.port());
            HttpProbe.Response first = HttpProbe.exchange(socket.getInputStream(), socket.getOutputStream(), request);
            if (first.status() != 200) {
                throw new IllegalStateException(server + " answered " + first.status() + " to GET /plaintext");
            }
            PipelinedLoad load = new PipelinedLoad(socket, request, first.length());
            load.run(warmup);
            subject.mark();
            long start = System.nanoTime();
            load.run(requests);
            double seconds = (System.nanoTime() - start) / 1e9;
            ServerUnderTest.Usage usage = subject.usage();
            return new Run(round, server, requests, seconds, usage.cpuNanos() / 1e6, (double) usage.allocatedBytes() / requests);
        }
    }

    private static void printAll(List<Run> runs) {
        System.out.println();
        System.out.println("| round | server | wall s | requests/s | server CPU ms | server CPU µs/request | bytes allocated/request |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Run run : runs) {
            System.out.printf(Locale.ROOT, "| %d | %s | %.2f | %.0f | %.0f | %.2f | %.1f |%n", run.round(), run.server(), run.seconds(),
                run.requestsPerSecond(), run.cpuMillis(), run.cpuMicrosPerRequest(), run.bytesPerRequest());
        }
    }

    private static void printMedians(List<Run> runs) {
        System.out.println();
        System.out.println("Medians over the rounds:");
        System.out.println();
        System.out.println("| server | wall s | requests/s | server CPU ms | server CPU µs/request | bytes allocated/request |");
        System.out.println("|---|---|---|---|---|---|");
        double[][] medians = new double[SERVERS.size()][];
        for (int s = 0; s < SERVERS.size(); s++) {
            String server = SERVERS.get(s);
            List<Run> mine = runs.stream().filter(run -> run.server().equals(server)).toList();
            medians[s] = new double[] {Median.of(mine, Run::seconds), Median.of(mine, Run::requestsPerSecond), Median.of(mine, Run::cpuMillis),
                Median.of(mine, Run::cpuMicrosPerRequest), Median.of(mine, Run::bytesPerRequest)};
            System.out.printf(Locale.ROOT, "| %s | %.2f | %.0f | %.0f | %.2f | %.1f |%n", server, medians[s][0], medians[s][1], medians[s][2],
                medians[s][3], medians[s][4]);
        }
        System.out.printf(Locale.ROOT, "| ratio Wharf/Jetty | %.2f | %.2f | %.2f | %.2f | %.2f |%n", medians[0][0] / medians[1][0],
            medians[0][1] / medians[1][1], medians[0][2] / medians[1][2], medians[0][3] / medians[1][3], medians[0][4] / medians[1][4]);
    }
}
