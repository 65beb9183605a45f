package io.wharf.loadgen.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.HdrHistogram.HistogramLogWriter;
import org.junit.jupiter.api.Test;

/** Resource names as histogram tags: what HdrHistogram's log format forbids is escaped, and every name comes back whole. */
class LogTagsTest {

    @Test
    void aResourceNameGoesThroughTheLogFormatAndComesBackWhole() {
        for (String name : new String[] {"/", "/search?q=a,b&x=100%25", "POST /api/items", "/caf\u00e9 \u2615", "https://cdn.test/a.js"}) {
            String tag = LogTags.resource(name);
            assertTrue(tag.chars().allMatch(c -> c > ' ' && c < 0x7F && c != ','), tag);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            HistogramLogWriter writer = new HistogramLogWriter(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            Histogram histogram = new Histogram(3);
            histogram.recordValue(42);
            histogram.setTag(tag);
            writer.outputIntervalHistogram(histogram);
            String read = new HistogramLogReader(new ByteArrayInputStream(bytes.toByteArray())).nextIntervalHistogram().getTag();
            assertEquals(name, LogTags.resourceName(read));
        }
        assertEquals("resource:/a%2Cb%20c%25", LogTags.resource("/a,b c%"));
    }

    @Test
    void otherTagsAreNotResourcesAndABadEscapeIsNamed() {
        assertNull(LogTags.resourceName(LogTags.CORRECTED));
        assertNull(LogTags.resourceName(null));
        IllegalArgumentException bad = assertThrows(IllegalArgumentException.class, () -> LogTags.resourceName("resource:/a%2"));
        assertTrue(bad.getMessage().contains("bad %-escape"), bad.getMessage());
    }
}
