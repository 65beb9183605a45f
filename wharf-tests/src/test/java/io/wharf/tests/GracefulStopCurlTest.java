package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.wharf.examples.Demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo stopped gracefully while the real curl downloads {@code /large.bin} (16 MiB) at a
 * limited rate, four ways at once: HTTP/1.1 and h2c on the HTTP port, HTTP/1.1 and h2 (ALPN)
 * on the HTTPS port. Each download began before the stop and finishes whole, with curl exiting
 * 0 (a download cut short is curl's exit 18, a TLS end without close_notify that curl reads
 * is its exit 56); the stop returns once they are done. The case: the demo stopped by
 * SIGTERM 1.5 s into four downloads at 3 MB/s, where both TLS downloads were cut at about 10 MB.
 */
class GracefulStopCurlTest {

    private static final long LARGE = 16 * 1024 * 1024;

    @TempDir
    Path directory;

    @RegisterExtension
    final TestDemo demos = new TestDemo();

    private final List<Process> curls = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        curls.forEach(Process::destroyForcibly);
    }

    @Test
    void downloadsUnderWayFinishWholeOverHttpAndHttps() throws Exception {
        Path certificates = directory.resolve("demo-tls");
        Demo.Running demo = demos.start(certificates);
        String cacert = certificates.resolve("demo.pem").toString();
        String http = "http://localhost:" + demo.httpPort() + "/large.bin";
        String https = "https://localhost:" + demo.httpsPort() + "/large.bin";
        Map<String, String[]> downloads = new LinkedHashMap<>();
        downloads.put("http/1.1", new String[] {"--http1.1", http});
        downloads.put("h2c", new String[] {"--http2-prior-knowledge", http});
        downloads.put("https/1.1", new String[] {"--cacert", cacert, "--http1.1", https});
        downloads.put("h2", new String[] {"--cacert", cacert, "--http2", https});
        Map<String, Path> outputs = new LinkedHashMap<>();
        Map<String, Process> running = new LinkedHashMap<>();
        for (Map.Entry<String, String[]> download : downloads.entrySet()) {
            Path output = directory.resolve(download.getKey().replace('/', '-') + ".bin");
            List<String> arguments = new ArrayList<>(List.of("--limit-rate", "3M", "-w", "%{http_version}"));
            arguments.addAll(List.of(download.getValue()));
            arguments.addAll(List.of("-o", output.toString()));
            Process curl = Curl.start(log(download.getKey()), arguments.toArray(String[]::new));
            curls.add(curl);
            outputs.put(download.getKey(), output);
            running.put(download.getKey(), curl);
        }
        // Every download under way (some bytes written by curl) before the stop begins.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (Map.Entry<String, Path> output : outputs.entrySet()) {
            while (!Files.exists(output.getValue()) || Files.size(output.getValue()) < 1024 * 1024) {
                assertTrue(running.get(output.getKey()).isAlive(), output.getKey() + ": curl ended before the stop: " + Curl.errors(log(output.getKey())));
                assertTrue(System.nanoTime() < deadline, output.getKey() + ": no 1 MiB within 20 s");
                Thread.sleep(20);
            }
        }
        CompletableFuture<Void> stopped = CompletableFuture.runAsync(() -> {
            try {
                demo.server().stop();
            } catch (Exception x) {
                throw new IllegalStateException(x);
            }
        });
        for (Map.Entry<String, Process> curl : running.entrySet()) {
            String name = curl.getKey();
            assertTrue(curl.getValue().waitFor(60, TimeUnit.SECONDS), name + ": curl did not finish");
            Path output = outputs.get(name);
            assertEquals(0, curl.getValue().exitValue(), name + ": curl failed after " + Files.size(output) + " bytes: " + Curl.errors(log(name)));
            assertEquals(LARGE, Files.size(output), name);
        }
        assertEquals("1.1", written("http/1.1"));
        assertEquals("2", written("h2c"));
        assertEquals("1.1", written("https/1.1"));
        assertEquals("2", written("h2"));
        stopped.get(30, TimeUnit.SECONDS);
        assertTrue(demo.server().isStopped());
    }

    /** What curl printed with -w for the download {@code name}: its HTTP version. */
    private String written(String name) throws Exception {
        return Files.readString(log(name), StandardCharsets.ISO_8859_1);
    }

    /** @return where the curl of the download {@code name} writes its standard output */
    private Path log(String name) {
        return directory.resolve(name.replace('/', '-') + ".out");
    }
}
