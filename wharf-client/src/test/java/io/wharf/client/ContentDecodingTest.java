package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.zip.GZIPOutputStream;

import io.wharf.http.HttpHeader;
import io.wharf.http.compression.DecoderLimits;
import io.wharf.io.Content;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.server.handler.gzip.GzipHandler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * gzip responses inflated for the listeners: from Wharf's GzipHandler, streamed with demand
 * (also demanded late from another thread), bombs and corrupt or truncated content refused
 * with a clear failure and no leaked buffer, and what is left alone.
 */
@Timeout(60)
class ContentDecodingTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** The Accept-Encoding of each request the server got ("-" for none). */
    private final List<String> acceptEncodings = new CopyOnWriteArrayList<>();
    /** Path to raw gzip bytes served as they are, with Content-Encoding: gzip. */
    private final Map<String, byte[]> raw = new ConcurrentHashMap<>();
    private final ExecutorService demanders = Executors.newSingleThreadExecutor();
    private TestServer server;
    private HttpClient client;

    @AfterEach
    void stopDemanders() {
        demanders.shutdownNow();
    }

    /** A text of {@code size} bytes that compresses well but not absurdly: numbered lines. */
    private static byte[] text(int size) {
        StringBuilder text = new StringBuilder(size + 64);
        for (int line = 0; text.length() < size; line++) {
            text.append("line ").append(line).append(": the quick brown fox jumps over the lazy dog\n");
        }
        return Arrays.copyOf(text.toString().getBytes(StandardCharsets.US_ASCII), size);
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(out, 64 * 1024)) {
            gzip.write(bytes);
        }
        return out.toByteArray();
    }

    /** /text/N: N bytes of text through Wharf's GzipHandler; /raw/...: the raw gzip bytes as they are. */
    private void start(java.util.function.Consumer<HttpClient> setup) throws Exception {
        Handler child = Handler.of((request, response, callback) -> {
            String accept = request.getHeaders().get(HttpHeader.ACCEPT_ENCODING);
            acceptEncodings.add(accept == null ? "-" : accept);
            String path = request.getHttpURI().getPath();
            byte[] bytes = raw.get(path);
            if (bytes != null) {
                response.getHeaders().put(HttpHeader.CONTENT_ENCODING, path.endsWith("-br") ? "br" : "gzip");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, bytes.length);
                response.write(true, ByteBuffer.wrap(bytes), callback);
                return true;
            }
            int size = Integer.parseInt(path.substring(path.lastIndexOf('/') + 1));
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain;charset=us-ascii");
            try (var out = Response.asOutputStream(response)) {
                out.write(text(size));
            }
            callback.succeeded();
            return true;
        });
        GzipHandler gzip = new GzipHandler(child);
        server = loopback.server(gzip);
        client = loopback.client(setup);
    }

    private void start() throws Exception {
        start(configured -> {
        });
    }

    @Test
    void gzipFromWharfsGzipHandlerIsInflated() throws Exception {
        start();
        ContentResponse response = client.GET(server.uri("/text/100000"));
        assertEquals(200, response.getStatus());
        assertArrayEquals(text(100_000), response.getContent());
        assertNull(response.getHeaders().get(HttpHeader.CONTENT_ENCODING), "the listeners see the decoded content");
        assertNull(response.getHeaders().get(HttpHeader.CONTENT_LENGTH));
        assertEquals("Accept-Encoding", response.getHeaders().get(HttpHeader.VARY), "the server did compress");
        assertEquals(List.of("gzip"), acceptEncodings);
    }

    @Test
    void withDecodingOffTheBytesComeAsSent() throws Exception {
        start(configured -> configured.setContentDecoding(false));
        ContentResponse plain = client.GET(server.uri("/text/5000"));
        assertArrayEquals(text(5000), plain.getContent(), "nothing asked for gzip");
        ContentResponse compressed = client.newRequest(server.uri("/text/5000")).header("Accept-Encoding", "gzip").send();
        assertEquals("gzip", compressed.getHeaders().get(HttpHeader.CONTENT_ENCODING));
        assertTrue(compressed.getContent().length < 5000);
        assertEquals(List.of("-", "gzip"), acceptEncodings);
    }

    @Test
    void theApplicationsAcceptEncodingIsKept() throws Exception {
        start();
        assertArrayEquals(text(5000), client.newRequest(server.uri("/text/5000")).header("Accept-Encoding", "identity")
                .send().getContent());
        assertEquals(List.of("identity"), acceptEncodings);
    }

    @Test
    void largeContentIsInflatedWithDemandAlsoWhenDemandComesLateFromAnotherThread() throws Exception {
        start();
        int size = 8 * 1024 * 1024;
        byte[] expected = MessageDigest.getInstance("SHA-256").digest(text(size));

        InputStreamResponseListener listener = new InputStreamResponseListener();
        client.newRequest(server.uri("/text/" + size)).send(listener);
        assertEquals(200, listener.get(10, TimeUnit.SECONDS).getStatus());
        MessageDigest streamed = MessageDigest.getInstance("SHA-256");
        try (InputStream in = listener.getInputStream()) {
            byte[] buffer = new byte[8192];
            for (int read; (read = in.read(buffer)) >= 0; ) {
                streamed.update(buffer, 0, read);
            }
        }
        assertArrayEquals(expected, streamed.digest());

        MessageDigest late = MessageDigest.getInstance("SHA-256");
        CompletableFuture<Result> done = new CompletableFuture<>();
        int[] pieces = new int[1];
        client.newRequest(server.uri("/text/" + size)).send(new io.wharf.client.Response.Listener() {
            @Override
            public void onContent(io.wharf.client.Response response, Content.Chunk chunk, Runnable demand) {
                pieces[0]++;
                assertTrue(chunk.remaining() <= client.getResponseBufferSize());
                late.update(chunk.getByteBuffer().duplicate());
                demanders.execute(demand);
            }

            @Override
            public void onComplete(Result result) {
                done.complete(result);
            }
        });
        assertTrue(done.get(30, TimeUnit.SECONDS).isSucceeded());
        assertArrayEquals(expected, late.digest());
        assertTrue(pieces[0] >= size / client.getResponseBufferSize(), "one pooled buffer per piece: " + pieces[0]);
    }

    /** Reads a response through, counting and dropping its content. */
    private static final class Drain implements io.wharf.client.Response.Listener {
        final CompletableFuture<Result> result = new CompletableFuture<>();
        long bytes;

        @Override
        public void onContent(io.wharf.client.Response response, Content.Chunk chunk, Runnable demand) {
            bytes += chunk.remaining();
            demand.run();
        }

        @Override
        public void onComplete(Result done) {
            result.complete(done);
        }
    }

    private Drain drain(String path) throws Exception {
        Drain drain = new Drain();
        client.newRequest(server.uri(path)).send(drain);
        drain.result.get(30, TimeUnit.SECONDS);
        return drain;
    }

    @Test
    void aZipBombIsRefusedByItsRatio() throws Exception {
        start();
        byte[] bomb = gzip(new byte[64 * 1024 * 1024]);
        raw.put("/raw/bomb", bomb);
        Drain drain = drain("/raw/bomb");
        Result result = drain.result.get();
        IOException failure = assertInstanceOf(IOException.class, result.getFailure());
        assertEquals("gzip content of the response to GET " + server.uri("/raw/bomb") + " HTTP/1.1 refused: inflated content"
                + " more than 200 times larger than its gzip form (the limit is 1073741824 bytes or the ratio of"
                + " HttpClient.setResponseDecoderLimits)", failure.getMessage());
        assertTrue(drain.bytes <= 17 * 1024 * 1024, "stopped soon after the 16 MiB grace: " + drain.bytes);
        assertEquals(0, client.getDestinations().get(0).getConnectionCount(), "the connection is closed");
    }

    @Test
    void aSizeLimitRefusesLargerContent() throws Exception {
        start(configured -> configured.setResponseDecoderLimits(HttpClient.DEFAULT_RESPONSE_DECODER_LIMITS
                .withMaxInflatedBytes(1024 * 1024)));
        Drain small = drain("/text/1048576");
        assertTrue(small.result.get().isSucceeded(), () -> String.valueOf(small.result.join().getFailure()));
        assertEquals(1024 * 1024, small.bytes);
        Drain large = drain("/text/1048577");
        assertTrue(large.result.get().getFailure().getMessage().contains("refused: inflated content larger than 1048576 bytes"),
                large.result.get().getFailure().getMessage());
    }

    @Test
    void corruptOrTruncatedContentFailsTheResponse() throws Exception {
        start();
        byte[] valid = gzip(text(50_000));
        raw.put("/raw/corrupt", "this is not gzip at all".getBytes(StandardCharsets.US_ASCII));
        raw.put("/raw/truncated", Arrays.copyOf(valid, valid.length - 6));
        byte[] flipped = valid.clone();
        flipped[flipped.length - 7] ^= 0x55;
        raw.put("/raw/badcrc", flipped);
        for (String path : List.of("/raw/corrupt", "/raw/truncated", "/raw/badcrc")) {
            ExecutionException failure = assertThrows(ExecutionException.class, () -> client.GET(server.uri(path)));
            String message = failure.getCause().getMessage();
            assertTrue(message.startsWith("bad gzip content in the response to GET " + server.uri(path) + " HTTP/1.1: "), message);
        }
        assertEquals(text(100).length, client.GET(server.uri("/text/100")).getContent().length, "the client goes on");
    }

    @Test
    void contentWithoutBytesOtherCodingsAndHeadsAreLeftAlone() throws Exception {
        start();
        raw.put("/raw/empty", new byte[0]);
        ContentResponse empty = client.GET(server.uri("/raw/empty"));
        assertEquals(0, empty.getContent().length);

        byte[] brotli = {0x0b, 0x02, (byte) 0x80, 'h', 'i', 0x03};
        raw.put("/raw/text-br", brotli);
        ContentResponse other = client.GET(server.uri("/raw/text-br"));
        assertEquals("br", other.getHeaders().get(HttpHeader.CONTENT_ENCODING));
        assertArrayEquals(brotli, other.getContent());

        raw.put("/raw/head", gzip(text(1000)));
        ContentResponse head = client.newRequest(server.uri("/raw/head")).method("HEAD").send();
        assertEquals("gzip", head.getHeaders().get(HttpHeader.CONTENT_ENCODING), "a HEAD has nothing to inflate");
        assertFalse(head.getHeaders().get(HttpHeader.CONTENT_LENGTH).isEmpty());
    }
}
