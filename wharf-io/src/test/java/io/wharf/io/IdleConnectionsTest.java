package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * 10,000 idle connections to an echo server hold no pooled buffer: buffers are borrowed when
 * bytes arrive and returned when empty. The clients live in a child process.
 */
@Timeout(240)
class IdleConnectionsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private static final int CONNECTIONS = 10_000;

    @Test
    void idleConnectionsHoldNoBuffers() throws Exception {
        LeakTrackingByteBufferPool pool = leaks.pool();
        try (EchoServer server = new EchoServer(pool, false, Duration.ofMinutes(5),
            (endPoint, p) -> new EchoConnection(endPoint, p, 4096))) {
            Process clients = startClients(server.port());
            try {
                BufferedReader out = new BufferedReader(new InputStreamReader(clients.getInputStream(), StandardCharsets.UTF_8));
                Writer in = new OutputStreamWriter(clients.getOutputStream(), StandardCharsets.UTF_8);
                assertEquals("CONNECTED " + CONNECTIONS, out.readLine());
                Deadline.await(() -> server.group().getOpenEndPoints() == CONNECTIONS, Duration.ofSeconds(60));
                assertEquals(0, pool.outstanding(), "idle connections hold no buffers");

                in.write("PING 500\n");
                in.flush();
                assertEquals("PONG 500", out.readLine());
                Deadline.await(() -> pool.outstanding() == 0, Duration.ofSeconds(5));
                assertEquals(CONNECTIONS, server.group().getOpenEndPoints(), "all still open after traffic");
                assertEquals(0, pool.outstanding(), "buffers returned once the traffic ended");

                in.close();
                if (!clients.waitFor(60, TimeUnit.SECONDS)) {
                    throw new AssertionError("clients did not exit");
                }
                assertEquals(0, clients.exitValue());
                Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(60));
            } finally {
                clients.destroyForcibly();
            }
        }
    }

    private static Process startClients(int port) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path classes = Path.of(IdleClients.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return new ProcessBuilder(List.of(java.toString(), "-Xmx256m", "-cp", classes.toString(),
            IdleClients.class.getName(), "127.0.0.1", Integer.toString(port), Integer.toString(CONNECTIONS)))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    }
}
