package io.wharf.webapp.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.wharf.webapp.descriptor.DescriptorException;
import io.wharf.webapp.scan.fixtures.SampleServlet;
import io.wharf.webapp.scan.internal.JarKey;
import io.wharf.webapp.scan.internal.ScanCache;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** AnnotationScanner over the compiled fixtures: a directory, jars built here, the cache and parallel scans. */
class AnnotationScannerTest {

    private static final List<String> FIXTURE_CLASSES = List.of("BasePlugin", "ConcretePlugin", "MarkedClass", "MarkedField",
        "MarkedMembers", "Marker", "PlainFilter", "Plugin", "SampleFilter", "SampleListener", "SampleServlet", "ValueServlet");

    private static List<String> simpleNames(ScanResult result) {
        return result.classes().stream().map(scanned -> scanned.name().substring(scanned.name().lastIndexOf('.') + 1)).toList();
    }

    @Test
    void scansADirectoryOfClasses() throws Exception {
        ScanResult result = new AnnotationScanner(Optional.empty(), 1).scanDirectory(Fixtures.fixturesDirectory());
        assertEquals(FIXTURE_CLASSES, simpleNames(result));
        assertFalse(result.fromCache());
        assertEquals(List.of(), result.javaxServletClasses());
        ScannedClass servlet = result.classes().stream().filter(scanned -> scanned.name().equals(SampleServlet.class.getName()))
            .findFirst().orElseThrow();
        assertEquals("sample", servlet.webServlet().orElseThrow().name());
    }

    @Test
    void aMissingDirectoryHasNoClasses(@TempDir Path directory) throws Exception {
        assertEquals(List.of(), new AnnotationScanner(Optional.empty(), 1).scanDirectory(directory.resolve("classes")).classes());
    }

    @Test
    void scansAJarAndSkipsModuleInfoAndVersionedClasses(@TempDir Path directory) throws Exception {
        Path jar = Fixtures.jar(directory.resolve("lib/a.jar"), Map.of(
            "legacy/LegacyServlet.class", Fixtures.javaxServletClass(),
            "module-info.class", "not read".getBytes(StandardCharsets.US_ASCII),
            "META-INF/versions/21/x/Y.class", "not read".getBytes(StandardCharsets.US_ASCII),
            "readme.txt", "not a class".getBytes(StandardCharsets.US_ASCII)));
        ScanResult result = new AnnotationScanner(Optional.empty(), 1).scanJar(jar);
        assertEquals(FIXTURE_CLASSES.size() + 1, result.classes().size());
        assertTrue(result.classes().stream().anyMatch(scanned -> scanned.name().equals("legacy.LegacyServlet")));
        assertEquals(List.of(), result.javaxServletClasses(), "a library's reference to javax.servlet is not looked for");
        assertEquals(jar.toString(), result.source());
    }

    @Test
    void aBrokenClassInAJarFailsTheScanNamingIt(@TempDir Path directory) throws Exception {
        Path jar = Fixtures.jarOf(directory.resolve("broken.jar"), Map.of("x/Broken.class", new byte[] {(byte) 0xCA, (byte) 0xFE, 0, 1}));
        DescriptorException failure = assertThrows(DescriptorException.class, () -> new AnnotationScanner(Optional.empty(), 1).scanJar(jar));
        assertTrue(failure.getMessage().startsWith(jar + "!/x/Broken.class: not a class file"), failure.getMessage());
    }

    @Test
    void theSecondScanOfAJarComesFromTheCache(@TempDir Path directory) throws Exception {
        Path jar = Fixtures.jar(directory.resolve("lib/a.jar"), Map.of());
        Path cacheDirectory = directory.resolve("cache");
        AnnotationScanner scanner = new AnnotationScanner(Optional.of(cacheDirectory), 2);
        ScanResult first = scanner.scanJar(jar);
        assertFalse(first.fromCache());
        Path entry = new ScanCache(cacheDirectory).fileFor(JarKey.of(jar));
        assertTrue(Files.isRegularFile(entry));
        ScanResult second = scanner.scanJar(jar);
        assertTrue(second.fromCache());
        assertEquals(first.classes(), second.classes(), "the cache gives back exactly what the scan read");
        // The same bytes under another name are the same entry.
        Path copy = Files.copy(jar, directory.resolve("lib/copy.jar"));
        assertTrue(scanner.scanJar(copy).fromCache());
    }

