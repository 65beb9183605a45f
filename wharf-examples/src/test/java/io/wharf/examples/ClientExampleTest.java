package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The client example runs and prints what docs/client.md shows. */
@Timeout(30)
class ClientExampleTest {

    @Test
    void printsWhatTheDocsShow() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ClientExample.run(out);
        }
        assertEquals("""
                200 GET /hello?name=wharf\s
                200 POST /users user=ann+lee
                GET /async\s
                big: 200
                big: 1000000 bytes
                """, bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
