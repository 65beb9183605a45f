package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A client that speaks only HTTP/1.1 runs without wharf-http2: {@link Http1OnlyClient} runs in a
 * JVM whose class path is this one's without wharf-http2, and GETs from a server of this JVM.
 * (On the module path, wharf-client still requires {@code io.wharf.http2}: see docs/client.md.)
 */
@Timeout(90)
class WithoutHttp2Test {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    @TempDir
    Path directory;

    @Test
    void anHttp1ClientRunsWithoutHttp2OnTheClassPath() throws Exception {
        TestServer server = loopback.server(Handler.of((request, response, callback) -> {
            Response.write(response, true, "without h2", callback);
            return true;
        }));
        List<String> entries = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        String classPath = entries.stream().filter(entry -> !isHttp2(entry)).collect(Collectors.joining(File.pathSeparator));
        assertTrue(entries.stream().anyMatch(WithoutHttp2Test::isHttp2), "this JVM's class path has wharf-http2: " + entries);
        assertFalse(classPath.contains("wharf-http2"), classPath);

        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = directory.resolve("output.txt");
        Process child = new ProcessBuilder(java.toString(), "-cp", classPath, Http1OnlyClient.class.getName(), server.uri("/"))
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        try {
            assertTrue(child.waitFor(60, TimeUnit.SECONDS), "the client JVM did not end");
        } finally {
            child.destroyForcibly();
        }
        String printed = Files.readString(output, StandardCharsets.UTF_8);
        assertEquals(0, child.exitValue(), printed);
        assertTrue(printed.contains("200 without h2"), printed);
    }

    /** @return whether a class path entry is wharf-http2 (the reactor's classes or its jar) */
    private static boolean isHttp2(String entry) {
        Path path = Path.of(entry);
        return path.toString().contains(File.separator + "wharf-http2" + File.separator)
                || (path.getFileName() != null && path.getFileName().toString().startsWith("wharf-http2"));
    }
}
