package io.wharf.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP forwarder on loopback that delays what it carries by a fixed time in each direction,
 * emulating a network whose round trip is twice that (this machine's kernel has no netem to
 * do it in a network namespace). Bandwidth is not limited and bytes keep their order. A real
 * connection pays one round trip for the TCP handshake before its first byte; here the
 * client's connect completes at once, so the first bytes a client sends on a connection wait
 * one round trip more.
 *
 * <p>Each connection takes four platform threads (a reader and a writer per direction): this
 * is for a page load's handful of connections, not for load tests. {@link #close()} ends it all.
 */
final class DelayProxy implements AutoCloseable {

    private static final byte[] END = new byte[0];

    /** Bytes read from one side, due to be written to the other at {@code due} (System.nanoTime). */
    private record Piece(byte[] bytes, long due) {
    }

    private final ServerSocket listener;
    private final InetSocketAddress target;
    private final long oneWayNanos;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();

    /** Listens on a free loopback port and forwards to {@code targetPort} on loopback, {@code oneWay} late each way. */
    DelayProxy(int targetPort, Duration oneWay) throws IOException {
        this.listener = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
        this.oneWayNanos = oneWay.toNanos();
        Thread.ofPlatform().daemon().name("delay-proxy-accept").start(this::accept);
    }

    int port() {
        return listener.getLocalPort();
    }

    /** @return how many connections it accepted so far */
    int connections() {
        return connections.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                connections.incrementAndGet();
                Socket server = new Socket();
                sockets.add(client);
                sockets.add(server);
                server.connect(target, 5_000);
                client.setTcpNoDelay(true);
                server.setTcpNoDelay(true);
                forward(client, server, oneWayNanos + 2 * oneWayNanos);
                forward(server, client, oneWayNanos);
            } catch (IOException x) {
                // The listener closed, or the target refused: the client sees its socket close.
            }
        }
    }

    /** Moves what {@code from} sends to {@code to}, each piece {@code oneWayNanos} late, the first {@code firstNanos} late. */
    private void forward(Socket from, Socket to, long firstNanos) {
        BlockingQueue<Piece> queue = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().name("delay-proxy-read").start(() -> read(from, to, queue, firstNanos));
        Thread.ofPlatform().daemon().name("delay-proxy-write").start(() -> write(from, to, queue));
    }

    private void read(Socket from, Socket to, BlockingQueue<Piece> queue, long firstNanos) {
        byte[] buffer = new byte[64 * 1024];
        long lastDue = 0;
        long delay = firstNanos;
        try (InputStream in = from.getInputStream()) {
            int read;
            while ((read = in.read(buffer)) >= 0) {
                // Never before what was read earlier: the order of bytes is kept.
                lastDue = Math.max(lastDue, System.nanoTime() + delay);
                delay = oneWayNanos;
                queue.add(new Piece(Arrays.copyOf(buffer, read), lastDue));
            }
            queue.add(new Piece(END, Math.max(lastDue, System.nanoTime() + oneWayNanos)));
        } catch (IOException x) {
            close(from, to);
        }
    }

    private void write(Socket from, Socket to, BlockingQueue<Piece> queue) {
        try {
            OutputStream out = to.getOutputStream();
            while (true) {
                Piece piece = queue.take();
                long wait;
                while ((wait = piece.due() - System.nanoTime()) > 0) {
                    LockSupport.parkNanos(wait);
                }
                if (piece.bytes() == END) {
                    to.shutdownOutput();
                    return;
                }
                out.write(piece.bytes());
                out.flush();
            }
        } catch (IOException x) {
            close(from, to);
        } catch (InterruptedException x) {
            Thread.currentThread().interrupt();
        }
    }

    private void close(Socket one, Socket other) {
        closeQuietly(one);
        closeQuietly(other);
    }

    private void closeQuietly(Socket socket) {
        sockets.remove(socket);
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing anyway
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }
}
