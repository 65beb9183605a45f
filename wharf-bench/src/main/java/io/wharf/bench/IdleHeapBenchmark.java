package io.wharf.bench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * {@code ./wharf bench idle [CONNECTIONS]}: heap used per idle connection on the server at
 * 10,000 idle connections (the server's heap after full GCs, minus its heap before the
 * connections, divided by their count), Wharf's echo server vs the same echo on Jetty 12.1.
 */
public final class IdleHeapBenchmark {

    private IdleHeapBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        ServerChild.pinDriver();
        System.out.println("idle: " + connections + " idle connections, JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        System.out.println("| server | heap before (KiB) | heap with idle connections (KiB) | bytes per idle connection |");
        System.out.println("|---|---|---|---|");
        double wharf = run("wharf", connections);
        double jetty = run("jetty", connections);
        System.out.printf(Locale.ROOT, "| ratio Wharf/Jetty | | | %.2f |%n", wharf / jetty);
    }

    static double run(String implementation, int count) throws Exception {
        try (ServerChild server = ServerChild.start(implementation)) {
            long before = ServerChild.field(server.command("HEAP"), "HEAP_USED");
            List<SocketChannel> channels = new ArrayList<>(count);
            try {
                InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
                for (int i = 0; i < count; i++) {
                    channels.add(SocketChannel.open(address));
                }
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (ServerChild.field(server.command("CONNECTIONS"), "CONNECTIONS") < count) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(implementation + " did not open all connections");
                    }
                    Thread.sleep(100);
                }
                long after = ServerChild.field(server.command("HEAP"), "HEAP_USED");
                double perConnection = (double) (after - before) / count;
                System.out.printf(Locale.ROOT, "| %s | %d | %d | %.0f |%n", implementation, before / 1024, after / 1024, perConnection);
                return perConnection;
            } finally {
                for (SocketChannel channel : channels) {
                    channel.close();
                }
            }
        }
    }
}
