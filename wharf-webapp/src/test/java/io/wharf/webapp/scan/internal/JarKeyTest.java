package io.wharf.webapp.scan.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A jar's cache key: from its central directory, the same for the same entries, another for any change an entry's CRC-32, size, name or time shows. */
class JarKeyTest {

    private static final long TIME = 1_700_000_000_000L;

    @TempDir
    Path directory;

    @Test
    void theSameEntriesGiveTheSameKeyAndAnyChangeAnother() throws IOException {
        Map<String, String> entries = new LinkedHashMap<>(Map.of("a/A.class", "alpha", "b/B.class", "beta"));
        String key = JarKey.of(jar("one.jar", entries, "", TIME));
        assertEquals(64, key.length());
        assertEquals(key, JarKey.of(jar("copy.jar", entries, "", TIME)), "the same entries in another file");

        Map<String, String> edited = new LinkedHashMap<>(entries);
        edited.put("b/B.class", "betb");
        assertNotEquals(key, JarKey.of(jar("edited.jar", edited, "", TIME)), "one byte of one entry, same size: its CRC-32");
        Map<String, String> renamed = new LinkedHashMap<>(Map.of("a/A.class", "alpha", "b/C.class", "beta"));
        assertNotEquals(key, JarKey.of(jar("renamed.jar", renamed, "", TIME)));
        assertNotEquals(key, JarKey.of(jar("rebuilt.jar", entries, "", TIME + 60_000)), "rebuilt later");
        assertNotEquals(key, JarKey.of(jar("commented.jar", entries, "a comment", TIME)), "the file's length");
    }

    @Test
    void aJarWithAnArchiveCommentIsReadThroughItsEndRecord() throws IOException {
        Path jar = jar("commented.jar", Map.of("x", "y"), "PK\u0005\u0006 looks like an end record", TIME);
        try (FileChannel channel = FileChannel.open(jar, StandardOpenOption.READ)) {
            assertNotNull(ZipCentralDirectory.locate(channel, channel.size()));
        }
    }

    @Test
    void aZip64JarIsReadThroughItsZip64EndRecord() throws IOException {
        Map<String, String> many = new LinkedHashMap<>();
        for (int i = 0; i < 70_000; i++) {
            many.put("e" + i, "");
        }
        Path jar = jar("many.jar", many, "", TIME);
        try (FileChannel channel = FileChannel.open(jar, StandardOpenOption.READ)) {
            long[] found = ZipCentralDirectory.locate(channel, channel.size());
            assertNotNull(found, "more than 65,535 entries: a zip64 end record");
            // Each entry's header is 46 bytes and its name; the directory ends where the end records begin.
            assertTrue(found[1] > 70_000 * 46L && found[0] + found[1] < channel.size(), found[0] + " + " + found[1]);
            assertEquals(0x02014b50, java.nio.ByteBuffer.wrap(Files.readAllBytes(jar), (int) found[0], 4)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt(), "a central directory header where it points");
        }
    }

    @Test
    void aFileThatIsNotAZipIsKeyedByItsBytes() throws IOException {
        Path file = Files.writeString(directory.resolve("not.jar"), "not a zip at all, just some text of some length");
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            assertNull(ZipCentralDirectory.locate(channel, channel.size()));
        }
        String key = JarKey.of(file);
        assertEquals(key, JarKey.of(Files.writeString(directory.resolve("same.jar"), Files.readString(file))));
        assertNotEquals(key, JarKey.of(Files.writeString(directory.resolve("other.jar"), "not a zip at all, just some text of some lengtH")));
        assertNotEquals(key, JarKey.of(Files.write(directory.resolve("empty.jar"), new byte[0])));
    }

    private Path jar(String name, Map<String, String> entries, String comment, long time) throws IOException {
        Path jar = directory.resolve(name);
        try (OutputStream out = Files.newOutputStream(jar); ZipOutputStream zip = new ZipOutputStream(out)) {
            for (Map.Entry<String, String> entry : entries.entrySet()) {
                ZipEntry zipEntry = new ZipEntry(entry.getKey());
                zipEntry.setTime(time);
                zip.putNextEntry(zipEntry);
                zip.write(entry.getValue().getBytes(StandardCharsets.UTF_8));
                zip.closeEntry();
            }
            if (!comment.isEmpty()) {
                zip.setComment(comment);
            }
        }
        return jar;
    }
}
