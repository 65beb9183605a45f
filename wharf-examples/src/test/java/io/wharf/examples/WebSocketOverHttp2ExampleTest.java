package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The WebSocket over HTTP/2 example runs and prints what docs/websocket.md shows. */
@Timeout(30)
class WebSocketOverHttp2ExampleTest {

    @Test
    void printsWhatTheDocsShow() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            WebSocketOverHttp2Example.run(out);
        }
        assertEquals("""
                GET / over HTTP/2.0: hello
                text: hello over HTTP/2.0
                closed: 1000
                """, bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
