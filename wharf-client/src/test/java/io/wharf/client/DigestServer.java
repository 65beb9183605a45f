package io.wharf.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.wharf.testing.Peers;

/**
 * Test fixture: the Python Digest server of {@code src/test/resources/digest_server.py}
 * (Wharf's server has no Digest support), started on a free loopback port and stopped when
 * closed. python3 is installed by {@code scripts/install-peers}, which {@code ./wharf test}
 * runs; in CI a missing python3 fails the test, elsewhere it skips it.
 */
final class DigestServer implements AutoCloseable {

    private final Process process;
    private final int port;

    DigestServer() throws IOException, InterruptedException {
        Peers.requireTool("python3");
        Path script;
        try {
            script = Path.of(DigestServer.class.getResource("/digest_server.py").toURI());
        } catch (URISyntaxException x) {
            throw new IOException(x);
        }
        process = new ProcessBuilder("python3", script.toString()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.US_ASCII));
        CompletableFuture<String> line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException x) {
                return null;
            }
        });
        String first;
        try {
            first = line.get(20, TimeUnit.SECONDS);
        } catch (Exception x) {
            process.destroyForcibly();
            throw new IOException("the Python Digest server did not start", x);
        }
        if (first == null || !first.startsWith("PORT ")) {
            process.destroyForcibly();
            throw new IOException("the Python Digest server said " + first + " instead of its port");
        }
        port = Integer.parseInt(first.substring(5).trim());
    }

    String uri(String path) {
        return "http://127.0.0.1:" + port + path;
    }

    @Override
    public void close() throws Exception {
        // The server runs until its standard input closes.
        process.getOutputStream().close();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            process.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
