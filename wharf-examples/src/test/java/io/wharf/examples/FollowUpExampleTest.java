package io.wharf.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The follow-up example runs and prints what docs/client.md shows. */
@Timeout(30)
class FollowUpExampleTest {

    @Test
    void printsWhatTheDocsShow() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8)) {
            FollowUpExample.run(out);
        }
        assertEquals("""
                200 /new
                welcome back, ann [session=ann]
                200 secret data, then secret more
                report: 24000 bytes, Content-Encoding null
                """, bytes.toString(StandardCharsets.UTF_8).replace("\r\n", "\n"));
    }
}
