package io.wharf.bench;

import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Duration;
import java.util.Locale;

import io.wharf.loadgen.LoadGenerator;
import io.wharf.loadgen.LoadResult;
import io.wharf.loadgen.Model;
import io.wharf.loadgen.ResourceStatistics;

/**
 * {@code ./wharf bench ws-chat [CLIENTS] [MESSAGES]} (defaults 1000 and 10000): the chat room
 * under load, Wharf's {@link io.wharf.examples.ChatRoom} vs the same protocol on Jetty 12.1
 * ({@link JettyChatRoom}), each in its own JVM pinned to CPU 0, driven by the load generator's
 * chat scenario ({@link LoadGenerator#chat}, as {@code ./wharf chat-load} runs it) in this JVM
 * on CPU 1: the closed model, every member speaking again once its message reached every member,
 * at most 64 messages on their way (the window), 10 s for each message's deliveries — the room
 * as fast as it goes. Wharf first, then Jetty. The server's CPU time and bytes allocated are
 * taken over the whole run: the members joining (each join goes to every member present), the
 * messages, and the members leaving. Reports deliveries per second (over the measured part: from
 * the first message started to the last one delivered), the messages' latency from their send to
 * their last member's delivery (uncorrected: the wait for the window left out), server CPU
 * seconds, µs and bytes per delivery, the driver's CPU use, and whether every broadcast reached
 * every member; fails if one did not.
 */
public final class WebSocketChatMacroBenchmark {

    private WebSocketChatMacroBenchmark() {
    }

    record Measurement(String server, LoadResult result, double cpuSeconds, double bytesAllocated, double driverCpuPercent) {

        ResourceStatistics deliveries() {
            return result.resources().get(LoadGenerator.CHAT_DELIVERIES);
        }

        long received() {
            return deliveries().requests() - deliveries().errors();
        }

        boolean complete() {
            return deliveries().errors() == 0;
        }

        double deliveriesPerSecond() {
            return received() * 1e9 / Math.max(1, result.elapsed().toNanos());
        }

        double cpuMicrosPerDelivery() {
            return cpuSeconds * 1e6 / received();
        }

        double bytesPerDelivery() {
            return bytesAllocated / received();
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
            wharf.deliveriesPerSecond() / jetty.deliveriesPerSecond(), wharf.cpuSeconds() / jetty.cpuSeconds(),
            wharf.cpuMicrosPerDelivery() / jetty.cpuMicrosPerDelivery(), wharf.bytesPerDelivery() / jetty.bytesPerDelivery());
        if (!wharf.complete() || !jetty.complete()) {
            throw new IllegalStateException("deliveries missing: see the table");
        }
    }

    private static void print(Measurement m) {
        LoadResult r = m.result();
        System.out.printf(Locale.ROOT, "| %s | %d of %d | %.0f | %.2f / %.2f | %.2f | %.2f | %.1f | %.0f | %s |%n", m.server(), m.received(),
            m.deliveries().requests(), m.deliveriesPerSecond(), r.uncorrectedMicros(50) / 1000.0, r.uncorrectedMicros(99) / 1000.0,
            m.cpuSeconds(), m.cpuMicrosPerDelivery(), m.bytesPerDelivery(), m.driverCpuPercent(),
            m.complete() ? "yes" : "NO: " + m.deliveries().errors() + " missing " + r.errorsByKind());
    }

    /** @return the run of {@code clients} members and {@code messages} messages on the room at {@code uri}, as fast as it goes */
    static LoadResult load(URI uri, int clients, int messages, int window) throws InterruptedException {
        return LoadGenerator.chat(uri)
            .model(Model.CLOSED)
            .usersPerThread(clients)
            .iterations(messages)
            .window(window)
            .requestTimeout(Duration.ofSeconds(10))
            .build()
            .run();
    }

    private static Measurement run(String server, int clients, int messages) throws Exception {
        com.sun.management.OperatingSystemMXBean os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        try (ServerChild child = ServerChild.start(server + "-chat")) {
            URI uri = URI.create("ws://127.0.0.1:" + child.port() + "/chat/ws");
            child.command("MARK");
            long driverCpu = os.getProcessCpuTime();
            long start = System.nanoTime();
            LoadResult result = load(uri, clients, messages, 64);
            double seconds = (System.nanoTime() - start) / 1e9;
            String report = child.command("REPORT");
            double driverPercent = (os.getProcessCpuTime() - driverCpu) / 1e9 / seconds * 100;
            ResourceStatistics deliveries = result.resources().get(LoadGenerator.CHAT_DELIVERIES);
            System.out.printf(Locale.ROOT, "  %s: %d messages, %d of %d deliveries in %.2f s, errors %s%n", server, result.requests(),
                deliveries.requests() - deliveries.errors(), deliveries.requests(), result.elapsed().toNanos() / 1e9, result.errorsByKind());
            return new Measurement(server, result, ServerChild.field(report, "CPU_NS") / 1e9, ServerChild.field(report, "ALLOCATED_BYTES"),
                driverPercent);
        }
    }
}
