package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Early Hints example runs and prints what docs/push.md shows. */
@Timeout(30)
class EarlyHintsExampleTest {

    @Test
    void printsWhatTheDocsShow() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            EarlyHintsExample.run(out);
        }
        assertEquals("""
                103 </site.css>; rel=preload; as=style
                103 </app.js>; rel=preload; as=script
                200 content of /index.html
                """, bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
