package io.wharf.server.handler.resource;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

import io.wharf.http.HttpDateFormat;
import io.wharf.server.handler.ResourceServer;
import io.wharf.server.handler.ResourceServer.Reply;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A {@link ResourceHandler} whose base is on the class path: a directory, and a directory in a jar. */
class ResourceHandlerClassPathTest {

    /** An even second: a jar stores DOS times, to two seconds. */
    private static final long MODIFIED = Instant.parse("2024-05-06T07:08:10Z").toEpochMilli();

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path temp;

    private ResourceServer local;
    private URLClassLoader jarLoader;

    @AfterEach
    void stop() throws Exception {
        if (local != null) {
            local.close();
        }
        if (jarLoader != null) {
            jarLoader.close();
        }
    }

    private ResourceServer start(ResourceHandler handler) throws Exception {
        local = new ResourceServer(leaks.pool()).start(handler);
        return local;
    }

    @Test
    void servesAClassPathDirectory() throws Exception {
        start(new ResourceHandler(getClass().getClassLoader(), "resource-handler-test"));
        Reply hello = local.get("/hello.txt");
        assertEquals(200, hello.status(), hello::toString);
        assertEquals("from the class path\n", hello.body());
        assertEquals("text/plain;charset=utf-8", hello.header("Content-Type"));
        assertEquals("<p>docs</p>", local.get("/docs/").body());
        assertEquals("/docs/", local.get("/docs").header("Location"));
        Reply escape = local.get("/../resource-handler-test/hello.txt");
        assertTrue(escape.status() == 400 || escape.status() == 404, escape::toString);
    }

    @Test
    void refusesToStartWithoutTheClassPathDirectory() {
        ResourceHandler handler = new ResourceHandler(getClass().getClassLoader(), "no-such-directory-here");
        local = new ResourceServer(leaks.pool());
        Exception failure = assertThrows(Exception.class, () -> local.start(handler));
        Throwable cause = failure instanceof IllegalArgumentException ? failure : failure.getCause();
        assertTrue(String.valueOf(cause.getMessage()).contains("no-such-directory-here"), String.valueOf(failure));
    }

    @Test
    void servesADirectoryInAJar() throws Exception {
        byte[] large = ResourceHandlerTest.pattern(300_000);
        Path jar = temp.resolve("web.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            directory(out, "web/");
            entry(out, "web/hello.txt", "hello from a jar\n".getBytes(StandardCharsets.UTF_8));
            directory(out, "web/sub/");
            entry(out, "web/sub/index.html", "<p>sub</p>".getBytes(StandardCharsets.UTF_8));
            entry(out, "web/large.bin", large);
            entry(out, "secret.txt", "TOP SECRET".getBytes(StandardCharsets.UTF_8));
        }
        jarLoader = new URLClassLoader(new URL[] {jar.toUri().toURL()}, null);
        ResourceHandler handler = new ResourceHandler(jarLoader, "web");
        handler.setDirectoriesListed(true);
        handler.setBufferSize(4096);
        start(handler);

        Reply hello = local.get("/hello.txt");
        assertEquals(200, hello.status(), hello::toString);
        assertEquals("hello from a jar\n", hello.body());
        assertEquals(HttpDateFormat.format(MODIFIED), hello.header("Last-Modified"));
        assertEquals("<p>sub</p>", local.get("/sub/").body());

        Reply whole = local.get("/large.bin");
        assertArrayEquals(large, whole.bodyBytes());
        // Jar entries are read forward only: the ranges are reached by reading past what comes before.
        Reply ranges = local.get("/large.bin", "Range: bytes=5-9,100000-199999,-7");
        assertEquals(206, ranges.status(), ranges::toString);
        String type = ranges.header("Content-Type");
        List<String[]> parts = ResourceHandlerTest.multipart(ranges.body(), type.substring(type.indexOf('=') + 1));
        assertArrayEquals(Arrays.copyOfRange(large, 5, 10), parts.get(0)[1].getBytes(StandardCharsets.ISO_8859_1));
        assertArrayEquals(Arrays.copyOfRange(large, 100_000, 200_000), parts.get(1)[1].getBytes(StandardCharsets.ISO_8859_1));
        assertArrayEquals(Arrays.copyOfRange(large, large.length - 7, large.length), parts.get(2)[1].getBytes(StandardCharsets.ISO_8859_1));

        Reply listing = local.get("/");
        assertEquals(200, listing.status(), listing::toString);
        assertTrue(listing.body().contains("href=\"/hello.txt\""), listing::toString);
        assertTrue(listing.body().contains("href=\"/sub/\""), listing::toString);

        for (String attack : List.of("/../secret.txt", "/%2e%2e/secret.txt", "/sub/..%2f..%2fsecret.txt")) {
            String raw = local.connector.getResponse(ResourceServer.request("GET", attack));
            assertFalse(raw.contains("TOP SECRET"), attack + " -> " + raw);
        }
    }

    private static void directory(JarOutputStream out, String name) throws Exception {
        JarEntry entry = new JarEntry(name);
        entry.setTime(MODIFIED);
        out.putNextEntry(entry);
        out.closeEntry();
    }

    private static void entry(JarOutputStream out, String name, byte[] content) throws Exception {
        JarEntry entry = new JarEntry(name);
        entry.setTime(MODIFIED);
        out.putNextEntry(entry);
        OutputStream stream = out;
        stream.write(content);
        out.closeEntry();
    }
}
