package io.wharf.bench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;

/**
 * {@code ./wharf bench servlet [ROUNDS]}: the servlet containers side by side — Wharf's
 * {@code ServletContextHandler}, Jetty 12.1's ee11 context and an embedded Tomcat 11, all running
 * the same {@link ServletApp} ({@link ServletServers}) — and Wharf's core handlers doing the same
 * work, as the baseline of what the servlet layer costs. Each server runs in its own JVM pinned to
 * CPU 0, loaded by wrk {@code -t1} (keep-alive HTTP/1.1) on CPU 1, through {@link LoadComparison}
 * (two warm-ups of WARMUP seconds, then SECONDS measured, per scenario; ROUNDS rounds, default 3,
 * servers in turn). Four parts, each with its tables of every measurement, medians and ratios:
 *
 * <ol>
 *   <li>{@code hello}: {@code GET /plaintext} on 64 connections and {@code GET /json} on 256 (as the
 *       {@code http} run), on Wharf's servlet context, Jetty, Tomcat and Wharf's core handler
 *       ({@code wharf-core}), and Wharf's servlet context with every request on a virtual thread of
 *       its own instead of an idle pool thread first ({@code wharf-servlet-vthread}). Goals: Wharf's server CPU per request at most 0.75x Jetty's and
 *       Tomcat's, and at most 1.15x its core handler's; printed at the end of the part. With
 *       {@code -Dwharf.bench.servlet.blocking-core=true}, also the core handler run BLOCKING, off the
 *       selector thread as the servlets are ({@code wharf-core-blocking}), to tell what the hand-off
 *       to that thread costs from what the servlet layer does.</li>
 *   <li>{@code async}: {@code GET /async} (answered from another thread after {@code startAsync})
 *       on 64 connections, and a 1 MiB {@code POST /echo} echoed with a {@code ReadListener} and a
 *       {@code WriteListener} on 16, on the three containers.</li>
 *   <li>{@code static}: files of 4 KiB and 1 MiB on 16 connections through each container's own
 *       DefaultServlet, and through Wharf's core {@code ResourceHandler} ({@link StaticServers},
 *       {@code wharf-static}).</li>
 *   <li>{@code idle}: heap per idle keep-alive connection, Wharf's servlet context against its core
 *       handler ({@link IdleHeapBenchmark#servlet}); goal: unchanged.</li>
 * </ol>
 *
 * Before its load each server is asked once for every path of the part, on one connection, and
 * must answer each with 200, the expected Content-Type and exactly the expected body (the echo:
 * a 1 MiB body of random bytes); the head of its first answer is printed the first time, to show
 * what each server sends. Options: {@code -Dwharf.bench.servlet.seconds=N} (10),
 * {@code -Dwharf.bench.servlet.warmup=N} (5), {@code -Dwharf.bench.servlet.parts=hello,async,static,idle}
 * (all), {@code -Dwharf.bench.servlet.idle-connections=N} (10,000),
 * {@code -Dwharf.bench.servlet.blocking-core=true} (false). Called on the driver's main thread.
 */
public final class ServletMacroBenchmark {

    static final int SECONDS = Integer.getInteger("wharf.bench.servlet.seconds", 10);
    static final int WARMUP = Integer.getInteger("wharf.bench.servlet.warmup", 5);
    static final List<String> PARTS = List.of(System.getProperty("wharf.bench.servlet.parts", "hello,async,static,idle").split(","));
    static final int IDLE_CONNECTIONS = Integer.getInteger("wharf.bench.servlet.idle-connections", 10_000);
    static final boolean BLOCKING_CORE = Boolean.getBoolean("wharf.bench.servlet.blocking-core");

    static final int UPLOAD = 1024 * 1024;
    static final List<StaticMacroBenchmark.File> FILES = List.of(new StaticMacroBenchmark.File("4k.bin", 4 * 1024),
        new StaticMacroBenchmark.File("1m.bin", 1024 * 1024));

    static final String WHARF = "wharf-servlet";
    /** Wharf's servlet context with every request on a virtual thread of its own, not an idle pool thread first. */
    static final String VTHREAD = "wharf-servlet-vthread";
    static final List<String> CONTAINERS = List.of(WHARF, "jetty-servlet", "tomcat-servlet");

    /** The goals of the hello part: the peer, and the most Wharf's servlet CPU per request may be against it. */
    private record Goal(String peer, double atMost) {
    }

    private static final List<Goal> GOALS = List.of(new Goal("jetty-servlet", 0.75), new Goal("tomcat-servlet", 0.75),
        new Goal("wharf-core", 1.15));

    /** A request of a part's check and what must come back. */
    private record Probe(byte[] request, String path, String contentType, byte[] body) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        ServerChild.pinDriver();
        System.out.println("servlet: wrk -t1, " + WARMUP + " s warm-up (twice) + " + SECONDS + " s measured per scenario, " + rounds
            + " rounds, parts " + PARTS + ", JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        Path directory = StaticMacroBenchmark.writeFiles(FILES);
        try {
            ServletMacroBenchmark run = new ServletMacroBenchmark(directory);
            if (PARTS.contains("hello")) {
                List<LoadComparison.Scenario> scenarios = List.of(new LoadComparison.Scenario("plaintext", "/plaintext", 64, 1, 0),
                    new LoadComparison.Scenario("json", "/json", 256, 1, 0));
                List<String> servers = append(append(CONTAINERS, VTHREAD), "wharf-core");
                List<LoadComparison.Measurement> measurements = run.part("hello", BLOCKING_CORE ? append(servers, "wharf-core-blocking") : servers,
                    scenarios, rounds);
                printGoals(scenarios, measurements);
            }
            if (PARTS.contains("async")) {
                run.part("async", CONTAINERS, List.of(new LoadComparison.Scenario("async", "/async", 64, 1, 0),
                    new LoadComparison.Scenario("upload 1 MiB echo", "/echo", 16, 1, UPLOAD, Protocol.HTTP_1_1, UPLOAD)), rounds);
            }
            if (PARTS.contains("static")) {
                run.part("static", append(CONTAINERS, "wharf-static"), FILES.stream()
                    .map(file -> new LoadComparison.Scenario(StaticMacroBenchmark.label(file.size()), "/" + file.name(), 16, 1, file.size()))
                    .toList(), rounds);
            }
            if (PARTS.contains("idle")) {
                System.out.println();
                IdleHeapBenchmark.servlet(new String[] {Integer.toString(IDLE_CONNECTIONS)});
            }
        } finally {
            StaticMacroBenchmark.deleteTree(directory);
        }
    }

