package io.wharf.bench;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

import io.wharf.examples.ChatLoad;

/**
 * {@code ./wharf bench ws-chat [CLIENTS] [MESSAGES]} (defaults 1000 and 10000): the chat room
 * under load, Wharf's {@link io.wharf.examples.ChatRoom} vs the same protocol on Jetty 12.1
 * ({@link JettyChatRoom}), each in its own JVM pinned to CPU 0, driven by
 * {@link ChatLoad#run} in this JVM on CPU 1 (its defaults: at most 64 messages on their way,
 * 10 s without a delivery ends the run). Wharf first, then Jetty. The server's CPU time and
 * bytes allocated are taken over the whole {@code ChatLoad} run: the members joining (each
 * join goes to every member present), the messages, and the members leaving. Reports
 * deliveries per second (as {@code ChatLoad} counts them: from the first message sent to the
 * last delivery), server CPU seconds, µs and bytes per delivery, the driver's CPU use, and
 * whether every broadcast reached every member; fails if one did not.
 */
public final class WebSocketChatMacroBenchmark {

    private WebSocketChatMacroBenchmark() {
    }

    record Measurement(String server, ChatLoad.Result result, double cpuSeconds, double bytesAllocated, double driverCpuPercent) {

        double cpuMicrosPerDelivery() {
            return cpuSeconds * 1e6 / result.received();
        }

        double bytesPerDelivery() {
            return bytesAllocated / result.received();
        }
    }

    public static void main(String[] args) throws Exception {
        int clients = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int messages = args.length > 1 ? Integer.parseInt(args[1]) : 10_000;
        if (clients < 1 || messages < 1) {
            throw new IllegalArgumentException("CLIENTS and MESSAGES must be at least 1: " + clients + " " + messages);
        }
        ServerChild.pinDriver();
        System.out.println("ws-chat: " + clients + " members, " + messages + " messages, each broadcast to every member ("
            + (long) clients * messages + " deliveries), JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        Measurement wharf = run("wharf", clients, messages);
        Measurement jetty = run("jetty", clients, messages);
        System.out.println();
        System.out.println("| server | deliveries | deliveries/s | latency p50 / p99 ms | server CPU s | server CPU µs/delivery"
            + " | bytes allocated/delivery | driver CPU % | every broadcast reached every member |");
        System.out.println("|---|---|---|---|---|---|---|---|---|");
        print(wharf);
        print(jetty);
        System.out.printf(Locale.ROOT, "| ratio Wharf/Jetty | | %.2f | | %.2f | %.2f | %.2f | | |%n",
            wharf.result().deliveriesPerSecond() / jetty.result().deliveriesPerSecond(), wharf.cpuSeconds() / jetty.cpuSeconds(),
            wharf.cpuMicrosPerDelivery() / jetty.cpuMicrosPerDelivery(), wharf.bytesPerDelivery() / jetty.bytesPerDelivery());
        if (!wharf.result().complete() || !jetty.result().complete()) {
            throw new IllegalStateException("deliveries missing: see the table");
        }
    }

    private static void print(Measurement m) {
        ChatLoad.Result r = m.result();
        System.out.printf(Locale.ROOT, "| %s | %d of %d | %.0f | %.2f / %.2f | %.2f | %.2f | %.1f | %.0f | %s |%n", m.server(), r.received(),
            r.expected(), r.deliveriesPerSecond(), r.p50() / 1000.0, r.p99() / 1000.0, m.cpuSeconds(), m.cpuMicrosPerDelivery(),
            m.bytesPerDelivery(), m.driverCpuPercent(), r.complete() ? "yes" : "NO: " + (r.problem() != null ? r.problem()
                : (r.expected() - r.received()) + " missing"));
    }

    private static Measurement run(String server, int clients, int messages) throws Exception {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (ServerChild child = ServerChild.start(server + "-chat")) {
            URI uri = URI.create("ws://127.0.0.1:" + child.port() + "/chat/ws");
            child.command("MARK");
            long driverCpu = os.getProcessCpuTime();
            long start = System.nanoTime();
            ChatLoad.Result result = ChatLoad.run(new ChatLoad.Options(clients, messages, uri, 64, Duration.ofSeconds(10)));
            double seconds = (System.nanoTime() - start) / 1e9;
            String report = child.command("REPORT");
            double driverPercent = (os.getProcessCpuTime() - driverCpu) / 1e9 / seconds * 100;
            System.out.print("  " + server + ": ");
            result.print(System.out);
            return new Measurement(server, result, ServerChild.field(report, "CPU_NS") / 1e9, ServerChild.field(report, "ALLOCATED_BYTES"),
                driverPercent);
        }
    }
}
