package io.wharf.server.handler.resource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

import io.wharf.http.HttpDateFormat;
import io.wharf.server.Handler;
import io.wharf.server.LocalConnector;
import io.wharf.server.handler.DefaultHandler;
import io.wharf.server.handler.ResourceServer;
import io.wharf.server.handler.ResourceServer.Reply;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class ResourceHandlerTest {

    private static final Duration WAIT = Duration.ofSeconds(10);
    /** 2024-01-02T03:04:05Z, a whole second, so Last-Modified compares exactly. */
    private static final long MODIFIED = Instant.parse("2024-01-02T03:04:05Z").toEpochMilli();
    private static final String HELLO = "Hello, static world!\n";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path temp;

    private Path base;
    private ResourceServer local;

    @BeforeEach
    void files() throws Exception {
        base = Files.createDirectory(temp.resolve("base"));
        write(base.resolve("hello.txt"), HELLO, MODIFIED);
        Files.createDirectory(base.resolve("dir"));
        write(base.resolve("dir/index.html"), "<h1>welcome</h1>", MODIFIED);
        Files.createDirectory(base.resolve("empty"));
        write(temp.resolve("secret.txt"), "TOP SECRET", MODIFIED);
    }

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
    }

    private static void write(Path file, String content, long modified) throws Exception {
        Files.writeString(file, content, StandardCharsets.UTF_8);
        Files.setLastModifiedTime(file, FileTime.fromMillis(modified));
    }

    private ResourceServer start(Handler handler) throws Exception {
        local = new ResourceServer(leaks.pool()).start(handler);
        return local;
    }

    private ResourceHandler startResources() throws Exception {
        ResourceHandler resources = new ResourceHandler(base);
        start(resources);
        return resources;
    }

    @Test
    void servesAFileWithItsHeaders() throws Exception {
        startResources();
        Reply reply = local.get("/hello.txt");
        assertEquals(200, reply.status(), reply::toString);
        assertEquals("text/plain;charset=utf-8", reply.header("Content-Type"));
        assertEquals(String.valueOf(HELLO.length()), reply.header("Content-Length"));
        assertEquals(HttpDateFormat.format(MODIFIED), reply.header("Last-Modified"));
        assertEquals("bytes", reply.header("Accept-Ranges"));
        assertTrue(reply.header("ETag").matches("\"[0-9a-z]+-[0-9a-z]+\""), reply.header("ETag"));
        assertNull(reply.header("Cache-Control"));
        assertNull(reply.header("Vary"));
        assertEquals(HELLO, reply.body());
    }

    @Test
    void sendsTheConfiguredCacheControlAndUnknownTypesAsOctetStream() throws Exception {
        write(base.resolve("data.unknownext"), "xyz", MODIFIED);
        startResources().setCacheControl("max-age=3600, public");
        Reply reply = local.get("/data.unknownext");
        assertEquals(200, reply.status(), reply::toString);
        assertEquals("application/octet-stream", reply.header("Content-Type"));
        assertEquals("max-age=3600, public", reply.header("Cache-Control"));
    }

    @Test
    void answersHeadWithTheHeadersOfGetAndNoBody() throws Exception {
        startResources();
        try (LocalConnector.Client client = local.connector.connect()) {
            client.send(ResourceServer.request("HEAD", "/hello.txt") + ResourceServer.request("GET", "/hello.txt"));
            Reply head = Reply.parse(client.readResponse(WAIT, true));
            assertEquals(200, head.status(), head::toString);
            assertEquals(String.valueOf(HELLO.length()), head.header("Content-Length"));
            assertEquals("text/plain;charset=utf-8", head.header("Content-Type"));
            assertEquals("", head.body());
            // The next response on the connection starts right after the head: no body was sent.
            Reply get = Reply.parse(client.readResponse(WAIT));
            assertEquals(HELLO, get.body());
            assertEquals(head.header("ETag"), get.header("ETag"));
        }
    }

    @Test
    void passesOtherMethodsOn() throws Exception {
        start(new Handler.Sequence(new ResourceHandler(base), new DefaultHandler()));
        Reply reply = Reply.parse(local.connector.getResponse(ResourceServer.request("POST", "/hello.txt", "Content-Length: 0")));
        assertEquals(404, reply.status(), reply::toString);
        assertFalse(reply.body().contains(HELLO));
    }

    @Test
    void answersNotModifiedToIfNoneMatchAndIfModifiedSince() throws Exception {
        startResources().setCacheControl("max-age=60");
        String etag = local.get("/hello.txt").header("ETag");

        Reply byTag = local.get("/hello.txt", "If-None-Match: \"other\", " + etag);
        assertEquals(304, byTag.status(), byTag::toString);
        assertEquals(etag, byTag.header("ETag"));
        assertEquals(HttpDateFormat.format(MODIFIED), byTag.header("Last-Modified"));
        assertEquals("max-age=60", byTag.header("Cache-Control"));
        assertEquals("", byTag.body());

        Reply byDate = local.get("/hello.txt", "If-Modified-Since: " + HttpDateFormat.format(MODIFIED));
        assertEquals(304, byDate.status(), byDate::toString);
        assertEquals("", byDate.body());

        Reply older = local.get("/hello.txt", "If-Modified-Since: " + HttpDateFormat.format(MODIFIED - 1000));
        assertEquals(200, older.status(), older::toString);
        Reply otherTag = local.get("/hello.txt", "If-None-Match: \"other\"");
        assertEquals(200, otherTag.status(), otherTag::toString);
    }

    @Test
    void answersPreconditionFailedToAnIfMatchMismatch() throws Exception {
        startResources();
        String etag = local.get("/hello.txt").header("ETag");
        assertEquals(412, local.get("/hello.txt", "If-Match: \"nope\"").status());
        assertEquals(412, local.get("/hello.txt", "If-Unmodified-Since: " + HttpDateFormat.format(MODIFIED - 5000)).status());
        Reply matching = local.get("/hello.txt", "If-Match: " + etag);
        assertEquals(200, matching.status(), matching::toString);
        assertEquals(HELLO, matching.body());
    }

    @Test
    void answersASingleRangeWithPartialContent() throws Exception {
        startResources();
        Reply reply = local.get("/hello.txt", "Range: bytes=7-12");
        assertEquals(206, reply.status(), reply::toString);
        assertEquals("bytes 7-12/" + HELLO.length(), reply.header("Content-Range"));
        assertEquals("6", reply.header("Content-Length"));
        assertEquals(HELLO.substring(7, 13), reply.body());

        Reply suffix = local.get("/hello.txt", "Range: bytes=-6");
        assertEquals(206, suffix.status(), suffix::toString);
        assertEquals(HELLO.substring(HELLO.length() - 6), suffix.body());
    }

    @Test
    void answersSeveralRangesAsMultipartByteranges() throws Exception {
        startResources();
        Reply reply = local.get("/hello.txt", "Range: bytes=0-4,7-12,-3");
        assertEquals(206, reply.status(), reply::toString);
        String contentType = reply.header("Content-Type");
        assertTrue(contentType.startsWith("multipart/byteranges; boundary="), contentType);
        assertEquals(String.valueOf(reply.body().length()), reply.header("Content-Length"));
        String boundary = contentType.substring(contentType.indexOf('=') + 1);
        List<String[]> parts = multipart(reply.body(), boundary);
        int length = HELLO.length();
        assertEquals(3, parts.size());
        assertEquals("bytes 0-4/" + length, parts.get(0)[0]);
        assertEquals(HELLO.substring(0, 5), parts.get(0)[1]);
        assertEquals("bytes 7-12/" + length, parts.get(1)[0]);
        assertEquals(HELLO.substring(7, 13), parts.get(1)[1]);
        assertEquals("bytes " + (length - 3) + "-" + (length - 1) + "/" + length, parts.get(2)[0]);
        assertEquals(HELLO.substring(length - 3), parts.get(2)[1]);
        assertTrue(reply.body().contains("Content-Type: text/plain;charset=utf-8\r\n"), reply.body());
    }

    /** @return for each part of a multipart/byteranges body, its Content-Range and its bytes */
    static List<String[]> multipart(String body, String boundary) {
        String delimiter = "\r\n--" + boundary;
        assertTrue(body.startsWith(delimiter + "\r\n"), body);
        assertTrue(body.endsWith(delimiter + "--\r\n"), body);
        String inner = body.substring(0, body.length() - (delimiter + "--\r\n").length());
        List<String[]> parts = new java.util.ArrayList<>();
        for (String part : inner.split(java.util.regex.Pattern.quote(delimiter + "\r\n"), -1)) {
            if (part.isEmpty()) {
                continue;
            }
            int headEnd = part.indexOf("\r\n\r\n");
            String range = null;
            for (String line : part.substring(0, headEnd).split("\r\n")) {
                if (line.startsWith("Content-Range: ")) {
                    range = line.substring("Content-Range: ".length());
                }
            }
            parts.add(new String[] {range, part.substring(headEnd + 4)});
        }
        return parts;
    }

    @Test
    void answersRangeNotSatisfiableWithTheLength() throws Exception {
        startResources();
        Reply reply = local.get("/hello.txt", "Range: bytes=1000-2000");
        assertEquals(416, reply.status(), reply::toString);
        assertEquals("bytes */" + HELLO.length(), reply.header("Content-Range"));
        assertFalse(reply.body().contains("Hello"));
    }

    @Test
    void sendsTheWholeFileWhenIfRangeIsStale() throws Exception {
        startResources();
        String etag = local.get("/hello.txt").header("ETag");
        Reply stale = local.get("/hello.txt", "Range: bytes=0-4", "If-Range: \"stale-tag\"");
        assertEquals(200, stale.status(), stale::toString);
        assertEquals(HELLO, stale.body());
        Reply staleDate = local.get("/hello.txt", "Range: bytes=0-4", "If-Range: " + HttpDateFormat.format(MODIFIED - 60_000));
        assertEquals(200, staleDate.status(), staleDate::toString);
        Reply fresh = local.get("/hello.txt", "Range: bytes=0-4", "If-Range: " + etag);
        assertEquals(206, fresh.status(), fresh::toString);
        assertEquals("Hello", fresh.body());
    }

    @Test
    void choosesAPrecompressedVariantByAcceptEncoding() throws Exception {
        write(base.resolve("app.js"), "console.log('original');", MODIFIED);
        write(base.resolve("app.js.gz"), "GZIP-BYTES", MODIFIED);
        write(base.resolve("app.js.br"), "BROTLI-BYTES", MODIFIED + 1000);
        startResources();

        Reply gzip = local.get("/app.js", "Accept-Encoding: gzip");
        assertEquals(200, gzip.status(), gzip::toString);
        assertEquals("gzip", gzip.header("Content-Encoding"));
        assertEquals("GZIP-BYTES", gzip.body());
        assertEquals("text/javascript;charset=utf-8", gzip.header("Content-Type"));
        assertEquals("Accept-Encoding", gzip.header("Vary"));
        assertTrue(gzip.header("ETag").endsWith("--gzip\""), gzip.header("ETag"));

        Reply brotli = local.get("/app.js", "Accept-Encoding: gzip, deflate, br");
        assertEquals("br", brotli.header("Content-Encoding"), brotli::toString);
        assertEquals("BROTLI-BYTES", brotli.body());
        assertTrue(brotli.header("ETag").endsWith("--br\""), brotli.header("ETag"));

        Reply preferGzip = local.get("/app.js", "Accept-Encoding: br;q=0.5, gzip");
        assertEquals("gzip", preferGzip.header("Content-Encoding"), preferGzip::toString);

        Reply refused = local.get("/app.js", "Accept-Encoding: gzip;q=0");
        assertNull(refused.header("Content-Encoding"), refused::toString);
        assertEquals("console.log('original');", refused.body());
        assertEquals("Accept-Encoding", refused.header("Vary"));

        Reply none = local.get("/app.js");
        assertNull(none.header("Content-Encoding"), none::toString);
        assertEquals("Accept-Encoding", none.header("Vary"));
        assertNotEquals(none.header("ETag"), gzip.header("ETag"));

        // The variant's own tag validates the variant, not the original.
        Reply notModified = local.get("/app.js", "Accept-Encoding: gzip", "If-None-Match: " + gzip.header("ETag"));
        assertEquals(304, notModified.status(), notModified::toString);
        assertEquals("Accept-Encoding", notModified.header("Vary"));
    }

    /** The same rules as GzipHandler's: qualities against identity, x-gzip for gzip, any case. */
    @Test
    void choosesAVariantByTheQualitiesOfAcceptEncodingAndIdentity() throws Exception {
        write(base.resolve("app.js"), "ORIGINAL", MODIFIED);
        write(base.resolve("app.js.gz"), "GZIP-BYTES", MODIFIED);
        write(base.resolve("app.js.br"), "BROTLI-BYTES", MODIFIED);
        startResources();
        record Case(String acceptEncoding, String expected) {
        }
        for (Case row : List.of(
                new Case("x-gzip", "GZIP-BYTES"),
                new Case("X-Gzip;q=0.9, identity;q=0.5", "GZIP-BYTES"),
                new Case("gzip;q=0.5, identity;q=1", "ORIGINAL"),
                new Case("br;q=0.2, gzip;q=0.5, identity;q=0.4", "GZIP-BYTES"),
                new Case("BR, gzip", "BROTLI-BYTES"),
                new Case("br;q=0, gzip;q=0", "ORIGINAL"),
                new Case("*;q=0", "ORIGINAL"),
                new Case("*", "BROTLI-BYTES"),
                new Case("identity;q=0", "ORIGINAL"))) {
            Reply reply = local.get("/app.js", "Accept-Encoding: " + row.acceptEncoding());
            assertEquals(200, reply.status(), row.acceptEncoding());
            assertEquals(row.expected(), reply.body(), row.acceptEncoding());
            assertEquals("Accept-Encoding", reply.header("Vary"), row.acceptEncoding());
        }
    }

    @Test
    void ignoresAVariantOlderThanTheOriginalAndUnconfiguredFormats() throws Exception {
        write(base.resolve("style.css"), "body{}", MODIFIED);
        write(base.resolve("style.css.gz"), "OLD-GZIP", MODIFIED - 60_000);
        write(base.resolve("style.css.br"), "BROTLI", MODIFIED);
        ResourceHandler resources = startResources();
        Reply stale = local.get("/style.css", "Accept-Encoding: gzip");
        assertNull(stale.header("Content-Encoding"), stale::toString);
        assertEquals("body{}", stale.body());
        resources.setPrecompressedFormats(List.of("gzip"));
        Reply brOff = local.get("/style.css", "Accept-Encoding: br");
        assertNull(brOff.header("Content-Encoding"), brOff::toString);
        assertNull(brOff.header("Vary"), brOff::toString);
    }

    @Test
    void servesTheWelcomeFileOfADirectory() throws Exception {
        startResources();
        Reply reply = local.get("/dir/");
        assertEquals(200, reply.status(), reply::toString);
        assertEquals("<h1>welcome</h1>", reply.body());
        assertEquals("text/html;charset=utf-8", reply.header("Content-Type"));
    }

    @Test
    void redirectsADirectoryWithoutItsSlashKeepingTheQuery() throws Exception {
        startResources();
        Reply reply = local.get("/dir?a=1&b=2");
        assertEquals(302, reply.status(), reply::toString);
        assertEquals("/dir/?a=1&b=2", reply.header("Location"));
        Reply plain = local.get("/empty");
        assertEquals("/empty/", plain.header("Location"));
    }

    @Test
    void refusesListingsByDefault() throws Exception {
        startResources();
        Reply reply = local.get("/empty/");
        assertEquals(403, reply.status(), reply::toString);
    }

    @Test
    void listsADirectoryWithEscapedSortedNames() throws Exception {
        Path listed = Files.createDirectory(base.resolve("listed"));
        // A file name cannot hold '/', so the closing tag is written percent-encoded: '%' must be encoded too.
        write(listed.resolve("<script>alert(1)<%2Fscript>.txt"), "x", MODIFIED);
        write(listed.resolve("a&b \"c\".txt"), "12345", MODIFIED);
        write(listed.resolve("zeta.txt"), "z", MODIFIED);
        Files.createDirectory(listed.resolve("sub"));
        startResources().setDirectoriesListed(true);

        Reply reply = local.get("/listed/");
        assertEquals(200, reply.status(), reply::toString);
        assertEquals("text/html;charset=utf-8", reply.header("Content-Type"));
        String page = new String(reply.bodyBytes(), StandardCharsets.UTF_8);
        assertFalse(page.contains("<script>"), page);
        assertTrue(page.contains(">&lt;script&gt;alert(1)&lt;%2Fscript&gt;.txt</a>"), page);
        assertTrue(page.contains("href=\"/listed/%3Cscript%3Ealert(1)%3C%252Fscript%3E.txt\""), page);
        assertTrue(page.contains(">a&amp;b &quot;c&quot;.txt</a>"), page);
        assertTrue(page.contains("href=\"/listed/a&amp;b%20%22c%22.txt\""), page);
        assertTrue(page.contains("href=\"/listed/sub/\""), page);
        assertTrue(page.contains("<td>5</td><td>" + HttpDateFormat.format(MODIFIED) + "</td>"), page);
        assertTrue(page.contains("href=\"/\">../</a>"), page);
        int script = page.indexOf("&lt;script");
        int amp = page.indexOf(">a&amp;b");
        int sub = page.indexOf(">sub/");
        int zeta = page.indexOf(">zeta.txt");
        assertTrue(script < amp && amp < sub && sub < zeta, "sorted by name: " + page);
    }

    @Test
    void neverServesAnythingOutsideTheBase() throws Exception {
        Files.createDirectory(base.resolve("a"));
        startResources();
        List<String> attacks = List.of(
                "/../secret.txt", "/%2e%2e/secret.txt", "/a/..%2f..%2fsecret.txt", "/%2e%2e%2fsecret.txt",
                "/a/../../secret.txt", "/..%5csecret.txt", "/a/%2e%2e/%2e%2e/secret.txt", "/.%2e/secret.txt",
                "/..;/secret.txt", "//../secret.txt", "/hello.txt%00", "/hello.txt%00.html", "/%c0%ae%c0%ae/secret.txt",
                "/" + temp.resolve("secret.txt"), "/a/..\\..\\secret.txt");
        for (String attack : attacks) {
            String raw = local.connector.getResponse(ResourceServer.request("GET", attack));
            assertFalse(raw.contains("TOP SECRET"), attack + " -> " + raw);
            assertFalse(raw.startsWith("HTTP/1.1 200"), attack + " -> " + raw);
        }
    }

    @Test
    void refusesAliasesOfFileNames() throws Exception {
        startResources();
        for (String alias : List.of("/hello.txt/", "/hello.txt.", "/hello.txt%20", "/HELLO.TXT", "/hello.txt::$DATA", "/dir//index.html")) {
            Reply reply = local.get(alias);
            assertTrue(reply.status() == 404 || reply.status() == 400, alias + " -> " + reply);
            assertFalse(reply.body().contains(HELLO), alias + " -> " + reply);
        }
    }

    @Test
    void refusesSymbolicLinksUnlessFollowedAndInsideTheBase() throws Exception {
        Files.createSymbolicLink(base.resolve("outside.txt"), temp.resolve("secret.txt"));
        Files.createSymbolicLink(base.resolve("inside.txt"), base.resolve("hello.txt"));
        Files.createSymbolicLink(base.resolve("linkdir"), base.resolve("dir"));
        ResourceHandler resources = startResources();

        assertEquals(404, local.get("/inside.txt").status());
        assertEquals(404, local.get("/outside.txt").status());
        assertEquals(404, local.get("/linkdir/index.html").status());

        resources.setFollowSymlinks(true);
        Reply inside = local.get("/inside.txt");
        assertEquals(200, inside.status(), inside::toString);
        assertEquals(HELLO, inside.body());
        assertEquals("<h1>welcome</h1>", local.get("/linkdir/index.html").body());
        Reply outside = local.get("/outside.txt");
        assertEquals(404, outside.status(), outside::toString);
        assertFalse(outside.body().contains("TOP SECRET"));

        // Only an explicit alias checker lets a link lead out of the base.
        Path secret = temp.resolve("secret.txt").toRealPath();
        resources.setAliasChecker((path, requested, real) -> real.equals(secret));
        assertEquals("TOP SECRET", local.get("/outside.txt").body());
    }

    @Test
    void refusesWhatIsNeitherAFileNorADirectory() throws Exception {
        Path fifo = base.resolve("pipe.txt");
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", fifo.toString()).start();
        } catch (java.io.IOException noMkfifo) {
            org.junit.jupiter.api.Assumptions.abort("no mkfifo here");
            return;
        }
        org.junit.jupiter.api.Assumptions.assumeTrue(mkfifo.waitFor() == 0 && Files.exists(fifo), "mkfifo failed");
        startResources().setDirectoriesListed(true);
        // Opening the pipe would block until a writer comes: it must be refused without opening it.
        Reply reply = local.get("/pipe.txt");
        assertEquals(404, reply.status(), reply::toString);
        assertFalse(local.get("/").body().contains("pipe.txt"));
    }

    @Test
    void servesALargeFileWholeAndByRangesByteExact() throws Exception {
        byte[] large = pattern(5 * 1024 * 1024 + 123);
        Path file = base.resolve("large.bin");
        Files.write(file, large);
        ResourceHandler resources = startResources();
        for (long threshold : new long[] {1024 * 1024, Long.MAX_VALUE}) {
            resources.setMappingThreshold(threshold);
            Reply whole = local.get("/large.bin");
            assertEquals(200, whole.status());
            assertEquals(String.valueOf(large.length), whole.header("Content-Length"));
            assertArrayEquals(large, whole.bodyBytes(), "whole file, mapping threshold " + threshold);

            int first = FileContentWriter.MAPPED_SLICE - 1000;
            int last = FileContentWriter.MAPPED_SLICE + 99_999;
            Reply range = local.get("/large.bin", "Range: bytes=" + first + "-" + last);
            assertEquals(206, range.status());
            assertArrayEquals(Arrays.copyOfRange(large, first, last + 1), range.bodyBytes());

            Reply ranges = local.get("/large.bin", "Range: bytes=10-19,3000000-4999999,-100");
            assertEquals(206, ranges.status());
            String type = ranges.header("Content-Type");
            List<String[]> parts = multipart(ranges.body(), type.substring(type.indexOf('=') + 1));
            assertEquals(3, parts.size());
            assertArrayEquals(Arrays.copyOfRange(large, 10, 20), parts.get(0)[1].getBytes(StandardCharsets.ISO_8859_1));
            assertArrayEquals(Arrays.copyOfRange(large, 3_000_000, 5_000_000), parts.get(1)[1].getBytes(StandardCharsets.ISO_8859_1));
            assertArrayEquals(Arrays.copyOfRange(large, large.length - 100, large.length), parts.get(2)[1].getBytes(StandardCharsets.ISO_8859_1));
        }
    }

    /** @return bytes that differ from position to position, so a misplaced slice shows */
    static byte[] pattern(int length) {
        byte[] bytes = new byte[length];
        for (int i = 0; i < length; i++) {
            bytes[i] = (byte) (i * 31 + (i >>> 8) * 7 + (i >>> 16));
        }
        return bytes;
    }
}
