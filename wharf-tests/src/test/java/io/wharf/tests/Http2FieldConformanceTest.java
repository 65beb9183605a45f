package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

import io.wharf.examples.DemoCertificate;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
import io.wharf.tests.RawHttp2Connection.Frame;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Wharf's own HTTP/2 conformance cases for what h2spec does not try: the field rules of
 * RFC 9113 section 8.2 (name and value octets, upper case, connection-specific fields, the
 * pseudo-headers of section 8.3, {@code host} against {@code :authority}) in headers and in
 * trailers, and section 8.1.1's {@code content-length} against the DATA that came. Each case
 * writes its frames raw on a real connection to a running server — h2c by prior knowledge and
 * h2 over TLS by ALPN — and expects RST_STREAM PROTOCOL_ERROR on its stream, then a plain GET
 * on the next stream answered 200 on the same connection. A few well-formed neighbours of the
 * malformed cases expect 200, so that a server refusing too much fails too.
 *
 * <p>Header blocks are written by hand as HPACK literals without indexing and without Huffman
 * coding, so every octet is the case's own (Wharf's encoder would repair them). One server
 * serves every case (making its certificate takes seconds); its buffer pool tracks leaks
 * after each case.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Http2FieldConformanceTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    static Path directory;

    private Server server;
    private ServerConnector h2c;
    private ServerConnector h2;

    @BeforeAll
    void start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        h2c = new ServerConnector(server, new HttpConnectionFactory(), new Http2CleartextConnectionFactory());
        h2 = new ServerConnector(server, new TlsConnectionFactory(DemoCertificate.in(directory.resolve("tls"))),
                new HttpConnectionFactory(), new Http2ConnectionFactory());
        for (ServerConnector connector : List.of(h2c, h2)) {
            connector.setHost("127.0.0.1");
            server.addConnector(connector);
        }
        server.setHandler(Handler.of((request, response, callback) -> {
            String content = Request.getContentAsString(request, StandardCharsets.ISO_8859_1, 1 << 16);
            Response.write(response, true, request.getMethod() + " " + content.length(), callback);
            return true;
        }));
        server.start();
    }

    @AfterAll
    void stop() throws Exception {
        server.stop();
    }

    /** One case: a name for the report, and the frames it writes on its stream. */
    record Case(String name, List<Frame> frames) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> malformed() {
        List<Case> cases = List.of(
                // Section 8.2.1: field names.
                request("name with a space", base().field("x a", "1")),
                request("name with a colon", base().field("x:b", "1")),
                request("name with NUL", base().field("x\0c", "1")),
                request("name with DEL (0x7f)", base().field("x\u007fc", "1")),
                request("name with a non-ASCII octet", base().field("x\u00e9", "1")),
                request("name with a control octet", base().field("x\u0001", "1")),
                request("name with a character that is not a token", base().field("x(y)", "1")),
                request("empty name", base().field("", "1")),
                request("upper-case name", base().field("X-Upper", "1")),
                request("upper-case pseudo-header name", block().field(":method", "GET").field(":scheme", "http")
                        .field(":authority", "localhost").field(":Path", "/")),
                // Section 8.2.1: field values.
                request("value with NUL", base().field("x", "a\0b")),
                request("value with CR LF", base().field("x", "a\r\nInjected: yes")),
                request("value with LF", base().field("x", "a\nb")),
                request("value with CR", base().field("x", "a\rb")),
                request("value with a control octet", base().field("x", "a\u0001b")),
                request("value with DEL (0x7f)", base().field("x", "a\u007fb")),
                request("value with a leading space", base().field("x", " a")),
                request("value with a trailing space", base().field("x", "a ")),
                request("value with a leading tab", base().field("x", "\ta")),
                request("value with a trailing tab", base().field("x", "a\t")),
                request("value of only a space", base().field("x", " ")),
                request("pseudo-header value with CR LF", block().field(":method", "GET").field(":scheme", "http")
                        .field(":authority", "localhost").field(":path", "/\r\nx: y")),
                // Section 8.2.2: connection-specific fields.
                request("connection", base().field("connection", "keep-alive")),
                request("keep-alive", base().field("keep-alive", "timeout=5")),
                request("proxy-connection", base().field("proxy-connection", "keep-alive")),
                request("transfer-encoding", base().field("transfer-encoding", "chunked")),
                request("upgrade", base().field("upgrade", "websocket")),
                request("te other than trailers", base().field("te", "gzip")),
                request("te with trailers and more", base().field("te", "trailers, gzip")),
                // Section 8.3: pseudo-headers.
                request("pseudo-header after a regular field", block().field(":method", "GET").field(":scheme", "http")
                        .field(":authority", "localhost").field("x", "1").field(":path", "/")),
                request("two :method", base().field(":method", "GET")),
                request("two :path", block().field(":method", "GET").field(":scheme", "http")
                        .field(":authority", "localhost").field(":path", "/").field(":path", "/")),
                request("two :scheme", block().field(":method", "GET").field(":scheme", "http").field(":scheme", "http")
                        .field(":authority", "localhost").field(":path", "/")),
                request("two :authority", block().field(":method", "GET").field(":scheme", "http")
                        .field(":authority", "localhost").field(":authority", "localhost").field(":path", "/")),
                request("no :method", block().field(":scheme", "http").field(":authority", "localhost").field(":path", "/")),
                request("no :scheme", block().field(":method", "GET").field(":authority", "localhost").field(":path", "/")),
                request("no :path", block().field(":method", "GET").field(":scheme", "http").field(":authority", "localhost")),
                request("empty :path", block().field(":method", "GET").field(":scheme", "http")
                        .field(":authority", "localhost").field(":path", "")),
                request("unknown pseudo-header", base().field(":foo", "bar")),
                request("response pseudo-header :status in a request", base().field(":status", "200")),
                request("CONNECT with :path", block().field(":method", "CONNECT").field(":authority", "localhost:443")
                        .field(":path", "/")),
                // Section 8.3.1: host against :authority.
                request("host other than :authority", base().field("host", "example.com")),
                // Trailers (section 8.1): the same field rules, and no pseudo-header.
                trailers("trailers with an upper-case name", block().field("X-Sum", "1")),
                trailers("trailers with connection", block().field("connection", "close")),
                trailers("trailers with transfer-encoding", block().field("transfer-encoding", "chunked")),
                trailers("trailers with a space in a name", block().field("x a", "1")),
                trailers("trailers with CR LF in a value", block().field("x", "a\r\nb: c")),
                trailers("trailers with a pseudo-header", block().field(":path", "/")),
                // Section 8.1.1: content-length against the DATA.
                new Case("content-length 5 on HEADERS with END_STREAM",
                        List.of(headers(post().field("content-length", "5"), true))),
                new Case("content-length 10 and 5 DATA octets", List.of(headers(post().field("content-length", "10"), false),
                        data("hello", true))),
                new Case("content-length 3 and 5 DATA octets", List.of(headers(post().field("content-length", "3"), false),
                        data("hello", true))),
                new Case("content-length 10, 5 DATA octets, then trailers", List.of(
                        headers(post().field("content-length", "10"), false), data("hello", false),
                        headers(block().field("x-sum", "1"), true))),
                new Case("content-length 5 on HEADERS, then trailers with no DATA", List.of(
                        headers(post().field("content-length", "5"), false), headers(block().field("x-sum", "1"), true))),
                new Case("two content-length values", List.of(headers(post().field("content-length", "5")
                        .field("content-length", "6"), false), data("hello", true))),
                new Case("content-length not a number", List.of(headers(post().field("content-length", "five"), false),
                        data("hello", true))));
        return transports(cases);
    }

    static Stream<Arguments> wellFormed() {
        List<Case> cases = List.of(
                request("a plain GET", base()),
                request("te: trailers", base().field("te", "trailers")),
                request("host equal to :authority", base().field("host", "localhost")),
                request("a value with inner spaces and tabs", base().field("x", "a b\tc")),
                request("a value with obs-text", base().field("x", "caf\u00e9")),
                request("an empty value", base().field("x", "")),
                request("a name of every token symbol", base().field("!#$%&'*+-.^_`|~09az", "1")),
                new Case("content-length 0 on HEADERS with END_STREAM", List.of(headers(post().field("content-length", "0"), true))),
                new Case("content-length 5 and 5 DATA octets", List.of(headers(post().field("content-length", "5"), false),
                        data("hello", true))),
                new Case("content-length 5, 5 DATA octets, then trailers", List.of(
                        headers(post().field("content-length", "5"), false), data("hello", false),
                        headers(block().field("x-sum", "1"), true))));
        return transports(cases);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("malformed")
    void aMalformedRequestIsResetAndTheConnectionServesTheNext(String transport, Case malformed) throws Exception {
        try (RawHttp2Connection wire = connect(transport)) {
            wire.send(1, malformed.frames());
            assertEquals("RST_STREAM 1 PROTOCOL_ERROR", wire.answer(1), malformed.name() + " over " + transport);
            wire.send(3, List.of(headers(base(), true)));
            assertEquals(":status=200 GET 0", wire.answer(3), "the next stream after " + malformed.name());
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("wellFormed")
    void aWellFormedNeighbourIsAnswered(String transport, Case wellFormed) throws Exception {
        try (RawHttp2Connection wire = connect(transport)) {
            wire.send(1, wellFormed.frames());
            // The handler answers with the method and the length of the content it read.
            String method = wellFormed.frames().get(0).payload().length > 0 && new String(wellFormed.frames().get(0).payload(),
                    StandardCharsets.ISO_8859_1).contains("POST") ? "POST" : "GET";
            int length = wellFormed.frames().stream().filter(frame -> frame.type() == RawHttp2Connection.DATA)
                    .mapToInt(frame -> frame.payload().length).sum();
            assertEquals(":status=200 " + method + " " + length, wire.answer(1), wellFormed.name() + " over " + transport);
        }
    }

    private static Stream<Arguments> transports(List<Case> cases) {
        return Stream.of("h2c", "h2").flatMap(transport -> cases.stream().map(one -> Arguments.of(transport, one)));
    }

    private static Case request(String name, Block block) {
        return new Case(name, List.of(headers(block, true)));
    }

    /** A POST with 5 octets of content, then {@code trailers}. */
    private static Case trailers(String name, Block trailers) {
        return new Case(name, List.of(headers(post(), false), data("hello", false), headers(trailers, true)));
    }

    private static Frame headers(Block block, boolean endStream) {
        return new Frame(RawHttp2Connection.HEADERS, block.bytes(), endStream);
    }

    private static Frame data(String content, boolean endStream) {
        return new Frame(RawHttp2Connection.DATA, content.getBytes(StandardCharsets.ISO_8859_1), endStream);
    }

    private static Block block() {
        return new Block();
    }

    private static Block base() {
        return block().field(":method", "GET").field(":scheme", "http").field(":authority", "localhost").field(":path", "/");
    }

    private static Block post() {
        return block().field(":method", "POST").field(":scheme", "http").field(":authority", "localhost").field(":path", "/");
    }

    /** A header block of HPACK literals without indexing, new names, no Huffman coding (RFC 7541 section 6.2.2). */
    static final class Block {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

        Block field(String name, String value) {
            bytes.write(0x00);
            string(name);
            string(value);
            return this;
        }

        private void string(String text) {
            byte[] octets = text.getBytes(StandardCharsets.ISO_8859_1);
            integer(octets.length, 7);
            bytes.writeBytes(octets);
        }

        private void integer(int value, int prefixBits) {
            int max = (1 << prefixBits) - 1;
            if (value < max) {
                bytes.write(value);
                return;
            }
            bytes.write(max);
            for (value -= max; value >= 0x80; value >>>= 7) {
                bytes.write(value & 0x7F | 0x80);
            }
            bytes.write(value);
        }

        byte[] bytes() {
            return bytes.toByteArray();
        }
    }

    private RawHttp2Connection connect(String transport) throws Exception {
        Socket socket;
        if (transport.equals("h2")) {
            SSLContext context = PemTrust.context(directory.resolve("tls").resolve("demo.pem"));
            SSLSocket tls = (SSLSocket) context.getSocketFactory().createSocket();
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            tls.setSSLParameters(parameters);
            tls.connect(new InetSocketAddress("127.0.0.1", h2.getLocalPort()), 5000);
            tls.setSoTimeout(10_000);
            tls.startHandshake();
            assertEquals("h2", tls.getApplicationProtocol(), "ALPN");
            socket = tls;
        } else {
            socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", h2c.getLocalPort()), 5000);
            socket.setSoTimeout(10_000);
        }
        return new RawHttp2Connection(socket).start();
    }
}
