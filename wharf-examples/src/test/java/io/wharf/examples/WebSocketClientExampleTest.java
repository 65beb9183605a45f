package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The WebSocket client example runs and prints what docs/websocket.md shows. */
@Timeout(30)
class WebSocketClientExampleTest {

    @Test
    void printsWhatTheDocsShow() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            WebSocketClientExample.run(out);
        }
        assertEquals("""
                text: hello, wharf
                binary: 100000 bytes
                pong
                closed: 1000
                """, bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
