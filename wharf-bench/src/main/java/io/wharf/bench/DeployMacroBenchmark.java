package io.wharf.bench;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * {@code ./wharf bench deploy [ROUNDS]}: how long each servlet container takes from its start to
 * the first answer of a real Spring MVC application deployed from a WAR with about 60 jars in
 * WEB-INF/lib (module {@code wharf-bench-war}, built with {@code -Pbench} into
 * {@code target/spring-app.war}), annotation scanning on: Wharf, Jetty 12.1 ee11 and Tomcat 11
 * ({@link DeployServers}). Each deployment is a FRESH child JVM, pinned to CPU 0 with the JVM
 * options of every macro run ({@link ServerChild}), which deploys the WAR — extracting it, which
 * is counted, the same for all — then opens its connector; the driver, on CPU 1, reads the port
 * and asks {@code GET /hello} on loopback until it gets 200 with exactly
 * {@code {"message":"Hello, World!"}} (after a refused connection, a 404 or a 503 it asks again
 * 5 ms later, for at most two minutes; any other answer fails the run).
 *
 * <p>Measured per deployment, with {@link System#nanoTime()}, one monotonic clock for both JVMs
 * on Linux: from the start of the child's {@code main} to that answer — the goal's measure,
 * everything the server does, none of the JVM's own start, which is the same for all — and from
 * the driver's launching the child to that answer, JVM start included; beside them the child's
 * CPU time by then (all its threads, JIT and GC included), which other load on the machine moves
 * far less than the times. Wharf is measured twice:
 * {@code wharf} with an empty scan cache (a first deployment: every jar hashed, scanned and its
 * scan stored), {@code wharf-cached} with the cache a deployment of the same WAR left (any later
 * deployment of jars already seen: a restart, a redeploy); the others keep nothing between
 * starts. One round of every server first, not counted, brings the WAR into the page cache and
 * fills that scan cache. Then ROUNDS rounds (default 5), the servers in turn; medians, the
 * ratios of Wharf's medians to Jetty's and Tomcat's, and the goal of issue 18 (at most 0.5x
 * Jetty's time) met or not. Each child also reports where its time went: its setup before
 * {@code start()}, {@code start()} itself, and for Wharf the steps of its preparation (extract,
 * read — descriptors and scan —, configure) and the context's start (the initializers: Spring).
 *
 * <p>Options: {@code -Dwharf.bench.deploy.war=PATH} (the WAR; by default the one built beside
 * this jar), {@code -Dwharf.bench.child.options=...} (added JVM options of the children, for
 * example a flight recording). Called on the driver's main thread.
 */
public final class DeployMacroBenchmark {

    static final String PATH = "/hello";
    static final String BODY = "{\"message\":\"Hello, World!\"}";
    static final Duration PATIENCE = Duration.ofMinutes(2);
    static final String WHARF = "wharf";
    static final String WHARF_CACHED = "wharf-cached";
    static final List<String> SERVERS = List.of(WHARF, WHARF_CACHED, "jetty", "tomcat");
    static final double GOAL = 0.5;

    /**
     * One deployment: milliseconds from the child's main and from its launch to the first answer,
     * the child's CPU milliseconds by then, and its phases.
     */
    record Deployment(String server, int round, double fromMainMillis, double fromLaunchMillis, double cpuMillis, String phases) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        Path war = war();
        ServerChild.pinDriver();
        System.out.println("deploy: " + war + " (" + describe(war) + "), " + rounds + " rounds + 1 not counted, JVM " + Runtime.version()
            + ", server options " + ServerChild.JVM_OPTIONS);
        Path cache = Files.createTempDirectory("wharf-bench-scan-cache");
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
        try {
            List<Deployment> deployments = new ArrayList<>();
            System.out.println();
            System.out.println("| server | round | main → first answer (ms) | launch → first answer (ms) | child CPU by then (ms) | the child's phases (ms) |");
            System.out.println("|---|---|---|---|---|---|");
            for (int round = 0; round <= rounds; round++) {
                for (String server : SERVERS) {
                    Deployment deployment = deploy(client, server, round, war, cache);
                    System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.0f | %s |%n", server, round == 0 ? "0 (not counted)" : round,
                        deployment.fromMainMillis(), deployment.fromLaunchMillis(), deployment.cpuMillis(), deployment.phases());
                    if (round > 0) {
                        deployments.add(deployment);
                    }
                }
            }
            printMedians(deployments);
        } finally {
            StaticMacroBenchmark.deleteTree(cache);
        }
    }

    /** @return the WAR named by {@code wharf.bench.deploy.war}, else the one the bench build left in wharf-bench-war/target */
    static Path war() throws Exception {
        String named = System.getProperty("wharf.bench.deploy.war");
        Path war;
        if (named != null) {
            war = Path.of(named);
        } else {
            // This class runs from wharf-bench/target/wharf-bench.jar (or wharf-bench/target/classes).
            Path here = Path.of(DeployMacroBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            war = here.getParent().getParent().getParent().resolve("wharf-bench-war/target/spring-app.war");
        }
        if (!Files.isRegularFile(war)) {
            throw new IllegalStateException("no WAR at " + war + ": build it with mvn -Pbench (./wharf bench deploy does),"
                + " or name one with -Dwharf.bench.deploy.war=PATH");
        }
        return war;
    }

    /** @return how many jars the WAR's WEB-INF/lib holds and its size */
    static String describe(Path war) throws IOException {
        try (ZipFile zip = new ZipFile(war.toFile())) {
            long jars = zip.stream().map(ZipEntry::getName).filter(name -> name.startsWith("WEB-INF/lib/") && name.endsWith(".jar")).count();
            return jars + " jars in WEB-INF/lib, " + Files.size(war) / 1024 + " KiB";
        }
    }

    /** Starts {@code server} in a fresh child JVM deploying {@code war}, waits for its first right answer, and stops it. */
    private static Deployment deploy(HttpClient client, String server, int round, Path war, Path cache) throws Exception {
        long launched = System.nanoTime();
        try (ServerChild child = switch (server) {
            case WHARF -> ServerChild.start("wharf-war", war.toString());
            case WHARF_CACHED -> ServerChild.start("wharf-war", war.toString(), cache.toString());
            default -> ServerChild.start(server + "-war", war.toString());
        }) {
            long answered = firstAnswer(client, server, child.port());
            String started = child.command("STARTED");
            if (!started.startsWith("MAIN_NANOS ")) {
                throw new IOException(server + " answered STARTED with " + started);
            }
            long mainStarted = ServerChild.field(started, "MAIN_NANOS");
            long cpu = ServerChild.field(started, "CPU_NS");
            String[] words = started.split(" ", 5);
            return new Deployment(server, round, (answered - mainStarted) / 1e6, (answered - launched) / 1e6, cpu / 1e6,
                words.length > 4 ? words[4] : "");
        }
    }

    /** @return {@link System#nanoTime()} when {@code GET /hello} was first answered with 200 and the expected body */
    static long firstAnswer(HttpClient client, String server, int port) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + PATH)).timeout(PATIENCE).build();
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        String last = "nothing";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().equals(BODY)) {
                    return System.nanoTime();
                }
                last = response.statusCode() + " " + response.body();
                if (response.statusCode() != 404 && response.statusCode() != 503) {
                    throw new IOException(server + " answered " + PATH + " with " + last);
                }
            } catch (ConnectException refused) {
                last = refused.toString();
            }
            Thread.sleep(5);
        }
        throw new IOException(server + " did not answer " + PATH + " with 200 " + BODY + " within " + PATIENCE + "; last: " + last);
    }

    private static void printMedians(List<Deployment> deployments) {
        Map<String, double[]> medians = new LinkedHashMap<>();
        System.out.println();
        System.out.println("| server | median main → first answer (ms) | median launch → first answer (ms) | median child CPU by then (ms) |");
        System.out.println("|---|---|---|---|");
        for (String server : SERVERS) {
            List<Deployment> mine = deployments.stream().filter(d -> d.server().equals(server)).toList();
            double[] median = {Median.of(mine, Deployment::fromMainMillis), Median.of(mine, Deployment::fromLaunchMillis),
                Median.of(mine, Deployment::cpuMillis)};
            medians.put(server, median);
            System.out.printf(Locale.ROOT, "| %s | %.0f | %.0f | %.0f |%n", server, median[0], median[1], median[2]);
        }
        System.out.println();
        System.out.println("| Wharf | ratio to Jetty (main / launch / CPU) | ratio to Tomcat (main / launch / CPU) | goal: ≤ " + GOAL + "x Jetty (main) |");
        System.out.println("|---|---|---|---|");
        for (String wharf : List.of(WHARF, WHARF_CACHED)) {
            double[] mine = medians.get(wharf);
            double[] jetty = medians.get("jetty");
            double[] tomcat = medians.get("tomcat");
            double toJetty = mine[0] / jetty[0];
            System.out.printf(Locale.ROOT, "| %s | %.2f / %.2f / %.2f | %.2f / %.2f / %.2f | %s |%n", wharf, toJetty, mine[1] / jetty[1],
                mine[2] / jetty[2], mine[0] / tomcat[0], mine[1] / tomcat[1], mine[2] / tomcat[2], toJetty <= GOAL ? "met" : "not met");
        }
    }
}
