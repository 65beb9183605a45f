package io.wharf.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import io.wharf.http.BadMessageException;
import io.wharf.http.ComplianceViolation;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpField;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpVersion;

/**
 * Parses one typical browser request — a request line and the six fields a browser sends on
 * every navigation (Host, a Chrome User-Agent, Accept, Accept-Encoding, Accept-Language,
 * Connection) — again and again from the same buffer, resetting the parser between requests,
 * as a keep-alive connection does. One operation is one whole request.
 *
 * <ul>
 * <li>{@code wharf}: {@link HttpParser} with {@link HttpCompliance#RFC9112} and its default
 *     limits (a 1,024-node per-connection field cache).</li>
 * <li>{@code jetty}: Jetty 12.1's {@code org.eclipse.jetty.http.HttpParser}, its default
 *     compliance, with the header cache size Jetty's server connection sets by default (1,024).</li>
 * </ul>
 *
 * Both listeners do the same little work: count the fields and keep the last target, and stop
 * the parse when the message is complete, as a server does. The request is parsed once in setup
 * and checked (method, target, six fields), so a parser that skipped work would fail.
 *
 * <pre>
 * ./wharf bench HttpParserBenchmark -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class HttpParserBenchmark {

    static final String REQUEST = """
        GET /index.html HTTP/1.1\r
        Host: www.example.com\r
        User-Agent: Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36\r
        Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8\r
        Accept-Encoding: gzip, deflate, br, zstd\r
        Accept-Language: en-US,en;q=0.9\r
        Connection: keep-alive\r
        \r
        """;

    static final int FIELDS = 6;

    @Param({"heap", "direct"})
    public String buffer;

    private ByteBuffer request;
    private WharfListener wharfListener;
    private HttpParser wharfParser;
    private JettyHandler jettyHandler;
    private org.eclipse.jetty.http.HttpParser jettyParser;

    @Setup
    public void setUp() {
        byte[] bytes = REQUEST.getBytes(StandardCharsets.US_ASCII);
        request = buffer.equals("direct") ? ByteBuffer.allocateDirect(bytes.length) : ByteBuffer.allocate(bytes.length);
        request.put(bytes).flip();
        wharfListener = new WharfListener();
        wharfParser = new HttpParser(wharfListener, HttpParser.Limits.DEFAULT, HttpCompliance.RFC9112, ComplianceViolation.Listener.NONE);
        jettyHandler = new JettyHandler();
        jettyParser = new org.eclipse.jetty.http.HttpParser(jettyHandler);
        jettyParser.setHeaderCacheSize(1024);
        for (int i = 0; i < 3; i++) {
            check("wharf", wharf(), wharfListener.target, wharfListener.completed);
            check("jetty", jetty(), jettyHandler.target, jettyHandler.completed);
        }
    }

    private static void check(String parser, int fields, String target, boolean completed) {
        if (fields != FIELDS || !"/index.html".equals(target) || !completed) {
            throw new IllegalStateException(parser + " parsed " + fields + " fields, target " + target + ", complete " + completed);
        }
    }

    @Benchmark
    public int wharf() {
        wharfListener.fields = 0;
        wharfListener.completed = false;
        request.position(0);
        wharfParser.parseNext(request);
        wharfParser.reset();
        return wharfListener.fields;
    }

    @Benchmark
    public int jetty() {
        jettyHandler.fields = 0;
        jettyHandler.completed = false;
        request.position(0);
        jettyParser.parseNext(request);
        jettyParser.reset();
        return jettyHandler.fields;
    }

    /** Counts fields, keeps the target, stops at the end of the message. */
    static final class WharfListener implements HttpParserListener.Request {
        int fields;
        String target;
        boolean completed;

        @Override
        public void startRequest(String method, String target, HttpVersion version) {
            this.target = target;
        }

        @Override
        public void parsedHeader(HttpField field) {
            fields++;
        }

        @Override
        public boolean headerComplete() {
            return false;
        }

        @Override
        public boolean content(ByteBuffer content) {
            return false;
        }

        @Override
        public boolean messageComplete() {
            completed = true;
            return true;
        }

        @Override
        public void badMessage(BadMessageException failure) {
            throw failure;
        }

        @Override
        public void earlyEOF() {
            throw new IllegalStateException("early EOF");
        }
    }

    /** The same as {@link WharfListener}, for Jetty's parser. */
    static final class JettyHandler implements org.eclipse.jetty.http.HttpParser.RequestHandler {
        int fields;
        String target;
        boolean completed;

        @Override
        public void startRequest(String method, String target, org.eclipse.jetty.http.HttpVersion version) {
            this.target = target;
        }

        @Override
        public void parsedHeader(org.eclipse.jetty.http.HttpField field) {
            fields++;
        }

        @Override
        public boolean headerComplete() {
            return false;
        }

        @Override
        public boolean content(ByteBuffer content) {
            return false;
        }

        @Override
        public boolean contentComplete() {
            return false;
        }

        @Override
        public boolean messageComplete() {
            completed = true;
            return true;
        }

        @Override
        public void badMessage(org.eclipse.jetty.http.HttpException failure) {
            throw new IllegalStateException("bad message: " + failure);
        }

        @Override
        public void earlyEOF() {
            throw new IllegalStateException("early EOF");
        }
    }
}
