package io.wharf.bench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Heap used per idle connection on the server (its heap after full GCs, minus its heap before
 * the connections, divided by their count), Wharf vs Jetty 12.1, each server in its own JVM:
 * <ul>
 *   <li>{@code ./wharf bench idle [CONNECTIONS]} ({@link #main}): 10,000 connections to the
 *       echo servers that never send a byte;</li>
 *   <li>{@code ./wharf bench idle-http [CONNECTIONS]} ({@link #http}): 10,000 keep-alive
 *       connections to the hello-world HTTP/1.1 servers ({@link HelloServers}), each of which
 *       first sends one {@code GET /plaintext} and reads the whole response, so that the
 *       server's HTTP connection state is fully set up, then stays open and idle. The heap
 *       before is taken after one such exchange on a connection already closed, so that what
 *       the first request sets up once per server (caches, pooled buffers) is not counted
 *       per connection.</li>
 * </ul>
 * Opening 10,000 connections needs an open-files limit above 10,000 in the driver and the
 * server child, which inherits it; {@code ./wharf bench} raises it.
 */
public final class IdleHeapBenchmark {

    private IdleHeapBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        compare("idle", "", false, args);
    }

    public static void http(String[] args) throws Exception {
        compare("idle-http", "-http", true, args);
    }

    /**
     * @param suffix added to {@code wharf} and {@code jetty} to name the {@link ServerProcess} mode
     * @param requestFirst whether each connection makes one {@code GET /plaintext} exchange before going idle
     */
    private static void compare(String name, String suffix, boolean requestFirst, String[] args) throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        ServerChild.pinDriver();
        System.out.println(name + ": " + connections + " idle connections" + (requestFirst ? ", each after one GET /plaintext" : "")
            + ", JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        System.out.println("| server | heap before (KiB) | heap with idle connections (KiB) | bytes per idle connection |");
        System.out.println("|---|---|---|---|");
        double wharf = run("wharf" + suffix, connections, requestFirst);
        double jetty = run("jetty" + suffix, connections, requestFirst);
        System.out.printf(Locale.ROOT, "| ratio Wharf/Jetty | | | %.2f |%n", wharf / jetty);
    }

    static double run(String implementation, int count, boolean requestFirst) throws Exception {
        try (ServerChild server = ServerChild.start(implementation)) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
            byte[] request = HttpProbe.get("/plaintext", server.port());
            if (requestFirst) {
                try (SocketChannel first = SocketChannel.open(address)) {
                    exchange(implementation, first, request);
                }
            }
            long before = ServerChild.field(server.command("HEAP"), "HEAP_USED");
            List<SocketChannel> channels = new ArrayList<>(count);
            try {
                for (int i = 0; i < count; i++) {
                    SocketChannel channel = SocketChannel.open(address);
                    channels.add(channel);
                    if (requestFirst) {
                        exchange(implementation, channel, request);
                    }
                }
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (ServerChild.field(server.command("CONNECTIONS"), "CONNECTIONS") < count) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException(implementation + " did not open all connections");
                    }
                    Thread.sleep(100);
                }
                long after = ServerChild.field(server.command("HEAP"), "HEAP_USED");
                long open = ServerChild.field(server.command("CONNECTIONS"), "CONNECTIONS");
                if (open != count) {
                    throw new IllegalStateException(implementation + " has " + open + " connections open after the GCs, not " + count);
                }
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

    private static void exchange(String implementation, SocketChannel channel, byte[] request) throws Exception {
        Socket socket = channel.socket();
        socket.setSoTimeout(10_000);
        HttpProbe.Response response = HttpProbe.exchange(socket.getInputStream(), socket.getOutputStream(), request);
        if (response.status() != 200) {
            throw new IllegalStateException(implementation + " answered " + response.status() + " to GET /plaintext");
        }
    }
}
