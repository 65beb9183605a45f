package io.wharf.webapp.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The class path's package index: packages of class files only, versioned ones included; what cannot be indexed is asked for every package. */
class ClassPathIndexTest {

    @TempDir
    Path temp;

    @Test
    void indexesThePackagesOfClassFilesAndAsksTheRestForEverything() throws IOException {
        Path classes = Files.createDirectories(temp.resolve("classes"));
        Path a = zip("a.jar", "x/y/A.class", "x/y/B.class", "x/Z.class", "x/y/", "META-INF/MANIFEST.MF", "x/notes.txt", "Top.class");
        Path b = zip("b.jar", "x/y/C.class", "META-INF/versions/11/v/V.class", "META-INF/versions/oops.class");
        Path broken = Files.writeString(temp.resolve("broken.jar"), "not a zip");
        ClassPathIndex index = ClassPathIndex.of(List.of(classes, a, broken, b));
        assertArrayEquals(new int[] {0, 1, 2, 3}, index.candidates("x/y"), "in both jars, and where nothing is known");
        assertArrayEquals(new int[] {0, 1, 2}, index.candidates("x"));
        assertArrayEquals(new int[] {0, 1, 2}, index.candidates(""), "the unnamed package");
        assertArrayEquals(new int[] {0, 2, 3}, index.candidates("v"), "a class only under META-INF/versions/11/");
        assertArrayEquals(new int[] {0, 2}, index.candidates("x/notes"), "no class files: only the elements not indexed");
        assertArrayEquals(new int[] {0, 2}, index.candidates("META-INF/versions"), "a versioned name without its package slash is no class");
        assertEquals(List.of("x/y", "x", ""), ClassPathIndex.packagesOf(a));
    }

    @Test
    void aMalformedDirectoryIsNotIndexed() {
        assertNull(ClassPathIndex.packagesIn(new byte[] {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
            25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47}));
        byte[] header = new byte[46];
        header[0] = 0x50;
        header[1] = 0x4b;
        header[2] = 0x01;
        header[3] = 0x02;
        header[28] = 100; // a name longer than what follows
        assertNull(ClassPathIndex.packagesIn(header));
    }

    private Path zip(String name, String... entries) throws IOException {
        Path zip = temp.resolve(name);
        try (OutputStream out = Files.newOutputStream(zip); ZipOutputStream stream = new ZipOutputStream(out)) {
            for (String entry : entries) {
                stream.putNextEntry(new ZipEntry(entry));
                stream.closeEntry();
            }
        }
        return zip;
    }
}
