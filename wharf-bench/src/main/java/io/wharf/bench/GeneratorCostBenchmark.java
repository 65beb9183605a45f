package io.wharf.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * {@code ./wharf bench loadgen-cost [ROUNDS [PROTOCOL...]]}: what a load generator costs its machine — the
 * generator's own CPU per request at {@value #RATE} requests/s — for Wharf's generator
 * ({@code wharf-loadgen}, open model), k6 (constant-arrival-rate), wrk and h2load, side by side in one run.
 * The target is nginx (one worker, {@link NginxChild#startHttp2}: HTTP/1.1, h2c and h2 over TLS,
 * {@code GET /plaintext}) pinned to CPU 0, fast and the same for every tool; each generator runs
 * in its own process pinned to CPU 1, started anew for each point.
 *
 * <p>For each point the generator runs {@code warm-up + measured + 2} seconds; after the warm-up
 * (5 s; 20 s for Wharf's generator, whose JVM's compilers take several CPU seconds first on the
 * generator's one core, during which it ramps up to the rate over 10 s and then catches up
 * with any iterations it owes), the driver reads the generator process's CPU time
 * ({@link ProcessCpu}: utime + stime from {@code /proc}; and its threads' context switches) and nginx's request counter
 * ({@link NginxChild#requestsServed()}), and again after the measured seconds. CPU per request is
 * the one difference over the other, so every tool's requests are counted the same way, by the
 * server. wrk and h2load cannot hold a rate (h2load's {@code --rate} paces new connections, not
 * requests): they are run closed on one connection (about the fixed rate's order on this
 * machine, so that they too wake up for nearly every response) and on 16 (as fast as they go, which batches
 * responses per wake-up and so flatters them); the table gives the rate each reached.
 * The protocols are all three ({@code HTTP_1_1 H2C H2}) unless some are named. Prints every point, then the ratios of Wharf's generator to each other at the same protocol.
 * {@code -Dwharf.bench.loadgen.seconds=N} and {@code -Dwharf.bench.loadgen.warmup=N} change the
 * measured and warm-up seconds (default 10 and 5), {@code -Dwharf.bench.loadgen.jvm-warmup=N} Wharf's
 * generator's (20; its ramp-up is half of it). Called on the driver thread, pinned to CPU 1.
 */
public final class GeneratorCostBenchmark {

    static final int RATE = 20_000;
    static final int USERS = 16;
    static final int SECONDS = Integer.getInteger("wharf.bench.loadgen.seconds", 10);
    static final int WARMUP = Integer.getInteger("wharf.bench.loadgen.warmup", 5);
    /** The warm-up of Wharf's generator, whose JVM compiles for several CPU seconds first; its first half is a ramp-up. */
    static final int JVM_WARMUP = Integer.getInteger("wharf.bench.loadgen.jvm-warmup", 20);
    static final int RAMP_UP = JVM_WARMUP / 2;

    /** One measured point: a generator at a protocol, the rate nginx counted, and the generator's CPU. */
    record Point(int round, Protocol protocol, LoadTool tool, double requestsPerSecond, double cpuMicrosPerRequest, double cpuShare,
                 double switchesPerRequest, String note) {
    }

    private GeneratorCostBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1;
        List<Protocol> protocols = args.length > 1
            ? java.util.Arrays.stream(args, 1, args.length).map(Protocol::valueOf).toList() : List.of(Protocol.values());
        ServerChild.pinDriver();
        System.out.println("loadgen-cost: generators pinned to CPU 1, nginx (1 worker) to CPU 0, GET /plaintext; " + WARMUP
            + " s warm-up (Wharf's generator: " + JVM_WARMUP + " s, ramping up over the first " + RAMP_UP + ") + " + SECONDS + " s measured per point, " + rounds + " round(s); JVM " + Runtime.version()
            + ", generator JVM options " + ServerChild.JVM_OPTIONS);
        Path directory = Files.createTempDirectory("wharf-loadgen-cost");
        List<Point> points = new ArrayList<>();
        try (BenchCertificate certificate = BenchCertificate.create(); NginxChild nginx = NginxChild.startHttp2(certificate)) {
            for (int round = 1; round <= rounds; round++) {
                for (Protocol protocol : protocols) {
                    for (LoadTool tool : tools(nginx, protocol, directory)) {
                        Point point = measure(round, protocol, tool, nginx, directory);
                        points.add(point);
                        System.out.printf(Locale.ROOT, "  round %d %s %s %s: %.0f req/s, %.2f µs CPU/req, %.0f%% of a CPU, %.2f context switches/req%s%n",
                            round, protocol, tool.tool(), tool.setting(), point.requestsPerSecond(), point.cpuMicrosPerRequest(),
                            100 * point.cpuShare(), point.switchesPerRequest(),
                            point.note().isEmpty() ? "" : "; " + point.note());
                    }
                }
            }
        } finally {
            try (var files = Files.walk(directory)) {
                for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(file);
                }
            }
        }
        print(points);
    }

    /** The generators run at {@code protocol}: wrk speaks HTTP/1.1 only, k6 HTTP/2 over TLS only. */
    private static List<LoadTool> tools(NginxChild nginx, Protocol protocol, Path directory) throws IOException {
        int seconds = WARMUP + SECONDS + 2;
        int jvmSeconds = JVM_WARMUP + SECONDS + 2;
        String url = (protocol == Protocol.H2 ? "https" : "http") + "://127.0.0.1:" + nginx.port(protocol) + "/plaintext";
        List<LoadTool> tools = new ArrayList<>();
        tools.add(LoadTool.wharf(url, protocol, RATE, USERS, RAMP_UP, JVM_WARMUP, jvmSeconds, directory));
        if (protocol != Protocol.H2C) {
            tools.add(LoadTool.k6(url, RATE, USERS, WARMUP, seconds, directory));
        }
        if (protocol == Protocol.HTTP_1_1) {
            tools.add(LoadTool.wrk(url, 1, WARMUP, seconds));
            tools.add(LoadTool.wrk(url, USERS, WARMUP, seconds));
        }
        tools.add(LoadTool.h2load(url, protocol, 1, 1, WARMUP, seconds));
        tools.add(LoadTool.h2load(url, protocol, USERS, 1, WARMUP, seconds));
        return tools;
    }

    private static Point measure(int round, Protocol protocol, LoadTool tool, NginxChild nginx, Path directory) throws Exception {
        List<String> command = new ArrayList<>(ServerChild.pinnedTo("1"));
        command.addAll(tool.command());
        Path output = directory.resolve("output.txt");
        // taskset execs the tool, so the process started is the tool itself, whose CPU is read.
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            long start = System.nanoTime();
            sleepUntil(start + TimeUnit.SECONDS.toNanos(tool.warmupSeconds()), process, output);
            long cpuStart = ProcessCpu.nanos(process.pid());
            long switchesStart = ProcessCpu.contextSwitches(process.pid());
            long requestsStart = nginx.requestsServed();
            long measuredStart = System.nanoTime();
            sleepUntil(measuredStart + TimeUnit.SECONDS.toNanos(SECONDS), process, output);
            long cpu = ProcessCpu.nanos(process.pid()) - cpuStart;
            long switches = ProcessCpu.contextSwitches(process.pid()) - switchesStart;
            long requests = nginx.requestsServed() - requestsStart - 1;
            double elapsed = (System.nanoTime() - measuredStart) / 1e9;
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException(tool.tool() + " did not end: " + String.join(" ", command));
            }
            String text = Files.readString(output, StandardCharsets.UTF_8);
            if (process.exitValue() != 0) {
                throw new IllegalStateException(tool.tool() + " failed (" + process.exitValue() + "): " + text);
            }
            if (requests <= 0) {
                throw new IllegalStateException(tool.tool() + " made no request in the measured window: " + text);
            }
            return new Point(round, protocol, tool, requests / elapsed, cpu / 1000.0 / requests, cpu / 1e9 / elapsed, (double) switches / requests,
                tool.outcome().read(text));
        } finally {
            process.destroyForcibly();
        }
    }

    private static void sleepUntil(long deadline, Process process, Path output) throws Exception {
        long left;
        while ((left = deadline - System.nanoTime()) > 0) {
            if (process.waitFor(left, TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("the generator ended early (" + process.exitValue() + "): "
                    + Files.readString(output, StandardCharsets.UTF_8));
            }
        }
    }

    private static void print(List<Point> points) {
        System.out.println();
        System.out.println("| round | protocol | generator | setting | requests/s (nginx's count) | generator CPU | generator CPU µs/request"
            + " | context switches/request | note |");
        System.out.println("|---|---|---|---|---:|---:|---:|---:|---|");
        for (Point p : points) {
            System.out.printf(Locale.ROOT, "| %d | %s | %s | %s | %.0f | %.0f %% | %.2f | %.2f | %s |%n", p.round(), p.protocol(), p.tool().tool(),
                p.tool().setting(), p.requestsPerSecond(), 100 * p.cpuShare(), p.cpuMicrosPerRequest(), p.switchesPerRequest(), p.note());
        }
        System.out.println();
        System.out.println("Ratios of Wharf's generator CPU per request to each other generator's (medians over the rounds; goals: ≤ 0.5x k6, ≤ 1.5x wrk):");
        System.out.println();
        System.out.println("| protocol | generator | setting | its CPU µs/request | Wharf's | Wharf/it |");
        System.out.println("|---|---|---|---:|---:|---:|");
        for (Protocol protocol : Protocol.values()) {
            List<Point> at = points.stream().filter(p -> p.protocol() == protocol).toList();
            double wharf = Median.of(at.stream().filter(p -> p.tool().tool().equals("wharf-loadgen")).toList(), Point::cpuMicrosPerRequest);
            at.stream().filter(p -> !p.tool().tool().equals("wharf-loadgen")).map(p -> p.tool().tool() + " " + p.tool().setting()).distinct()
                .forEach(name -> {
                    List<Point> runs = at.stream().filter(p -> (p.tool().tool() + " " + p.tool().setting()).equals(name)).toList();
                    double other = Median.of(runs, Point::cpuMicrosPerRequest);
                    System.out.printf(Locale.ROOT, "| %s | %s | %s | %.2f | %.2f | %.2f |%n", protocol, runs.get(0).tool().tool(),
                        runs.get(0).tool().setting(), other, wharf, wharf / other);
                });
        }
    }
}
