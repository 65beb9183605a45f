package io.wharf.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
import org.openjdk.jmh.infra.Blackhole;

import io.wharf.util.Index;

/**
 * Looks up every header of one realistic browser request block, held in a heap or direct
 * {@link ByteBuffer}: (a) {@link #headerNames} finds each name among ~34 common header
 * names, case-insensitively; (b) {@link #headerLines} finds each whole line among ~22
 * common header lines. One operation is the whole block of {@value #LINES} lines, so
 * ns/op divided by {@value #LINES} is the cost of one lookup.
 *
 * <ul>
 * <li>{@code wharf}: Wharf's {@link Index} straight from the buffer — {@code get} over the
 *     name's bytes, {@code getBest} from the line's start to the end of the buffer (a hit
 *     counts when the longest matching key is the whole line).</li>
 * <li>{@code jetty}: Jetty 12.1's {@code org.eclipse.jetty.util.Index}, the same calls.</li>
 * <li>{@code string}: the usual way — a {@code String} made from the bytes (copied out of a
 *     direct buffer first), lower-cased for names, then {@code HashMap.get}.</li>
 * </ul>
 *
 * <p>The line bounds (where each name and line ends) are found once in setup: both
 * approaches need them for names, and only the {@code string} approach needs the line end
 * to look a line up, so the benchmark measures the lookups alone.
 *
 * <p>Reproduce, with allocation per operation ({@code gc.alloc.rate.norm}, B/op, which is 0
 * for {@code wharf}):
 * <pre>
 * mvn -B -q -ntp -Pbench -pl wharf-bench -am package -DskipTests
 * java -jar wharf-bench/target/wharf-bench.jar IndexBenchmark -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@Fork(1)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class IndexBenchmark {

    static final int LINES = 17;

    /** A Chrome navigation; the request line comes first and is skipped. */
    static final String REQUEST = """
        GET /docs/index.html?lang=en HTTP/1.1\r
        Host: www.example.com\r
        Connection: keep-alive\r
        Cache-Control: max-age=0\r
        sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"\r
        sec-ch-ua-mobile: ?0\r
        sec-ch-ua-platform: "Linux"\r
        Upgrade-Insecure-Requests: 1\r
        User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36\r
        Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8\r
        Sec-Fetch-Site: none\r
        Sec-Fetch-Mode: navigate\r
        Sec-Fetch-User: ?1\r
        Sec-Fetch-Dest: document\r
        Accept-Encoding: gzip, deflate, br, zstd\r
        Accept-Language: en-US,en;q=0.9\r
        Cookie: session=7f3a9c1e5b; theme=dark; consent=yes\r
        If-None-Match: "5e1f-61a2b3c4d5e6f"\r
        \r
        """;

    static final String[] NAMES = {
        "Accept", "Accept-Charset", "Accept-Encoding", "Accept-Language", "Authorization", "Cache-Control",
        "Connection", "Content-Length", "Content-Type", "Cookie", "Date", "DNT", "Expect", "Forwarded", "Host",
        "If-Modified-Since", "If-None-Match", "Keep-Alive", "Origin", "Pragma", "Range", "Referer",
        "Sec-Fetch-Dest", "Sec-Fetch-Mode", "Sec-Fetch-Site", "Sec-Fetch-User", "sec-ch-ua", "sec-ch-ua-mobile",
        "sec-ch-ua-platform", "TE", "Transfer-Encoding", "Upgrade", "Upgrade-Insecure-Requests", "User-Agent",
    };

    static final String[] FIELD_LINES = {
        "Connection: keep-alive", "Connection: close", "Connection: Upgrade", "Cache-Control: max-age=0",
        "Cache-Control: no-cache", "Pragma: no-cache", "Upgrade-Insecure-Requests: 1", "Accept: */*",
        "Accept: text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8",
        "Accept-Encoding: gzip", "Accept-Encoding: gzip, deflate", "Accept-Encoding: gzip, deflate, br",
        "Accept-Encoding: gzip, deflate, br, zstd", "Accept-Language: en-US,en;q=0.9", "Sec-Fetch-Site: none",
        "Sec-Fetch-Mode: navigate", "Sec-Fetch-User: ?1", "Sec-Fetch-Dest: document", "sec-ch-ua-mobile: ?0",
        "sec-ch-ua-platform: \"Linux\"", "Transfer-Encoding: chunked", "Expect: 100-continue",
    };

    /** What a lookup finds: a known name or line, and the length of its key. */
    record Known(String key, int length) {
        Known(String key) {
            this(key, key.length());
        }
    }

    /** One way to look names and lines up; one implementation per fork, so calls stay monomorphic. */
    interface Lookup {
        Known name(ByteBuffer buffer, int start, int length);

        Known line(ByteBuffer buffer, int start, int length);
    }

    @Param({"wharf", "jetty", "string"})
    public String implementation;

    @Param({"heap", "direct"})
    public String buffer;

    private ByteBuffer block;
    private int[] starts;
    private int[] nameLengths;
    private int[] lineLengths;
    private Lookup lookup;

    @Setup
    public void setUp() {
        byte[] bytes = REQUEST.getBytes(StandardCharsets.ISO_8859_1);
        // The buffer's position stays 0: Jetty's getBest takes offsets from the position,
        // Wharf's and Jetty's get take absolute ones, and at position 0 they agree.
        block = switch (buffer) {
            case "heap" -> ByteBuffer.wrap(bytes);
            case "direct" -> ByteBuffer.allocateDirect(bytes.length).put(bytes).flip();
            default -> throw new IllegalArgumentException("buffer " + buffer);
        };
        findLines(bytes);
        lookup = switch (implementation) {
            case "wharf" -> new WharfLookup();
            case "jetty" -> new JettyLookup();
            case "string" -> new StringLookup();
            default -> throw new IllegalArgumentException("implementation " + implementation);
        };
        check();
    }

    private void findLines(byte[] bytes) {
        List<int[]> lines = new ArrayList<>();
        int start = REQUEST.indexOf("\r\n") + 2;
        while (bytes[start] != '\r') {
            int end = REQUEST.indexOf("\r\n", start);
            lines.add(new int[] {start, REQUEST.indexOf(':', start) - start, end - start});
            start = end + 2;
        }
        if (lines.size() != LINES) {
            throw new IllegalStateException(lines.size() + " lines, not " + LINES);
        }
        starts = lines.stream().mapToInt(line -> line[0]).toArray();
        nameLengths = lines.stream().mapToInt(line -> line[1]).toArray();
        lineLengths = lines.stream().mapToInt(line -> line[2]).toArray();
    }

    /** Every implementation must find the same names and lines, or the comparison means nothing. */
    private void check() {
        int names = 0;
        int lines = 0;
        for (int i = 0; i < LINES; i++) {
            names += lookup.name(block, starts[i], nameLengths[i]) != null ? 1 : 0;
            lines += lookup.line(block, starts[i], lineLengths[i]) != null ? 1 : 0;
        }
        if (names != LINES || lines != 12) {
            throw new IllegalStateException(implementation + " found " + names + " names and " + lines + " lines");
        }
    }

    @Benchmark
    public void headerNames(Blackhole blackhole) {
        for (int i = 0; i < LINES; i++) {
            blackhole.consume(lookup.name(block, starts[i], nameLengths[i]));
        }
    }

    @Benchmark
    public void headerLines(Blackhole blackhole) {
        for (int i = 0; i < LINES; i++) {
            blackhole.consume(lookup.line(block, starts[i], lineLengths[i]));
        }
    }

    private static final class WharfLookup implements Lookup {
        private final Index<Known> names;
        private final Index<Known> lines;

        WharfLookup() {
            names = Index.<Known>builder().withAll(known(NAMES), Known::key).build();
            lines = Index.<Known>builder().withAll(known(FIELD_LINES), Known::key).build();
        }

        @Override
        public Known name(ByteBuffer buffer, int start, int length) {
            return names.get(buffer, start, length);
        }

        @Override
        public Known line(ByteBuffer buffer, int start, int length) {
            Known best = lines.getBest(buffer, start, buffer.limit() - start);
            return best != null && best.length() == length ? best : null;
        }
    }

    private static final class JettyLookup implements Lookup {
        private final org.eclipse.jetty.util.Index<Known> names;
        private final org.eclipse.jetty.util.Index<Known> lines;

        JettyLookup() {
            names = new org.eclipse.jetty.util.Index.Builder<Known>().caseSensitive(false)
                .withAll(known(NAMES), Known::key).build();
            lines = new org.eclipse.jetty.util.Index.Builder<Known>().caseSensitive(false)
                .withAll(known(FIELD_LINES), Known::key).build();
        }

        @Override
        public Known name(ByteBuffer buffer, int start, int length) {
            return names.get(buffer, start, length);
        }

        @Override
        public Known line(ByteBuffer buffer, int start, int length) {
            Known best = lines.getBest(buffer, start, buffer.limit() - start);
            return best != null && best.length() == length ? best : null;
        }
    }

    private static final class StringLookup implements Lookup {
        private final Map<String, Known> names = new HashMap<>();
        private final Map<String, Known> lines = new HashMap<>();
        private final byte[] scratch = new byte[8192];

        StringLookup() {
            for (Known name : known(NAMES)) {
                names.put(name.key().toLowerCase(Locale.ROOT), name);
            }
            for (Known line : known(FIELD_LINES)) {
                lines.put(line.key(), line);
            }
        }

        @Override
        public Known name(ByteBuffer buffer, int start, int length) {
            return names.get(string(buffer, start, length).toLowerCase(Locale.ROOT));
        }

        @Override
        public Known line(ByteBuffer buffer, int start, int length) {
            return lines.get(string(buffer, start, length));
        }

        private String string(ByteBuffer buffer, int start, int length) {
            if (buffer.hasArray()) {
                return new String(buffer.array(), buffer.arrayOffset() + start, length, StandardCharsets.ISO_8859_1);
            }
            buffer.get(start, scratch, 0, length);
            return new String(scratch, 0, length, StandardCharsets.ISO_8859_1);
        }
    }

    private static Known[] known(String[] keys) {
        Known[] known = new Known[keys.length];
        for (int i = 0; i < keys.length; i++) {
            known[i] = new Known(keys[i]);
        }
        return known;
    }
}
