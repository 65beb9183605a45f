package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

import io.wharf.examples.DemoCertificate;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.server.Handler;
import io.wharf.server.HttpConnectionFactory;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http2.Http2CleartextConnectionFactory;
import io.wharf.server.http2.Http2ConnectionFactory;
import io.wharf.server.tls.TlsConnectionFactory;
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

    private static final int PROTOCOL_ERROR = 0x1;
    private static final int DATA = 0x0;
    private static final int HEADERS = 0x1;
    private static final int RST_STREAM = 0x3;
    private static final int SETTINGS = 0x4;
    private static final int GOAWAY = 0x7;
    private static final int END_STREAM = 0x1;
    private static final int END_HEADERS = 0x4;

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

    /** A frame of a case: HEADERS (a header block) or DATA. */
    record Frame(int type, byte[] payload, boolean endStream) {
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
        try (Wire wire = connect(transport)) {
            wire.send(1, malformed.frames());
            assertEquals("RST_STREAM 1 PROTOCOL_ERROR", wire.answer(1), malformed.name() + " over " + transport);
            wire.send(3, List.of(headers(base(), true)));
            assertEquals(":status=200 GET 0", wire.answer(3), "the next stream after " + malformed.name());
        }
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("wellFormed")
    void aWellFormedNeighbourIsAnswered(String transport, Case wellFormed) throws Exception {
        try (Wire wire = connect(transport)) {
            wire.send(1, wellFormed.frames());
            // The handler answers with the method and the length of the content it read.
            String method = wellFormed.frames().get(0).payload().length > 0 && new String(wellFormed.frames().get(0).payload(),
                    StandardCharsets.ISO_8859_1).contains("POST") ? "POST" : "GET";
            int length = wellFormed.frames().stream().filter(frame -> frame.type() == DATA).mapToInt(frame -> frame.payload().length).sum();
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
        return new Frame(HEADERS, block.bytes(), endStream);
    }

    private static Frame data(String content, boolean endStream) {
        return new Frame(DATA, content.getBytes(StandardCharsets.ISO_8859_1), endStream);
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

    private Wire connect(String transport) throws Exception {
        Socket socket;
        if (transport.equals("h2")) {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustingManager()}, null);
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
        return new Wire(socket).start();
    }

    /**
     * One connection, written and read by the test thread: frames out raw, frames in whole,
     * the server's header blocks decoded (its HPACK table kept in step).
     */
    private static final class Wire implements AutoCloseable {
        private final Socket socket;
        private final OutputStream output;
        private final DataInputStream input;
        private final HpackDecoder decoder = new HpackDecoder();
        private final List<String> seen = new ArrayList<>();

        Wire(Socket socket) throws IOException {
            this.socket = socket;
            this.output = socket.getOutputStream();
            this.input = new DataInputStream(socket.getInputStream());
        }

        /** Writes the preface and empty SETTINGS, and acknowledges the server's SETTINGS. */
        Wire start() throws IOException {
            output.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            write(SETTINGS, 0, 0, new byte[0]);
            while (true) {
                byte[] header = readHeader();
                byte[] payload = input.readNBytes(length(header));
                if (header[3] == SETTINGS && (header[4] & 0x1) == 0) {
                    write(SETTINGS, 0x1, 0, new byte[0]);
                    output.flush();
                    return this;
                }
                seen.add("frame of type " + header[3] + " (" + payload.length + " octets)");
            }
        }

        void send(int streamId, List<Frame> frames) throws IOException {
            for (int i = 0; i < frames.size(); i++) {
                Frame frame = frames.get(i);
                int flags = (frame.endStream() ? END_STREAM : 0) | (frame.type() == HEADERS ? END_HEADERS : 0);
                write(frame.type(), flags, streamId, frame.payload());
            }
            output.flush();
        }

        /**
         * @return how the server answered {@code streamId}: {@code RST_STREAM <id> <code>}, or
         *     {@code :status=<status> <content>} once its END_STREAM came; a GOAWAY or the end of
         *     the connection fails the case
         */
        String answer(int streamId) throws IOException {
            String status = null;
            StringBuilder content = new StringBuilder();
            while (true) {
                byte[] header;
                try {
                    header = readHeader();
                } catch (EOFException | SocketTimeoutException x) {
                    throw new AssertionError("no answer on stream " + streamId + " (" + x + "); frames so far: " + seen, x);
                }
                byte[] payload = input.readNBytes(length(header));
                int type = header[3];
                int flags = header[4] & 0xFF;
                int stream = ByteBuffer.wrap(header, 5, 4).getInt() & 0x7FFF_FFFF;
                String frame = "type " + type + " on stream " + stream;
                if (type == HEADERS) {
                    HeaderBlock block = decoder.decode(ByteBuffer.wrap(payload));
                    frame = "HEADERS " + stream + " " + block.pseudoHeaders() + " " + block.fields();
                    if (stream == streamId && status == null) {
                        status = block.pseudoHeader(":status");
                    }
                } else if (type == DATA && stream == streamId) {
                    content.append(new String(payload, StandardCharsets.ISO_8859_1));
                    frame = "DATA " + stream + " " + content;
                } else if (type == RST_STREAM) {
                    frame = "RST_STREAM " + stream + " " + (ByteBuffer.wrap(payload).getInt() == PROTOCOL_ERROR
                            ? "PROTOCOL_ERROR" : "code " + ByteBuffer.wrap(payload).getInt());
                } else if (type == GOAWAY) {
                    frame = "GOAWAY " + new String(payload, 8, payload.length - 8, StandardCharsets.UTF_8);
                }
                seen.add(frame);
                if (type == GOAWAY) {
                    throw new AssertionError("the server ended the connection; frames: " + seen);
                }
                if (stream != streamId) {
                    continue;
                }
                if (type == RST_STREAM) {
                    return frame;
                }
                if ((type == HEADERS || type == DATA) && (flags & END_STREAM) != 0) {
                    return ":status=" + status + " " + content;
                }
            }
        }

        private byte[] readHeader() throws IOException {
            byte[] header = new byte[9];
            input.readFully(header);
            return header;
        }

        private static int length(byte[] header) {
            return (header[0] & 0xFF) << 16 | (header[1] & 0xFF) << 8 | header[2] & 0xFF;
        }

        private void write(int type, int flags, int streamId, byte[] payload) throws IOException {
            ByteBuffer header = ByteBuffer.allocate(9);
            header.put((byte) (payload.length >>> 16)).put((byte) (payload.length >>> 8)).put((byte) payload.length)
                    .put((byte) type).put((byte) flags).putInt(streamId);
            output.write(header.array());
            output.write(payload);
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    /** Trusts the demo's self-signed certificate: a test on loopback only. */
    private static final class TrustingManager implements X509TrustManager {
        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
