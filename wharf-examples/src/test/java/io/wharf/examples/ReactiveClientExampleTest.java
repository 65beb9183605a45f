package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The reactive client example runs and prints what docs/client.md shows. */
@Timeout(30)
class ReactiveClientExampleTest {

    @Test
    void printsWhatTheDocsShow() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            ReactiveClientExample.run(out);
        }
        assertEquals("status 200\ncontent 1000000 bytes\n", bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