    @Test
    void aCorruptedCacheEntryIsIgnoredAndRewritten(@TempDir Path directory) throws Exception {
        Path jar = Fixtures.jar(directory.resolve("a.jar"), Map.of());
        Path cacheDirectory = directory.resolve("cache");
        AnnotationScanner scanner = new AnnotationScanner(Optional.of(cacheDirectory), 1);
        ScanResult original = scanner.scanJar(jar);
        Path entry = new ScanCache(cacheDirectory).fileFor(JarKey.of(jar));

        byte[] bytes = Files.readAllBytes(entry);
        bytes[bytes.length / 2] ^= 0x20;
        Files.write(entry, bytes);
        ScanResult afterFlip = scanner.scanJar(jar);
        assertFalse(afterFlip.fromCache(), "a flipped bit fails the digest");
        assertEquals(original.classes(), afterFlip.classes());
        assertTrue(scanner.scanJar(jar).fromCache(), "the entry was rewritten");

        Files.write(entry, java.util.Arrays.copyOf(Files.readAllBytes(entry), 100));
        assertFalse(scanner.scanJar(jar).fromCache(), "a truncated entry");
        Files.write(entry, new byte[0]);
        assertFalse(scanner.scanJar(jar).fromCache(), "an empty entry");
    }

    @Test
    void anEntryWrittenForOtherBytesIsNotTrusted(@TempDir Path directory) throws Exception {
        Path a = Fixtures.jar(directory.resolve("a.jar"), Map.of());
        Path b = Fixtures.jarOf(directory.resolve("b.jar"), Map.of("legacy/LegacyServlet.class", Fixtures.javaxServletClass()));
        Path cacheDirectory = directory.resolve("cache");
        AnnotationScanner scanner = new AnnotationScanner(Optional.of(cacheDirectory), 1);
        scanner.scanJar(a);
        ScanCache cache = new ScanCache(cacheDirectory);
        // A's entry, complete and with a good digest, put where B's would be: it names A's hash inside.
        Files.copy(cache.fileFor(JarKey.of(a)), cache.fileFor(JarKey.of(b)));
        ScanResult result = scanner.scanJar(b);
        assertFalse(result.fromCache());
        assertEquals(List.of("legacy.LegacyServlet"), result.classes().stream().map(ScannedClass::name).toList());
    }

    @Test
    void scansSeveralJarsInParallelAndKeepsTheirOrder(@TempDir Path directory) throws Exception {
        List<Path> jars = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            // Each jar has one class of its own, so each has its own bytes and cache entry.
            jars.add(Fixtures.jar(directory.resolve("lib/" + (char) ('f' - i) + ".jar"),
                Map.of("own/Own" + i + ".class", Fixtures.emptyClass("own/Own" + i, "java/lang/Object", List.of()))));
        }
        Path cacheDirectory = directory.resolve("cache");
        AnnotationScanner scanner = new AnnotationScanner(Optional.of(cacheDirectory), 3);
        List<ScanResult> results = scanner.scanJars(jars);
        assertEquals(jars.stream().map(Path::toString).toList(), results.stream().map(ScanResult::source).toList());
        for (int i = 0; i < jars.size(); i++) {
            ScanResult result = results.get(i);
            assertEquals(FIXTURE_CLASSES.size() + 1, result.classes().size());
            String own = "own.Own" + i;
            assertTrue(result.classes().stream().anyMatch(scanned -> scanned.name().equals(own)), result.source() + " holds " + own);
            assertFalse(result.fromCache());
        }
        try (var entries = Files.list(cacheDirectory)) {
            assertEquals(6, entries.filter(file -> file.toString().endsWith(".scan")).count());
        }
        assertTrue(scanner.scanJars(jars).stream().allMatch(ScanResult::fromCache));
    }

    @Test
    void aFailureInOneParallelScanIsReported(@TempDir Path directory) throws Exception {
        Path good = Fixtures.jar(directory.resolve("a.jar"), Map.of());
        Path broken = Fixtures.jarOf(directory.resolve("b.jar"), Map.of("x/Broken.class", new byte[] {1, 2, 3}));
        DescriptorException failure = assertThrows(DescriptorException.class,
            () -> new AnnotationScanner(Optional.empty(), 2).scanJars(List.of(good, broken, good)));
        assertTrue(failure.getMessage().startsWith(broken + "!/x/Broken.class"), failure.getMessage());
    }
}
