package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import io.wharf.testing.Deadline;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The demo's echo server: echoes, answers a half-close, and stops with its clients. */
@Timeout(30)
class EchoServerTest {

    @Test
    void echoesAndStops() throws Exception {
        EchoServer server = new EchoServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1, Duration.ofSeconds(30));
        server.start();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.boundAddress().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            InputStream in = socket.getInputStream();
            out.write("hello wharf\n".getBytes(StandardCharsets.UTF_8));
            assertEquals("hello wharf\n", new String(in.readNBytes(12), StandardCharsets.UTF_8));
            assertEquals(1, server.group().getOpenEndPoints());
            socket.shutdownOutput();
            assertEquals(-1, in.read(), "the server shuts its output when the client does");
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(5));
        } finally {
            server.stop();
        }
        assertEquals(true, server.isStopped());
    }
}
