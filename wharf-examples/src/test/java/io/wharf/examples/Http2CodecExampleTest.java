package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

/** The HTTP/2 codec example runs and prints what docs/http2.md shows. */
class Http2CodecExampleTest {

    @Test
    void printsWhatTheDocsShow() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            Http2CodecExample.run(out);
        }
        assertEquals("""
                block 1: 41 octets, GET /, table 112 octets
                  user-agent: wharf-example/1.0
                  authorization: Bearer s3cr3t  (never indexed)
                block 2: 18 octets, GET /, table 112 octets
                  user-agent: wharf-example/1.0
                  authorization: Bearer s3cr3t  (never indexed)
                SETTINGS Settings{}
                HEADERS stream 1: 4 pseudo-headers, 2 fields
                DATA stream 1: hello (end of stream)
                """, bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
