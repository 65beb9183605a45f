package io.wharf.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The loader's package index over several jars: a class is found in whichever jar has it, a
 * package split over two jars included, the first jar wins for a class two jars have, a class in
 * WEB-INF/classes wins over every jar, a multi-release jar's versioned-only class is found,
 * packages carry their jar's manifest attributes, classes their jar's code source, and many
 * threads loading at once all get the same classes.
 */
class WebAppClassLoaderIndexTest {

    @TempDir
    static Path temp;

    private static Path root;

    @BeforeAll
    static void buildApplication() throws Exception {
        Map<String, String> sources = Map.of(
            "split/One.java", "package split; public class One { public String toString() { return \"one\"; } }",
            "split/Two.java", "package split; public class Two { public String toString() { return \"two\"; } }",
            "deep/in/Three.java", "package deep.in; public class Three { public String toString() { return \"three\"; } }",
            "twice/Same.java", "package twice; public class Same { public String toString() { return \"first\"; } }",
            "mr/Versioned.java", "package mr; public class Versioned { public String toString() { return \"versioned\"; } }",
            "classes/Local.java", "package classes; public class Local { public String toString() { return \"local\"; } }",
            "Unnamed.java", "public class Unnamed { public String toString() { return \"unnamed\"; } }");
        Path classes = compile(temp.resolve("a"), sources);
        Path second = compile(temp.resolve("b"), Map.of(
            "twice/Same.java", "package twice; public class Same { public String toString() { return \"second\"; } }",
            "classes/Local.java", "package classes; public class Local { public String toString() { return \"jar\"; } }"));
        root = temp.resolve("app");
        Path lib = root.resolve("WEB-INF/lib");
        jar(lib.resolve("a.jar"), null, Map.of("split/One.class", classes.resolve("split/One.class"),
            "twice/Same.class", classes.resolve("twice/Same.class"), "Unnamed.class", classes.resolve("Unnamed.class")));
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_TITLE, "the b jar");
        manifest.getMainAttributes().put(Attributes.Name.IMPLEMENTATION_VERSION, "2.5");
        jar(lib.resolve("b.jar"), manifest, Map.of("split/Two.class", classes.resolve("split/Two.class"),
            "twice/Same.class", second.resolve("twice/Same.class"), "classes/Local.class", second.resolve("classes/Local.class")));
        jar(lib.resolve("c.jar"), null, Map.of("deep/in/Three.class", classes.resolve("deep/in/Three.class")));
        Manifest multiRelease = new Manifest();
        multiRelease.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        multiRelease.getMainAttributes().put(Attributes.Name.MULTI_RELEASE, "true");
        jar(lib.resolve("d.jar"), multiRelease, Map.of("META-INF/versions/17/mr/Versioned.class", classes.resolve("mr/Versioned.class")));
        Path local = root.resolve("WEB-INF/classes/classes/Local.class");
        Files.createDirectories(local.getParent());
        Files.copy(classes.resolve("classes/Local.class"), local);
    }

    private static Path compile(Path directory, Map<String, String> sources) throws IOException {
        List<String> arguments = new ArrayList<>(List.of("-d", directory.resolve("out").toString()));
        for (Map.Entry<String, String> source : sources.entrySet()) {
            Path file = directory.resolve("src").resolve(source.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, source.getValue());
            arguments.add(file.toString());
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertEquals(0, javac.run(null, null, null, arguments.toArray(String[]::new)), "javac");
        return directory.resolve("out");
    }

    private static void jar(Path jar, Manifest manifest, Map<String, Path> entries) throws IOException {
        Files.createDirectories(jar.getParent());
        try (OutputStream out = Files.newOutputStream(jar);
             JarOutputStream zip = manifest == null ? new JarOutputStream(out) : new JarOutputStream(out, manifest)) {
            for (Map.Entry<String, Path> entry : entries.entrySet()) {
                zip.putNextEntry(new JarEntry(entry.getKey()));
                zip.write(Files.readAllBytes(entry.getValue()));
                zip.closeEntry();
            }
        }
    }

    private static WebAppClassLoader loader() throws IOException {
        return new WebAppClassLoader("/index", WebAppClassLoader.classPathOf(root), WebAppClassLoaderIndexTest.class.getClassLoader(),
            ClassVisibility.DEFAULT);
    }

    private static String text(ClassLoader loader, String name) throws Exception {
        return loader.loadClass(name).getDeclaredConstructor().newInstance().toString();
    }

    private static String jarOf(Class<?> type) {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().getPath()).getFileName().toString();
    }

    @Test
    void eachClassComesFromTheFirstElementThatHasIt() throws Exception {
        try (WebAppClassLoader loader = loader()) {
            assertEquals("one", text(loader, "split.One"));
            assertEquals("two", text(loader, "split.Two"), "the second jar of a split package");
            assertEquals("three", text(loader, "deep.in.Three"));
            assertEquals("unnamed", text(loader, "Unnamed"), "the unnamed package");
            assertEquals("first", text(loader, "twice.Same"), "the first jar wins");
            assertEquals("local", text(loader, "classes.Local"), "WEB-INF/classes wins over the jars");
            assertEquals("b.jar", jarOf(loader.loadClass("split.Two")));
            assertEquals("c.jar", jarOf(loader.loadClass("deep.in.Three")));
            assertEquals("classes", Path.of(loader.loadClass("classes.Local").getProtectionDomain().getCodeSource().getLocation().getPath())
                .getFileName().toString());
            ClassNotFoundException missing = assertThrows(ClassNotFoundException.class, () -> loader.loadClass("split.Missing"));
            assertTrue(missing.getMessage().contains("split.Missing"), missing.getMessage());
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("nowhere.At.All"));
        }
    }

    /** Class files as resources come through the index too, with the very URLs the JDK's loader gives, and read the same. */
    @Test
    void classFilesAsResourcesAreTheJdksUrls() throws Exception {
        try (WebAppClassLoader loader = loader(); java.net.URLClassLoader jdk = new java.net.URLClassLoader(loader.getURLs(), null)) {
            for (String name : List.of("split/One.class", "split/Two.class", "deep/in/Three.class", "twice/Same.class", "classes/Local.class",
                "Unnamed.class", "mr/Versioned.class", "split/Missing.class", "nowhere/At.class", "META-INF/MANIFEST.MF")) {
                java.net.URL mine = loader.findResource(name);
                java.net.URL theirs = jdk.findResource(name);
                assertEquals(String.valueOf(theirs), String.valueOf(mine), name);
                if (theirs != null) {
                    try (var in = mine.openStream(); var expected = theirs.openStream()) {
                        assertTrue(java.util.Arrays.equals(expected.readAllBytes(), in.readAllBytes()), name);
                    }
                }
            }
            try (var in = loader.getResourceAsStream("twice/Same.class")) {
                assertTrue(in != null && in.readAllBytes().length > 0);
            }
        }
    }

    @Test
    void aMultiReleaseJarsVersionedClassIsFound() throws Exception {
        try (WebAppClassLoader loader = loader()) {
            assertEquals("versioned", text(loader, "mr.Versioned"));
            assertEquals("d.jar", jarOf(loader.loadClass("mr.Versioned")));
        }
    }

    @Test
    void packagesCarryTheirJarsManifest() throws Exception {
        try (WebAppClassLoader loader = loader()) {
            Package split = loader.loadClass("split.One").getPackage();
            // The package is defined by its first class, from a.jar, which has no manifest.
            assertNull(split.getImplementationVersion());
            Package local = loader.loadClass("classes.Local").getPackage();
            assertNull(local.getImplementationTitle(), "a directory has no manifest");
            Class<?> two = loader.loadClass("split.Two");
            assertSame(split, two.getPackage(), "one package for the split");
        }
        try (WebAppClassLoader loader = loader()) {
            Package split = loader.loadClass("split.Two").getPackage();
            assertEquals("2.5", split.getImplementationVersion(), "defined from b.jar first this time");
            assertEquals("the b jar", split.getImplementationTitle());
        }
    }

    @Test
    void manyThreadsLoadingAtOnceGetTheSameClasses() throws Exception {
        List<String> names = List.of("split.One", "split.Two", "deep.in.Three", "twice.Same", "mr.Versioned", "classes.Local", "Unnamed");
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 30; round++) {
                try (WebAppClassLoader loader = loader()) {
                    List<Callable<List<Class<?>>>> tasks = new ArrayList<>();
                    for (int t = 0; t < 8; t++) {
                        int offset = t;
                        tasks.add(() -> {
                            List<Class<?>> loaded = new ArrayList<>();
                            for (int i = 0; i < names.size(); i++) {
                                loaded.add(loader.loadClass(names.get((i + offset) % names.size())));
                            }
                            return loaded;
                        });
                    }
                    List<Class<?>> first = null;
                    for (Future<List<Class<?>>> done : threads.invokeAll(tasks)) {
                        List<Class<?>> loaded = new ArrayList<>(done.get());
                        loaded.sort(java.util.Comparator.comparing(Class::getName));
                        if (first == null) {
                            first = loaded;
                        }
                        assertEquals(first, loaded);
                        loaded.forEach(type -> assertSame(loader, type.getClassLoader()));
                    }
                }
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
