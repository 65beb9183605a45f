package io.wharf.bench;

import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./wharf bench ws-echo [ROUNDS]}: WebSocket echo, Wharf vs Jetty 12.1 ({@link WebSocketServers},
 * permessage-deflate off on both), each server in its own JVM pinned to CPU 0, loaded by
 * {@link WebSocketLoad} on this driver's CPU 1. Scenarios: 64 and 512 connections, each keeping
 * 1 and 16 five-byte text messages in flight. For each round (default 2) and each server in turn
 * (A B A B), the server is started and each scenario run on fresh connections: a warm-up (5 s),
 * then a measured period (10 s) framed by a mark and a report of the server's CPU time and bytes
 * allocated by all its threads. Reports messages (echoes) per second, server CPU µs and bytes
 * allocated per message, and the driver's CPU use in that period (near 100 % means the driver,
 * not the server, set the pace); then the medians over the rounds and the ratios Wharf/Jetty as
 * Markdown tables. {@code -Dwharf.bench.ws.warmup=S} and {@code -Dwharf.bench.ws.seconds=S}
 * change the periods for a quick look, {@code -Dwharf.bench.ws.scenarios=64x1,512x16} the
 * scenarios (connections x messages in flight).
 */
public final class WebSocketEchoMacroBenchmark {

    static final int WARMUP = Integer.getInteger("wharf.bench.ws.warmup", 5);
    static final int SECONDS = Integer.getInteger("wharf.bench.ws.seconds", 10);

    /** One load: how many connections, how many messages in flight on each. */
    record Scenario(int connections, int inFlight) {
        String name() {
            return connections + " connections x " + inFlight + " in flight";
        }
    }

    record Measurement(int round, String server, Scenario scenario, double messagesPerSecond, double cpuMicrosPerMessage,
                       double bytesPerMessage, double driverCpuPercent) {
    }

    static final List<Scenario> SCENARIOS = scenarios(System.getProperty("wharf.bench.ws.scenarios", "64x1,64x16,512x1,512x16"));

    static final List<String> SERVERS = List.of("wharf", "jetty");

    private WebSocketEchoMacroBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        if (rounds < 1) {
            throw new IllegalArgumentException("ROUNDS must be at least 1: " + rounds);
        }
        ServerChild.pinDriver();
        System.out.println("ws-echo: 5-byte text messages echoed at /echo, permessage-deflate off, " + WARMUP + " s warm-up + " + SECONDS
            + " s measured per scenario, " + rounds + " rounds, JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        List<Measurement> measurements = new ArrayList<>();
        for (int round = 1; round <= rounds; round++) {
            for (String server : SERVERS) {
                try (ServerChild child = ServerChild.start(server + "-ws")) {
                    for (Scenario scenario : SCENARIOS) {
                        Measurement m = measure(round, server, child, scenario);
                        measurements.add(m);
                        System.out.printf(Locale.ROOT, "  round %d %s %s: %.0f msg/s, %.2f µs CPU/msg, %.1f B/msg, driver CPU %.0f %%%n", round,
                            server, scenario.name(), m.messagesPerSecond(), m.cpuMicrosPerMessage(), m.bytesPerMessage(), m.driverCpuPercent());
                    }
                }
            }
        }
        printAll(measurements);
        printMedians(measurements);
    }

    /** @return the scenarios of a list such as {@code 64x1,512x16} */
    static List<Scenario> scenarios(String list) {
        List<Scenario> scenarios = new ArrayList<>();
        for (String item : list.split(",")) {
            String[] parts = item.trim().split("x");
            try {
                if (parts.length != 2) {
                    throw new NumberFormatException();
                }
                Scenario scenario = new Scenario(Integer.parseInt(parts[0]), Integer.parseInt(parts[1]));
                if (scenario.connections() < 1 || scenario.inFlight() < 1) {
                    throw new NumberFormatException();
                }
                scenarios.add(scenario);
            } catch (NumberFormatException x) {
                throw new IllegalArgumentException("a scenario is CONNECTIONSxIN_FLIGHT, both at least 1, such as 64x16: '" + item + "'");
            }
        }
        return List.copyOf(scenarios);
    }

    private static Measurement measure(int round, String server, ServerChild child, Scenario scenario) throws Exception {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), child.port());
        List<SocketChannel> channels = new ArrayList<>(scenario.connections());
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try {
            for (int i = 0; i < scenario.connections(); i++) {
                channels.add(WebSocketLoad.open(address, "/echo"));
            }
        } catch (Exception x) {
            for (SocketChannel channel : channels) {
                channel.close();
            }
            throw x;
        }
        try (WebSocketLoad load = WebSocketLoad.start(channels, scenario.inFlight())) {
            Thread.sleep(WARMUP * 1000L);
            child.command("MARK");
            long echoes = load.echoes();
            long driverCpu = os.getProcessCpuTime();
            long start = System.nanoTime();
            Thread.sleep(SECONDS * 1000L);
            String report = child.command("REPORT");
            long counted = load.echoes() - echoes;
            double seconds = (System.nanoTime() - start) / 1e9;
            double driverPercent = (os.getProcessCpuTime() - driverCpu) / 1e9 / seconds * 100;
            load.stop();
            if (counted == 0) {
                throw new IllegalStateException(server + " " + scenario.name() + ": no echo in " + SECONDS + " s");
            }
            return new Measurement(round, server, scenario, counted / seconds, ServerChild.field(report, "CPU_NS") / 1000.0 / counted,
                (double) ServerChild.field(report, "ALLOCATED_BYTES") / counted, driverPercent);
        }
    }

    private static void printAll(List<Measurement> measurements) {
        System.out.println();
        System.out.println("| round | scenario | server | messages/s | server CPU µs/message | bytes allocated/message | driver CPU % |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (Measurement m : measurements) {
            System.out.printf(Locale.ROOT, "| %d | %s | %s | %.0f | %.2f | %.1f | %.0f |%n", m.round(), m.scenario().name(), m.server(),
                m.messagesPerSecond(), m.cpuMicrosPerMessage(), m.bytesPerMessage(), m.driverCpuPercent());
        }
    }

    private static void printMedians(List<Measurement> measurements) {
        System.out.println();
        System.out.println("Medians over the rounds:");
        System.out.println();
        System.out.println("| scenario | server | messages/s | server CPU µs/message | bytes allocated/message | driver CPU % |");
        System.out.println("|---|---|---|---|---|---|");
        for (Scenario scenario : SCENARIOS) {
            double[][] medians = new double[SERVERS.size()][];
            for (int s = 0; s < SERVERS.size(); s++) {
                String server = SERVERS.get(s);
                List<Measurement> runs = measurements.stream().filter(m -> m.scenario().equals(scenario) && m.server().equals(server)).toList();
                medians[s] = new double[] {Median.of(runs, Measurement::messagesPerSecond), Median.of(runs, Measurement::cpuMicrosPerMessage),
                    Median.of(runs, Measurement::bytesPerMessage), Median.of(runs, Measurement::driverCpuPercent)};
                System.out.printf(Locale.ROOT, "| %s | %s | %.0f | %.2f | %.1f | %.0f |%n", scenario.name(), server, medians[s][0], medians[s][1],
                    medians[s][2], medians[s][3]);
            }
            System.out.printf(Locale.ROOT, "| %s | ratio Wharf/Jetty | %.2f | %.2f | %.2f | |%n", scenario.name(), medians[0][0] / medians[1][0],
                medians[0][1] / medians[1][1], medians[0][2] / medians[1][2]);
        }
    }
}
