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
 * the connections, divided by their count), Wharf vs Jetty 12.1 (in one run, Wharf's servlet
 * context vs its core handler), each server in its own JVM:
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
 *   <li>{@code ./wharf bench ws-idle [CONNECTIONS]} ({@link #websocket}): 10,000 WebSocket
 *       sessions on the echo servers of {@link WebSocketServers}, each of which completes its
 *       opening handshake and has one five-byte text message echoed ({@link WebSocketLoad}),
 *       then stays open and idle; the heap before is taken after one such session, already
 *       closed, for the same reason.</li>
 *   <li>{@code ./wharf bench servlet-idle [CONNECTIONS]} ({@link #servlet}): as {@code idle-http},
 *       Wharf's servlet context with the servlet run's application ({@link ServletServers})
 *       against Wharf's core handler alone; the last part of the {@code servlet} run.</li>
 * </ul>
 * Opening 10,000 connections needs an open-files limit above 10,000 in the driver and the
 * server child, which inherits it; {@code ./wharf bench} raises it. The client ends of the
 * connections are in the driver, the server ends in the child: 10,000 open files in each.
 */
public final class IdleHeapBenchmark {

    private IdleHeapBenchmark() {
    }

    /** Opens one connection of a run and brings it to the state in which it idles; closes them at the end. */
    private interface Opener {
        SocketChannel open(String implementation, InetSocketAddress address) throws Exception;

        /** Closes the connections; by default at once, which the server reads as the end of input. */
        default void close(List<SocketChannel> channels) throws Exception {
            for (SocketChannel channel : channels) {
                channel.close();
            }
        }
    }

    /** WebSocket sessions, each after its handshake and one echo, ended with a close frame (a server logs dropped sessions). */
    private static final Opener WEBSOCKET = new Opener() {
        @Override
        public SocketChannel open(String implementation, InetSocketAddress address) throws Exception {
            SocketChannel channel = WebSocketLoad.open(address, "/echo");
            try {
                WebSocketLoad.echoOnce(channel);
                return channel;
            } catch (Exception x) {
                channel.close();
                throw x;
            }
        }

        @Override
        public void close(List<SocketChannel> channels) throws Exception {
            WebSocketLoad.closeSessions(channels);
        }
    };

    public static void main(String[] args) throws Exception {
        compare("idle", "wharf", "jetty", "", false, (implementation, address) -> SocketChannel.open(address), args);
    }

    public static void http(String[] args) throws Exception {
        compare("idle-http", "wharf-http", "jetty-http", ", each after one GET /plaintext", true, IdleHeapBenchmark::openHttp, args);
    }

    public static void websocket(String[] args) throws Exception {
        compare("ws-idle", "wharf-ws", "jetty-ws", ", each a WebSocket session after its handshake and one echoed message", true,
            WEBSOCKET, args);
    }

    /** Wharf's servlet context ({@link ServletServers}) against Wharf's core handler alone, each connection after one GET /plaintext. */
    public static void servlet(String[] args) throws Exception {
        compare("servlet-idle", "wharf-servlet", "wharf-core", ", each after one GET /plaintext", true, IdleHeapBenchmark::openHttp, args);
    }

    /**
     * @param subject the {@link ServerProcess} mode of the server the ratio is about
     * @param peer the mode of the server it is compared with
     * @param what how each connection came to idle, for the heading
     * @param warmFirst whether one connection is opened and closed before the heap is taken, to set up what the first one sets up
     */
    private static void compare(String name, String subject, String peer, String what, boolean warmFirst, Opener opener, String[] args)
        throws Exception {
        int connections = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        if (connections < 1) {
            throw new IllegalArgumentException("CONNECTIONS must be at least 1: " + connections);
        }
        ServerChild.pinDriver();
        System.out.println(name + ": " + connections + " idle connections" + what
            + ", JVM " + Runtime.version() + ", server options " + ServerChild.JVM_OPTIONS);
        System.out.println("| server | heap before (KiB) | heap with idle connections (KiB) | bytes per idle connection |");
        System.out.println("|---|---|---|---|");
        double subjectBytes = run(subject, connections, warmFirst, opener);
        double peerBytes = run(peer, connections, warmFirst, opener);
        System.out.printf(Locale.ROOT, "| ratio %s/%s | | | %.2f |%n", subject, peer, subjectBytes / peerBytes);
    }

    static double run(String implementation, int count, boolean warmFirst, Opener opener) throws Exception {
        try (ServerChild server = ServerChild.start(implementation)) {
            InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port());
            if (warmFirst) {
                opener.close(List.of(opener.open(implementation, address)));
            }
            long before = ServerChild.field(server.command("HEAP"), "HEAP_USED");
            List<SocketChannel> channels = new ArrayList<>(count);
            try {
                for (int i = 0; i < count; i++) {
                    channels.add(opener.open(implementation, address));
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
                opener.close(channels);
            }
        }
    }

    private static SocketChannel openHttp(String implementation, InetSocketAddress address) throws Exception {
        SocketChannel channel = SocketChannel.open(address);
        try {
            exchange(implementation, channel, HttpProbe.get("/plaintext", address.getPort()));
            return channel;
        } catch (Exception x) {
            channel.close();
            throw x;
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