    private final Path directory;
    private final byte[] upload = new byte[UPLOAD];
    private final Set<String> shown = new HashSet<>();

    private ServletMacroBenchmark(Path directory) {
        this.directory = directory;
        new Random(20261129).nextBytes(upload);
    }

    private static List<String> append(List<String> servers, String server) {
        return Stream.concat(servers.stream(), Stream.of(server)).toList();
    }

    private List<LoadComparison.Measurement> part(String name, List<String> servers, List<LoadComparison.Scenario> scenarios, int rounds)
        throws Exception {
        System.out.println();
        System.out.println("## " + name + ": " + servers);
        LoadComparison comparison = new LoadComparison(servers, server -> start(server, scenarios), scenarios, WARMUP, SECONDS);
        List<LoadComparison.Measurement> measurements = comparison.run(rounds);
        comparison.printAll(measurements);
        comparison.printMedians(measurements);
        return measurements;
    }

    /** Starts {@code server} (a {@link ServerProcess} mode) and checks its answers to the paths of {@code scenarios}. */
    private ServerUnderTest start(String server, List<LoadComparison.Scenario> scenarios) throws Exception {
        ServerUnderTest subject = server.startsWith("wharf-core") ? ServerUnderTest.of(ServerChild.start(server))
            : ServerUnderTest.of(ServerChild.start(server, directory.toString()));
        try {
            check(server, subject.port(), scenarios);
            return subject;
        } catch (Exception x) {
            subject.close();
            throw x;
        }
    }

    private void check(String server, int port, List<LoadComparison.Scenario> scenarios) throws Exception {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 10_000);
            socket.setSoTimeout(10_000);
            for (LoadComparison.Scenario scenario : scenarios) {
                Probe probe = probe(scenario, port);
                HttpProbe.Response response = HttpProbe.exchange(socket.getInputStream(), socket.getOutputStream(), probe.request());
                String type = response.field("Content-Type");
                if (response.status() != 200 || type == null || !type.startsWith(probe.contentType())
                    || !Arrays.equals(response.body(), probe.body())) {
                    throw new IllegalStateException(server + " answered " + probe.path() + " wrongly (expected 200, " + probe.contentType()
                        + ", " + probe.body().length + " bytes):\n" + response.head() + preview(response.body()));
                }
                if (shown.add(server + " " + probe.path())) {
                    System.out.println("  " + server + " answers " + probe.path() + " with " + response.body().length + " bytes and:");
                    System.out.print(response.head().indent(4));
                }
            }
        }
    }

    private Probe probe(LoadComparison.Scenario scenario, int port) throws Exception {
        String path = scenario.path();
        if (scenario.uploadBytes() > 0) {
            return new Probe(HttpProbe.post(path, port, "application/octet-stream", upload), path, "application/octet-stream", upload);
        }
        byte[] request = HttpProbe.get(path, port);
        return switch (path) {
            case "/plaintext", "/async" -> new Probe(request, path, "text/plain", ServletApp.PLAINTEXT);
            case "/json" -> new Probe(request, path, "application/json", ServletApp.json(ServletApp.MESSAGE));
            default -> new Probe(request, path, "application/octet-stream", Files.readAllBytes(directory.resolve(path.substring(1))));
        };
    }

    private static String preview(byte[] body) {
        return new String(body, 0, Math.min(body.length, 200), StandardCharsets.ISO_8859_1);
    }

    /** Prints the hello part's goals against the medians of its measurements. */
    private static void printGoals(List<LoadComparison.Scenario> scenarios, List<LoadComparison.Measurement> measurements) {
        System.out.println();
        System.out.println("| scenario (Wharf's threads) | goal: Wharf servlet CPU µs/request / peer's | ratio (medians) | met |");
        System.out.println("|---|---|---|---|");
        for (String wharfServer : List.of(WHARF, VTHREAD)) {
            for (LoadComparison.Scenario scenario : scenarios) {
                double wharf = medianCpu(measurements, scenario, wharfServer);
                for (Goal goal : GOALS) {
                    double ratio = wharf / medianCpu(measurements, scenario, goal.peer());
                    System.out.printf(Locale.ROOT, "| %s (%s) | ≤ %.2f x %s | %.2f | %s |%n", scenario.name(), wharfServer, goal.atMost(),
                        goal.peer(), ratio, ratio <= goal.atMost() ? "yes" : "no");
                }
            }
        }
    }

    private static double medianCpu(List<LoadComparison.Measurement> measurements, LoadComparison.Scenario scenario, String server) {
        return Median.of(measurements.stream().filter(m -> m.scenario().equals(scenario) && m.server().equals(server)).toList(),
            LoadComparison.Measurement::cpuMicrosPerRequest);
    }
}
