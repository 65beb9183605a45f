package io.wharf.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The servlet run's application answers the same on the three containers, several requests on
 * one keep-alive connection: plaintext, JSON, the asynchronous answer, a 1 MiB echo and a file
 * through each DefaultServlet; and its JSON is escaped as JSON wants.
 */
@Timeout(60)
class ServletServersTest {

    @TempDir
    Path directory;

    @ParameterizedTest
    @ValueSource(strings = {"wharf", "jetty", "tomcat"})
    void everyContainerAnswersEveryPath(String container) throws Exception {
        byte[] file = random(4096, 1);
        Files.write(directory.resolve("4k.bin"), file);
        byte[] upload = random(1024 * 1024, 2);
        InetSocketAddress any = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        try (ServerProcess.Target server = switch (container) {
            case "wharf" -> ServletServers.wharf(any, directory);
            case "jetty" -> ServletServers.jetty(any, directory);
            default -> ServletServers.tomcat(any, directory);
        }; Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(20_000);
            int port = server.port();
            for (int round = 0; round < 2; round++) {
                assertAnswer(socket, HttpProbe.get("/plaintext", port), "text/plain", "Hello, World!".getBytes(StandardCharsets.US_ASCII));
                assertAnswer(socket, HttpProbe.get("/json", port), "application/json",
                    "{\"message\":\"Hello, World!\"}".getBytes(StandardCharsets.US_ASCII));
                assertAnswer(socket, HttpProbe.get("/async", port), "text/plain", "Hello, World!".getBytes(StandardCharsets.US_ASCII));
                assertAnswer(socket, HttpProbe.post("/echo", port, "application/octet-stream", upload), "application/octet-stream", upload);
                assertAnswer(socket, HttpProbe.get("/4k.bin", port), "application/octet-stream", file);
            }
        }
    }

    private static void assertAnswer(Socket socket, byte[] request, String contentType, byte[] body) throws Exception {
        HttpProbe.Response response = HttpProbe.exchange(socket.getInputStream(), socket.getOutputStream(), request);
        assertEquals(200, response.status(), response::head);
        assertTrue(response.field("Content-Type").startsWith(contentType), response::head);
        assertArrayEquals(body, response.body());
    }

    private static byte[] random(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    @Test
    void jsonEscapesQuotesBackslashesAndControlCharacters() {
        assertEquals("{\"message\":\"a\\\"b\\\\c\\u000ad\"}", new String(ServletApp.json("a\"b\\c\nd"), StandardCharsets.UTF_8));
    }
}
