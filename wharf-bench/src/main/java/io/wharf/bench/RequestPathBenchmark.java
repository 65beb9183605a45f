package io.wharf.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import io.wharf.io.MemoryEndPoint;
import io.wharf.server.LocalConnector;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;

/**
 * The Java part of one HTTP/1.1 request through the server, without sockets: the request
 * {@code wrk} sends ({@code GET /plaintext} with a Host field) goes into an in-memory
 * endpoint, the server's HTTP/1.1 connection parses it, the benchmark's hello handler
 * ({@link HelloServers#wharfHandler()}, the one the macro runs measure) answers it, and the
 * response is generated and written back into memory, where the benchmark drains it. The
 * endpoint's wake-ups run on this thread, so one operation is exactly the work of one
 * request on a keep-alive connection: what the {@code http} macro's CPU per request measures
 * besides the kernel. Use it for A/B runs of changes to the request path, which the macro
 * runs cannot tell apart from noise (±2 %).
 *
 * <ul>
 * <li>{@code oneRequestPerRead}: as {@code wrk} without pipelining sends them;</li>
 * <li>{@code pipelined}: 16 requests per read, as {@code wrk} with the pipeline script sends
 *     them; the time is per request.</li>
 * </ul>
 *
 * Setup checks that every request got its 200 with {@code Hello, World!}.
 *
 * <pre>
 * ./wharf bench RequestPathBenchmark -prof gc
 * </pre>
 */
@State(Scope.Thread)
@Fork(1)
@Warmup(iterations = 4, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RequestPathBenchmark {

    private static final String REQUEST = "GET /plaintext HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n";

    private static final int PIPELINED = 16;

    private Server server;
    private InlineConnector connector;
    private MemoryEndPoint client;
    private ByteBuffer one;
    private ByteBuffer sixteen;
    private final ByteBuffer responses = ByteBuffer.allocate(64 * 1024);

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        server = new Server();
        connector = new InlineConnector(server);
        server.addConnector(connector);
        server.setHandler(HelloServers.wharfHandler());
        server.start();
        client = connector.open();
        one = ByteBuffer.wrap(REQUEST.getBytes(StandardCharsets.US_ASCII));
        sixteen = ByteBuffer.wrap(REQUEST.repeat(PIPELINED).getBytes(StandardCharsets.US_ASCII));
        check(one, 1);
        check(sixteen, PIPELINED);
    }

    private void check(ByteBuffer requests, int count) throws IOException {
        String answered = StandardCharsets.US_ASCII.decode(exchange(requests)).toString();
        int ok = answered.split("HTTP/1.1 200 OK\r\n", -1).length - 1;
        int hello = answered.split("Hello, World!", -1).length - 1;
        if (ok != count || hello != count) {
            throw new IllegalStateException("expected " + count + " answers, got " + ok + " heads and " + hello + " bodies: " + answered.substring(0, Math.min(300, answered.length())));
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        client.close();
        connector.runTasks();
        server.stop();
    }

    @Benchmark
    public int oneRequestPerRead() throws IOException {
        return exchange(one).remaining();
    }

    @Benchmark
    @OperationsPerInvocation(PIPELINED)
    public int pipelined() throws IOException {
        return exchange(sixteen).remaining();
    }

    /** Sends {@code requests}, runs the server, @return what it answered */
    private ByteBuffer exchange(ByteBuffer requests) throws IOException {
        if (!client.flush(requests.duplicate())) {
            throw new IllegalStateException("the server's inbound pipe is full");
        }
        connector.runTasks();
        responses.clear().limit(0);
        while (client.fill(responses) > 0) {
            connector.runTasks();
        }
        return responses;
    }

    /** A local connector whose endpoints and connections run their tasks on the benchmark's thread, in {@link #runTasks()}. */
    private static final class InlineConnector extends LocalConnector {
        private final ArrayDeque<Runnable> tasks = new ArrayDeque<>();
        private final Executor queue = tasks::add;

        InlineConnector(Server server) {
            super(server, 256 * 1024, new HttpConnectionFactory());
        }

        @Override
        public Executor getExecutor() {
            return queue;
        }

        /** @return the client end of a new connection whose server end runs an HTTP/1.1 connection */
        MemoryEndPoint open() {
            MemoryEndPoint client = openEndPoint();
            runTasks();
            return client;
        }

        void runTasks() {
            Runnable task;
            while ((task = tasks.poll()) != null) {
                task.run();
            }
        }
    }
}
