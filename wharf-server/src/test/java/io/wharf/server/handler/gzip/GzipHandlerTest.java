package io.wharf.server.handler.gzip;

import static io.wharf.server.handler.GzipServer.crlf;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

import io.wharf.http.BadMessageException;
import io.wharf.http.EntityTag;
import io.wharf.http.HttpDateFormat;
import io.wharf.http.HttpHeader;
import io.wharf.http.Preconditions;
import io.wharf.io.Content;
import io.wharf.server.Handler;
import io.wharf.server.LocalConnector;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.handler.GzipServer;
import io.wharf.server.handler.GzipServer.Reply;
import io.wharf.server.handler.resource.ResourceHandler;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class GzipHandlerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String TEXT = "Wharf compresses text that repeats itself. ".repeat(100);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private GzipServer local;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    private GzipHandler start(Handler child) throws Exception {
        GzipHandler gzip = new GzipHandler(child);
        local = new GzipServer(leaks.pool()).start(gzip);
        return gzip;
    }

    /** Answers {@code content} with {@code type} in one last write. */
    private static Handler answer(String type, byte[] content) {
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, type);
            response.write(true, ByteBuffer.wrap(content), callback);
            return true;
        });
    }

    private static Handler text() {
        return answer("text/plain;charset=utf-8", TEXT.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] gunzip(byte[] bytes) throws IOException {
        try (InputStream input = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
            return input.readAllBytes();
        }
    }

    private static byte[] gzip(byte[] bytes) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gzip = new GZIPOutputStream(out)) {
            gzip.write(bytes);
        }
        return out.toByteArray();
    }

    private Reply get(String path, String... fields) throws Exception {
        StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\nHost: localhost\n");
        for (String field : fields) {
            request.append(field).append('\n');
        }
        return local.get(request.append('\n').toString());
    }

    /** Sends a POST with {@code body} as it is, binary safe, and parses the response. */
    private Reply post(String head, byte[] body) throws Exception {
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf(head) + "\r\n");
            client.send(ByteBuffer.wrap(body));
            return Reply.parse(client.readResponse(WAIT));
        }
    }

    @Test
    void compressesAOneShotTextResponse() throws Exception {
        start(text());
        Reply reply = get("/", "Accept-Encoding: gzip, deflate");
        assertEquals(200, reply.status());
        assertEquals("gzip", reply.field("Content-Encoding"));
        assertEquals("Accept-Encoding", reply.field("Vary"));
        // All of it fit one output buffer: one last write, so the server framed it with a length.
        assertEquals(String.valueOf(reply.content().length), reply.field("Content-Length"));
        assertTrue(reply.content().length < TEXT.length() / 10, "compressed to " + reply.content().length);
        assertEquals(TEXT, new String(gunzip(reply.content()), StandardCharsets.UTF_8));
    }

    @Test
    void compressesManyWritesAsAChunkedStream() throws Exception {
        byte[] noise = new byte[200_000];
        Random random = new Random(42);
        for (int i = 0; i < noise.length; i++) {
            noise[i] = (byte) ('a' + random.nextInt(26));
        }
        start(Handler.of((request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            try (OutputStream out = Response.asOutputStream(response)) {
                for (int at = 0; at < noise.length; at += 1000) {
                    out.write(noise, at, 1000);
                    if (at == 100_000) {
                        out.flush();
                    }
                }
            }
            callback.succeeded();
            return true;
        }));
        Reply reply = get("/stream", "Accept-Encoding: gzip");
        assertEquals(200, reply.status());
        assertEquals("gzip", reply.field("Content-Encoding"));
        assertEquals("chunked", reply.field("Transfer-Encoding"));
        assertNull(reply.field("Content-Length"));
        assertTrue(reply.content().length < noise.length, "compressed to " + reply.content().length);
        assertArrayEquals(noise, gunzip(reply.content()));
    }

    @Test
    void keepsCompressedBytesUntilAnEmptyWriteFlushesThem() throws Exception {
        AtomicReference<String> observed = new AtomicReference<>();
        GzipHandler gzip = new GzipHandler(Handler.of((request, response, callback) -> {
            Response connection = (Response) request.getAttribute("connection response");
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            try (OutputStream out = Response.asOutputStream(response)) {
                out.write(TEXT.getBytes(StandardCharsets.UTF_8));
                out.flush();
                boolean afterContent = connection.isCommitted();
                // An empty non-last write is a flush: a sync flush of the deflater, sent at once.
                CompletableFuture<Void> flushed = new CompletableFuture<>();
                response.write(false, ByteBuffer.allocate(0), Callback.from(flushed));
                flushed.get();
                observed.set(afterContent + " " + connection.isCommitted());
                out.write("the end".getBytes(StandardCharsets.UTF_8));
            }
            callback.succeeded();
            return true;
        }));
        // Shows the child's handler the response underneath the gzip one.
        local = new GzipServer(leaks.pool()).start(new Handler.Wrapper(gzip) {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                request.setAttribute("connection response", response);
                return super.handle(request, response, callback);
            }
        });
        Reply reply = get("/", "Accept-Encoding: gzip");
        assertEquals("false true", observed.get());
        assertEquals(TEXT + "the end", new String(gunzip(reply.content()), StandardCharsets.UTF_8));
    }

    @Test
    void finishesTheStreamWhenTheChildCompletesWithoutALastWrite() throws Exception {
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
            Response.write(response, false, "{\"items\": [1, 2, 3]}", callback);
            return true;
        }));
        Reply reply = get("/", "Accept-Encoding: gzip");
        assertEquals("gzip", reply.field("Content-Encoding"));
        // Unknown length: compressed although shorter than the minimum.
        assertEquals("{\"items\": [1, 2, 3]}", new String(gunzip(reply.content()), StandardCharsets.UTF_8));
    }

    @Test
    void freesTheStreamWhenTheChildThrowsAfterAWrite() throws Exception {
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            // Small enough to stay in the output buffer: nothing reaches the connection.
            Response.write(response, false, "partial", Callback.NOOP);
            assertTrue(response.isCommitted());
            throw new IllegalStateException("child failed after writing");
        }));
        Reply reply = get("/", "Accept-Encoding: gzip");
        assertEquals(500, reply.status());
        assertNull(reply.field("Content-Encoding"));
    }

    @Test
    void freesTheStreamWhenTheChildFailsAfterAWrite() throws Exception {
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            Response.write(response, false, "partial", Callback.from(
                    () -> callback.failed(new IllegalStateException("child gave up")), callback::failed));
            return true;
        }));
        Reply reply = get("/", "Accept-Encoding: gzip");
        assertEquals(500, reply.status());
    }

    @Test
    void acceptsAWildcardAndHonoursARefusal() throws Exception {
        start(text());
        assertEquals("gzip", get("/", "Accept-Encoding: *").field("Content-Encoding"));
        assertEquals("gzip", get("/", "Accept-Encoding: br;q=1, gzip;q=0.5").field("Content-Encoding"));
        for (String refusal : new String[] {"Accept-Encoding: gzip;q=0", "Accept-Encoding: identity, *;q=0", "Accept-Encoding: br"}) {
            Reply reply = get("/", refusal);
            assertNull(reply.field("Content-Encoding"), refusal);
            assertEquals(TEXT, reply.text(), refusal);
            assertEquals("Accept-Encoding", reply.field("Vary"), refusal);
        }
    }

    /** RFC 9110 section 12.5.3: qualities rank gzip against identity; x-gzip is gzip; names have no case. */
    @Test
    void choosesBetweenGzipAndIdentityByQuality() throws Exception {
        start(text());
        record Case(String acceptEncoding, String expected) {
        }
        List<Case> cases = List.of(
                new Case("gzip;q=0.5, identity;q=1", null),
                new Case("identity, gzip;q=0.999", null),
                new Case("gzip;q=0.5", "gzip"),
                new Case("gzip, identity", "gzip"),
                new Case("gzip;q=0", null),
                new Case("GZip;Q=0", null),
                new Case("x-gzip", "gzip"),
                new Case("X-GZIP;q=0.8, identity;q=0.5", "gzip"),
                new Case("x-gzip;q=0.4, identity;q=0.5", null),
                new Case("x-gzip;q=0, *", null),
                new Case("gzip;q=0.3, x-gzip;q=0.9, identity;q=0.5", null),
                new Case("*", "gzip"),
                new Case("*;q=0.5, identity", null),
                new Case("*;q=0", null),
                new Case("identity;q=0, gzip;q=0.1", "gzip"),
                new Case("identity;q=0", null),
                new Case("", null),
                new Case("br, deflate", null));
        for (Case row : cases) {
            Reply reply = get("/", "Accept-Encoding: " + row.acceptEncoding());
            assertEquals(200, reply.status(), row.acceptEncoding());
            assertEquals(row.expected(), reply.field("Content-Encoding"), row.acceptEncoding());
            assertEquals(TEXT, row.expected() == null ? reply.text() : new String(gunzip(reply.content()), StandardCharsets.UTF_8),
                    row.acceptEncoding());
            assertEquals("Accept-Encoding", reply.field("Vary"), row.acceptEncoding());
        }
    }

    @Test
    void compressesEvenASmallResponseWhenIdentityIsRefused() throws Exception {
        start(answer("text/plain", "tiny".getBytes(StandardCharsets.US_ASCII)));
        Reply refused = get("/", "Accept-Encoding: gzip, identity;q=0");
        assertEquals("gzip", refused.field("Content-Encoding"));
        assertEquals("tiny", new String(gunzip(refused.content()), StandardCharsets.US_ASCII));
        // Neither acceptable: the header field is disregarded and identity is sent, not a 406.
        Reply neither = get("/", "Accept-Encoding: gzip;q=0, identity;q=0");
        assertEquals(200, neither.status());
        assertNull(neither.field("Content-Encoding"));
        assertEquals("tiny", neither.text());
    }

    /**
     * Every answer about a compressible resource varies by Accept-Encoding, whatever its status:
     * the Content-Type of a 206 with several ranges, a 304 or a 416 is not the resource's, but
     * a cache must still key them as it keys the 200.
     */
    @Test
    void everyAnswerAboutACompressibleFileVaries(@TempDir Path base) throws Exception {
        Files.writeString(base.resolve("site.css"), TEXT);
        Files.write(base.resolve("logo.png"), new byte[4096]);
        start(new ResourceHandler(base));
        String etag = get("/site.css").field("ETag");
        Map<String, Reply> replies = new LinkedHashMap<>();
        for (String accept : new String[] {"Accept-Encoding: gzip", "Accept-Encoding: identity"}) {
            replies.put("200 " + accept, get("/site.css", accept));
            try (LocalConnector.Client client = local.connector.connect()) {
                client.send(crlf("HEAD /site.css HTTP/1.1\nHost: localhost\n" + accept + "\n\n"));
                replies.put("HEAD " + accept, Reply.parse(client.readResponse(WAIT, true)));
            }
            replies.put("206 one range " + accept, get("/site.css", accept, "Range: bytes=0-9"));
            replies.put("206 several ranges " + accept, get("/site.css", accept, "Range: bytes=0-9,20-29"));
            replies.put("304 " + accept, get("/site.css", accept, "If-None-Match: " + etag));
            replies.put("412 " + accept, get("/site.css", accept, "If-Match: \"other\""));
            replies.put("416 " + accept, get("/site.css", accept, "Range: bytes=90000-"));
        }
        replies.put("200 without Accept-Encoding", get("/site.css"));
        replies.put("206 several ranges without Accept-Encoding", get("/site.css", "Range: bytes=0-9,20-29"));
        replies.put("304 without Accept-Encoding", get("/site.css", "If-None-Match: " + etag));
        List<String> withoutVary = replies.entrySet().stream()
                .filter(entry -> !"Accept-Encoding".equals(entry.getValue().field("Vary"))).map(Map.Entry::getKey).toList();
        assertEquals(List.of(), withoutVary, "answers without Vary: Accept-Encoding");
        assertEquals(206, replies.get("206 several ranges Accept-Encoding: gzip").status());
        assertEquals(304, replies.get("304 Accept-Encoding: gzip").status());
        assertEquals(416, replies.get("416 Accept-Encoding: gzip").status());
        // An image is never compressed, so no answer about it varies.
        String imageTag = get("/logo.png").field("ETag");
        for (Reply image : List.of(get("/logo.png", "Accept-Encoding: gzip"), get("/logo.png", "Range: bytes=0-9,20-29"),
                get("/logo.png", "If-None-Match: " + imageTag), get("/logo.png", "Range: bytes=90000-"))) {
            assertNull(image.field("Vary"), image.raw());
        }
    }

    @Test
    void doesNotCompressWithoutAcceptEncodingButStillVaries() throws Exception {
        start(text());
        Reply reply = get("/");
        assertNull(reply.field("Content-Encoding"));
        assertEquals(String.valueOf(TEXT.length()), reply.field("Content-Length"));
        assertEquals("Accept-Encoding", reply.field("Vary"));
        assertEquals(TEXT, reply.text());
    }

    @Test
    void doesNotCompressSmallResponses() throws Exception {
        start(answer("text/plain", "tiny".getBytes(StandardCharsets.US_ASCII)));
        Reply reply = get("/", "Accept-Encoding: gzip");
        assertNull(reply.field("Content-Encoding"));
        assertEquals("4", reply.field("Content-Length"));
        assertEquals("Accept-Encoding", reply.field("Vary"));
        assertEquals("tiny", reply.text());
    }

    @Test
    void doesNotCompressWhenTheDeclaredLengthIsSmall() throws Exception {
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 10);
            Response.write(response, false, "0123456789", Callback.from(() -> response.write(true, null, callback), callback::failed));
            return true;
        }));
        Reply reply = get("/", "Accept-Encoding: gzip");
        assertNull(reply.field("Content-Encoding"));
        assertEquals("0123456789", reply.text());
    }

    @Test
    void doesNotCompressImages() throws Exception {
        byte[] png = new byte[4096];
        start(answer("image/png", png));
        Reply reply = get("/logo.png", "Accept-Encoding: gzip");
        assertNull(reply.field("Content-Encoding"));
        assertNull(reply.field("Vary"));
        assertArrayEquals(png, reply.content());
    }

    @Test
    void honoursConfiguredMimeTypes() throws Exception {
        GzipHandler gzip = start(answer("application/x-custom", TEXT.getBytes(StandardCharsets.UTF_8)));
        gzip.addIncludedMimeTypes("application/x-custom");
        gzip.addExcludedMimeTypes("text/css");
        assertEquals("gzip", get("/", "Accept-Encoding: gzip").field("Content-Encoding"));
        assertFalse(gzip.isMimeTypeCompressible("text/css; charset=utf-8"));
        assertTrue(gzip.isMimeTypeCompressible("text/html"));
    }

    @Test
    void doesNotCompressAlreadyEncodedContent() throws Exception {
        byte[] brotli = TEXT.getBytes(StandardCharsets.UTF_8);
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            response.getHeaders().put(HttpHeader.CONTENT_ENCODING, "br");
            response.write(true, ByteBuffer.wrap(brotli), callback);
            return true;
        }));
        Reply reply = get("/", "Accept-Encoding: gzip, br");
        assertEquals("br", reply.field("Content-Encoding"));
        assertArrayEquals(brotli, reply.content());
    }

    @Test
    void doesNotCompressExcludedPathsOrMethods() throws Exception {
        GzipHandler gzip = start(text());
        gzip.addExcludedPaths("/downloads/*", "*.bin");
        for (String path : new String[] {"/downloads/a.txt", "/x.bin"}) {
            Reply reply = get(path, "Accept-Encoding: gzip");
            assertNull(reply.field("Content-Encoding"), path);
            assertNull(reply.field("Vary"), path);
            assertEquals(TEXT, reply.text(), path);
        }
        assertEquals("gzip", get("/other.txt", "Accept-Encoding: gzip").field("Content-Encoding"));
        Reply put = local.get("""
                PUT / HTTP/1.1
                Host: localhost
                Accept-Encoding: gzip
                Content-Length: 0

                """);
        assertNull(put.field("Content-Encoding"));
    }

    @Test
    void onlyIncludedPathsAreCompressedOnceAnyIsIncluded() throws Exception {
        GzipHandler gzip = start(text());
        gzip.addIncludedPaths("/api/*");
        assertEquals("gzip", get("/api/items", "Accept-Encoding: gzip").field("Content-Encoding"));
        assertNull(get("/static/items", "Accept-Encoding: gzip").field("Content-Encoding"));
    }

    @Test
    void doesNotCompressErrorsOrPartialContent() throws Exception {
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.setStatus(request.getHttpURI().getPath().equals("/partial") ? 206 : 404);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            Response.write(response, true, TEXT, callback);
            return true;
        }));
        for (String path : new String[] {"/missing", "/partial"}) {
            Reply reply = get(path, "Accept-Encoding: gzip");
            assertNull(reply.field("Content-Encoding"), path);
            assertEquals(TEXT, reply.text(), path);
        }
    }

    @Test
    void mergesVaryWithTheChildsVary() throws Exception {
        start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html");
            response.getHeaders().put(HttpHeader.VARY, "Origin");
            Response.write(response, true, TEXT, callback);
            return true;
        }));
        assertEquals("Origin, Accept-Encoding", get("/", "Accept-Encoding: gzip").field("Vary"));
        assertEquals("Origin, Accept-Encoding", get("/").field("Vary"));
    }

    @Test
    void headGetsTheHeadOfACompressedGet() throws Exception {
        start(text());
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(crlf("""
                    HEAD / HTTP/1.1
                    Host: localhost
                    Accept-Encoding: gzip

                    """));
            Reply reply = Reply.parse(client.readResponse(WAIT, true));
            assertEquals(200, reply.status());
            assertEquals("gzip", reply.field("Content-Encoding"));
            assertNull(reply.field("Content-Length"));
            assertEquals(0, reply.content().length);
        }
    }

    /** Serves TEXT with ETag "v1", answering conditional requests by Preconditions. */
    private static Handler tagged() {
        EntityTag tag = new EntityTag("v1", false);
        Preconditions preconditions = new Preconditions(HttpDateFormat::parse);
        return Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            response.getHeaders().put(HttpHeader.ETAG, tag.asString());
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            Preconditions.Evaluation evaluation = preconditions.evaluate(request.getMethod(), request.getHeaders(), tag, -1, true);
            response.setStatus(evaluation.result().status());
            if (evaluation.result() == Preconditions.Result.PROCEED) {
                Response.write(response, true, TEXT, callback);
            } else {
                callback.succeeded();
            }
            return true;
        });
    }

    @Test
    void tagsTheCompressedVariantAndMatchesItOnRevalidation() throws Exception {
        start(tagged());
        Reply compressed = get("/", "Accept-Encoding: gzip");
        assertEquals("\"v1--gzip\"", compressed.field("ETag"));
        assertEquals("\"v1\"", get("/").field("ETag"));

        Reply revalidated = get("/", "Accept-Encoding: gzip", "If-None-Match: \"v0\", \"v1--gzip\"");
        assertEquals(304, revalidated.status());
        assertEquals("\"v1--gzip\"", revalidated.field("ETag"));
        assertEquals("Accept-Encoding", revalidated.field("Vary"));

        Reply identity = get("/", "Accept-Encoding: gzip", "If-None-Match: \"v1\"");
        assertEquals(304, identity.status());
        assertEquals("\"v1\"", identity.field("ETag"));

        // A client that does not take gzip does not hold the gzip variant: its tag must not match.
        assertEquals(200, get("/", "If-None-Match: \"v1--gzip\"").status());
        assertEquals(200, get("/", "Accept-Encoding: gzip", "If-None-Match: \"v2--gzip\"").status());
        assertEquals(200, get("/", "Accept-Encoding: gzip", "If-Match: \"v1--gzip\"").status());
        assertEquals(412, get("/", "Accept-Encoding: gzip", "If-Match: \"v2--gzip\"").status());
    }

    /** Answers with the content it read, the Content-Encoding and Content-Length it saw, blocking. */
    private static Handler echo() {
        return Handler.of((request, response, callback) -> {
            String content = Request.getContentAsString(request, StandardCharsets.UTF_8, 1 << 20);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain");
            String seen = request.getHeaders().get(HttpHeader.CONTENT_ENCODING) + " " + request.getHeaders().get(HttpHeader.CONTENT_LENGTH);
            Response.write(response, true, seen + " [" + content + "]", callback);
            return true;
        });
    }

    @Test
    void inflatesGzipRequestContent() throws Exception {
        start(echo());
        String json = "{\"name\": \"wharf\", \"tags\": [\"fast\", \"small\", \"safe\"]}";
        byte[] body = gzip(json.getBytes(StandardCharsets.UTF_8));
        Reply reply = post("""
                POST /echo HTTP/1.1
                Host: localhost
                Content-Type: application/json
                Content-Encoding: gzip
                Content-Length: %d
                """.formatted(body.length), body);
        assertEquals(200, reply.status());
        assertEquals("null null [" + json + "]", reply.text());
    }

    @Test
    void inflatesChunkedGzipContentLargerThanABuffer() throws Exception {
        start(echo());
        byte[] body = gzip(TEXT.getBytes(StandardCharsets.UTF_8));
        ByteArrayOutputStream chunked = new ByteArrayOutputStream();
        for (int at = 0; at < body.length; at += 7) {
            int size = Math.min(7, body.length - at);
            chunked.write((Integer.toHexString(size) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            chunked.write(body, at, size);
            chunked.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
        chunked.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        Reply reply = post("""
                POST /echo HTTP/1.1
                Host: localhost
                Content-Encoding: gzip
                Transfer-Encoding: chunked
                """, chunked.toByteArray());
        assertEquals("null null [" + TEXT + "]", reply.text());
    }

    @Test
    void treatsAnEmptyGzipBodyAsEmpty() throws Exception {
        start(echo());
        Reply reply = local.get("""
                POST /echo HTTP/1.1
                Host: localhost
                Content-Encoding: gzip
                Content-Length: 0

                """);
        assertEquals(200, reply.status());
        assertEquals("null null []", reply.text());
    }

    @Test
    void answersCorruptGzipContentWith400() throws Exception {
        start(echo());
        byte[] body = gzip(TEXT.getBytes(StandardCharsets.UTF_8));
        body[body.length - 6] ^= 0x55; // the trailer's CRC-32
        Reply reply = post("""
                POST /echo HTTP/1.1
                Host: localhost
                Content-Encoding: gzip
                Content-Length: %d
                """.formatted(body.length), body);
        assertEquals(400, reply.status());
    }

    private static byte[] bomb() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream gzip = new GZIPOutputStream(out)) {
            byte[] zeros = new byte[1 << 20];
            for (int i = 0; i < 10; i++) {
                gzip.write(zeros);
            }
        }
        return out.toByteArray();
    }

    @Test
    void answersAZipBombWith413WhenTheChildReadsBlocking() throws Exception {
        GzipHandler gzip = start(echo());
        gzip.setMaxInflatedBytes(1 << 20);
        byte[] body = bomb();
        assertTrue(body.length < 20_000, "bomb of " + body.length + " bytes");
        Reply reply = post("""
                POST /echo HTTP/1.1
                Host: localhost
                Content-Encoding: gzip
                Content-Length: %d
                """.formatted(body.length), body);
        assertEquals(413, reply.status());
    }

    @Test
    void givesAReaderOfAZipBombA413FailureChunk() throws Exception {
        AtomicReference<Throwable> seen = new AtomicReference<>();
        GzipHandler gzip = start(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            new Object() {
                long inflated;

                void readAll() {
                    while (true) {
                        Content.Chunk chunk = request.read();
                        if (chunk == null) {
                            request.demand(this::readAll);
                            return;
                        }
                        inflated += chunk.remaining();
                        chunk.release();
                        if (chunk.getFailure() != null) {
                            seen.set(chunk.getFailure());
                            callback.failed(chunk.getFailure());
                            return;
                        }
                        if (chunk.isLast()) {
                            Response.write(response, true, "read " + inflated, callback);
                            return;
                        }
                    }
                }
            }.readAll();
            return true;
        }));
        gzip.setMaxInflatedBytes(1 << 20);
        byte[] body = bomb();
        Reply reply = post("""
                POST /echo HTTP/1.1
                Host: localhost
                Content-Encoding: gzip
                Content-Length: %d
                """.formatted(body.length), body);
        assertEquals(413, reply.status());
        BadMessageException failure = (BadMessageException) seen.get();
        assertNotNull(failure);
        assertEquals(413, failure.getStatus());
    }

    @Test
    void leavesOtherContentCodingsAlone() throws Exception {
        start(echo());
        Reply reply = local.get("""
                POST /echo HTTP/1.1
                Host: localhost
                Content-Encoding: identity
                Content-Length: 5

                hello""");
        assertEquals("identity 5 [hello]", reply.text());
    }
}
