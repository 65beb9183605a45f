package io.wharf.bench;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.Locale;

/**
 * {@code ./wharf bench echo [ROUNDS]}: a 185-byte message echoed 1,000,000 times on one
 * connection (after 200,000 warm-up echoes), against Wharf's echo server and the same echo
 * on Jetty 12.1's I/O layer, each in its own JVM pinned to CPU 0 while this driver runs on
 * CPU 1. Reports the server's CPU time and bytes allocated per echo, its heap in use after
 * full GCs with the connection still open, and the ratio Wharf/Jetty, for each round (default
 * 2 rounds, alternating). The counts can be changed with
 * {@code -Dwharf.bench.echo.warmup=N} and {@code -Dwharf.bench.echo.count=N} for a quick look.
 */
public final class EchoMacroBenchmark {

    static final int MESSAGE = 185;
    static final int WARMUP = Integer.getInteger("wharf.bench.echo.warmup", 200_000);
    static final int ECHOES = Integer.getInteger("wharf.bench.echo.count", 1_000_000);

    private EchoMacroBenchmark() {
    }

    record Result(String implementation, double cpuMicrosPerEcho, double bytesPerEcho, double heapKiB, double seconds) {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 2;
        ServerChild.pinDriver();
        System.out.println("echo: " + ECHOES + " x " + MESSAGE + " bytes on one connection, JVM " + Runtime.version()
            + ", server options " + ServerChild.JVM_OPTIONS);
        System.out.println("| round | server | server CPU µs/echo | bytes allocated/echo | heap used KiB | wall s |");
        System.out.println("|---|---|---|---|---|---|");
        for (int round = 1; round <= rounds; round++) {
            Result wharf = run("wharf");
            Result jetty = run("jetty");
            print(round, wharf);
            print(round, jetty);
            System.out.printf(Locale.ROOT, "| %d | ratio Wharf/Jetty | %.2f | %.2f | %.2f | %.2f |%n", round,
                wharf.cpuMicrosPerEcho / jetty.cpuMicrosPerEcho, wharf.bytesPerEcho / jetty.bytesPerEcho, wharf.heapKiB / jetty.heapKiB,
                wharf.seconds / jetty.seconds);
        }
    }

    private static void print(int round, Result result) {
        System.out.printf(Locale.ROOT, "| %d | %s | %.2f | %.1f | %.0f | %.1f |%n", round, result.implementation, result.cpuMicrosPerEcho,
            result.bytesPerEcho, result.heapKiB, result.seconds);
    }

    static Result run(String implementation) throws Exception {
        try (ServerChild server = ServerChild.start(implementation);
             SocketChannel channel = SocketChannel.open(new InetSocketAddress(InetAddress.getLoopbackAddress(), server.port()))) {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            ByteBuffer out = ByteBuffer.allocateDirect(MESSAGE);
            ByteBuffer in = ByteBuffer.allocateDirect(MESSAGE);
            for (int i = 0; i < MESSAGE; i++) {
                out.put(i, (byte) i);
            }
            echo(channel, out, in, WARMUP);
            server.command("MARK");
            long start = System.nanoTime();
            echo(channel, out, in, ECHOES);
            double seconds = (System.nanoTime() - start) / 1e9;
            String report = server.command("REPORT");
            double cpu = ServerChild.field(report, "CPU_NS") / 1000.0 / ECHOES;
            double bytes = (double) ServerChild.field(report, "ALLOCATED_BYTES") / ECHOES;
            double heap = ServerChild.field(server.command("HEAP"), "HEAP_USED") / 1024.0;
            return new Result(implementation, cpu, bytes, heap, seconds);
        }
    }

    private static void echo(SocketChannel channel, ByteBuffer out, ByteBuffer in, int count) throws Exception {
        for (int n = 0; n < count; n++) {
            out.clear();
            while (out.hasRemaining()) {
                channel.write(out);
            }
            in.clear();
            while (in.hasRemaining()) {
                if (channel.read(in) < 0) {
                    throw new IllegalStateException("server closed after " + n + " echoes");
                }
            }
            if (in.get(MESSAGE - 1) != (byte) (MESSAGE - 1)) {
                throw new IllegalStateException("wrong echo at " + n);
            }
        }
    }
}
