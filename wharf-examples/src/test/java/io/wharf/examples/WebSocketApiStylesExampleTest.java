package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The adapter and annotation examples run and print what docs/websocket.md shows. */
@Timeout(60)
class WebSocketApiStylesExampleTest {

    private interface Example {
        void run(PrintStream out) throws Exception;
    }

    private static String printed(Example example) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            example.run(out);
        }
        return bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n");
    }

    @Test
    void theAdapterExample() throws Exception {
        assertEquals("""
                connected: true
                AHOY
                closed: 1000
                """, printed(WebSocketAdapterExample::run));
    }

    @Test
    void theAnnotatedExampleStreamsBothWays() throws Exception {
        assertEquals("""
                open
                binary of 10485760 bytes
                text of 8000 chars
                closed: 1000
                """, printed(AnnotatedWebSocketExample::run));
    }
}
