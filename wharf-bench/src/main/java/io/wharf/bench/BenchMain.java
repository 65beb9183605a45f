package io.wharf.bench;

import java.util.Arrays;
import java.util.Map;

/**
 * Entry point of {@code ./wharf bench NAME [options]}: NAME is a macro run (below) or else a
 * JMH include pattern, with any further arguments passed to JMH (for example
 * {@code ./wharf bench PoolBenchmark -p strategy=FIRST -t 8}).
 *
 * <ul>
 *   <li>{@code echo}: {@link EchoMacroBenchmark}, a 185-byte message echoed 1,000,000 times on one
 *       connection, Wharf vs Jetty 12.1's I/O layer: server CPU, bytes allocated per echo and heap used.</li>
 *   <li>{@code idle}: {@link IdleHeapBenchmark}, heap per idle connection at 10,000 idle connections,
 *       Wharf vs Jetty 12.1.</li>
 *   <li>{@code idle-http}: {@link IdleHeapBenchmark#http}, the same with keep-alive HTTP/1.1 connections
 *       to the hello servers, each idle after one {@code GET /plaintext}.</li>
 *   <li>{@code http}: {@link HttpMacroBenchmark}, HTTP/1.1 plaintext, pipelined plaintext and JSON
 *       loaded by wrk, Wharf vs Jetty 12.1 vs nginx: requests/s, server CPU and bytes allocated per request.</li>
 *   <li>{@code pipeline}: {@link PipelineMacroBenchmark}, 1,000,000 pipelined {@code GET /plaintext} on one
 *       connection, Wharf vs Jetty 12.1: wall time, server CPU and bytes allocated per request.</li>
 *   <li>{@code static}: {@link StaticMacroBenchmark}, files of 4 KiB, 64 KiB and 1 MiB loaded by wrk,
 *       Wharf vs Jetty 12.1 vs nginx: requests/s, MB/s, server CPU and bytes allocated per request.</li>
 *   <li>{@code client}: {@link ClientMacroBenchmark}, the HTTP clients (Wharf vs Jetty 12.1 vs the JDK's)
 *       keeping 64 requests in flight against nginx: requests/s, client CPU and bytes allocated per request.</li>
 *   <li>{@code ws-echo}: {@link WebSocketEchoMacroBenchmark}, five-byte WebSocket text messages echoed on 64 and 512
 *       connections with 1 and 16 in flight each, Wharf vs Jetty 12.1: messages/s, server CPU and bytes allocated per message.</li>
 *   <li>{@code ws-chat}: {@link WebSocketChatMacroBenchmark}, the chat room under the load generator's chat scenario (1000 members, 10,000
 *       messages), Wharf's {@code ChatRoom} vs the same protocol on Jetty 12.1: deliveries/s, server CPU per delivery.</li>
 *   <li>{@code ws-idle}: {@link IdleHeapBenchmark#websocket}, heap per idle WebSocket session (10,000 connections, each
 *       idle after its handshake and one echoed message), Wharf vs Jetty 12.1.</li>
 *   <li>{@code h2}: {@link H2MacroBenchmark}, HTTP/2 plaintext over h2c and over TLS loaded by h2load (and HTTP/1.1
 *       by wrk), Wharf vs Jetty 12.1 vs nginx: requests/s, server CPU and bytes allocated per request.</li>
 *   <li>{@code tls-handshakes}: {@link TlsHandshakeBenchmark}, full TLS handshakes (ALPN h2 and http/1.1, one request
 *       each) from JDK clients, Wharf vs Jetty 12.1 vs nginx: handshakes/s and server CPU per handshake.</li>
 *   <li>{@code loadgen-cost}: {@link GeneratorCostBenchmark}, the load generators' own CPU per request at 20,000 requests/s
 *       (HTTP/1.1, h2c, h2) against nginx, Wharf's generator vs k6, wrk and h2load.</li>
 *   <li>{@code latency}: {@link LatencyMacroBenchmark}, corrected p50/p99/p99.9 from Wharf's load generator at 25-90 % of each
 *       server's maximum, Wharf vs Jetty 12.1 vs nginx on the plaintext and JSON paths; then its rate accuracy at 10,000/s.</li>
 *   <li>{@code servlet}: {@link ServletMacroBenchmark}, the servlet containers (Wharf, Jetty 12.1 ee11, Tomcat 11) running one
 *       application under wrk — plaintext, JSON, an asynchronous answer, a 1 MiB upload echoed with non-blocking I/O, static files
 *       through each DefaultServlet — beside Wharf's core handlers, then heap per idle connection with a servlet context.</li>
 *   <li>{@code servlet-idle}: {@link IdleHeapBenchmark#servlet}, that last part alone.</li>
 *   <li>{@code deploy}: {@link DeployMacroBenchmark}, the time from a fresh JVM's start to the first answer of a Spring MVC WAR
 *       with about 60 jars in WEB-INF/lib, annotation scanning on, Wharf (scan cache empty and filled) vs Jetty 12.1 ee11 vs Tomcat 11.</li>
 * </ul>
 */
public final class BenchMain {

    /** A macro run's entry point: its {@code main}, given the arguments after its name. */
    private interface Macro {
        void run(String[] args) throws Exception;
    }

    private static final Map<String, Macro> MACROS = Map.ofEntries(
        Map.entry("echo", EchoMacroBenchmark::main),
        Map.entry("idle", IdleHeapBenchmark::main),
        Map.entry("http", HttpMacroBenchmark::main),
        Map.entry("pipeline", PipelineMacroBenchmark::main),
        Map.entry("idle-http", IdleHeapBenchmark::http),
        Map.entry("static", StaticMacroBenchmark::main),
        Map.entry("client", ClientMacroBenchmark::main),
        Map.entry("ws-echo", WebSocketEchoMacroBenchmark::main),
        Map.entry("ws-chat", WebSocketChatMacroBenchmark::main),
        Map.entry("ws-idle", IdleHeapBenchmark::websocket),
        Map.entry("h2", H2MacroBenchmark::main),
        Map.entry("tls-handshakes", TlsHandshakeBenchmark::main),
        Map.entry("loadgen-cost", GeneratorCostBenchmark::main),
        Map.entry("latency", LatencyMacroBenchmark::main),
        Map.entry("servlet", ServletMacroBenchmark::main),
        Map.entry("servlet-idle", IdleHeapBenchmark::servlet),
        Map.entry("deploy", DeployMacroBenchmark::main));

    private BenchMain() {
    }

    public static void main(String[] args) throws Throwable {
        if (args.length == 0) {
            System.err.println("usage: BenchMain NAME [options]; NAME is one of " + MACROS.keySet() + " or a JMH include pattern");
            System.exit(2);
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        Macro macro = MACROS.get(args[0]);
        if (macro != null) {
            macro.run(rest);
            return;
        }
        org.openjdk.jmh.Main.main(args);
    }
}
