package io.wharf.webapp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

import jakarta.servlet.GenericServlet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import webapps.shadow.Greeting;

/**
 * The loading order of Servlet 6.1 section 10.7.2 with a real jar: classes compiled here that
 * shadow ones on the test class path, and copies of platform, Servlet API and container classes
 * that must never win over the parent's.
 */
class WebAppClassLoaderTest {

    @TempDir
    static Path temp;

    private static Path root;

    /** WEB-INF/lib/app.jar: a Greeting saying "webapp", a javax.inject.Named (not the JDK's), and copies of parent classes. */
    @BeforeAll
    static void buildApplication() throws Exception {
        Path sources = temp.resolve("src");
        write(sources.resolve("webapps/shadow/Greeting.java"), """
            package webapps.shadow;
            public class Greeting {
                @Override public String toString() { return "webapp"; }
            }
            """);
        write(sources.resolve("javax/inject/Named.java"), """
            package javax.inject;
            public class Named {
            }
            """);
        Path classes = temp.resolve("classes");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int exit = javac.run(null, null, null, "-d", classes.toString(),
            sources.resolve("webapps/shadow/Greeting.java").toString(), sources.resolve("javax/inject/Named.java").toString());
        assertEquals(0, exit, "javac");
        Archive jar = new Archive()
            .add("webapps/shadow/Greeting.class", Files.readAllBytes(classes.resolve("webapps/shadow/Greeting.class")))
            .add("javax/inject/Named.class", Files.readAllBytes(classes.resolve("javax/inject/Named.class")))
            .add("jakarta/servlet/GenericServlet.class", Archive.classBytes(GenericServlet.class))
            .add("io/wharf/webapp/Gate.class", Archive.classBytes(Gate.class))
            .add("javax/xml/XMLConstants.class", bytesOf(javax.xml.XMLConstants.class))
            .text("META-INF/app.txt", "the application's");
        root = temp.resolve("app");
        jar.writeZip(root.resolve("WEB-INF/lib/app.jar"));
        Files.createDirectories(root.resolve("WEB-INF/classes"));
    }

    private static void write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
    }

    private static byte[] bytesOf(Class<?> platformClass) throws IOException {
        try (InputStream in = platformClass.getResourceAsStream(platformClass.getSimpleName() + ".class")) {
            return in.readAllBytes();
        }
    }

    private static WebAppClassLoader loader(ClassVisibility visibility) throws IOException {
        return new WebAppClassLoader("/test", WebAppClassLoader.classPathOf(root), WebAppClassLoaderTest.class.getClassLoader(), visibility);
    }

    @Test
    void theClassPathIsClassesThenTheJarsInNameOrder() throws Exception {
        Files.createDirectories(root.resolve("WEB-INF/lib/zz.jar.d"));
        assertEquals(List.of(root.resolve("WEB-INF/classes"), root.resolve("WEB-INF/lib/app.jar")), WebAppClassLoader.classPathOf(root));
    }

    @Test
    void theApplicationsOwnClassWinsOverTheParents() throws Exception {
        try (WebAppClassLoader loader = loader(ClassVisibility.DEFAULT)) {
            Class<?> greeting = loader.loadClass("webapps.shadow.Greeting");
            assertSame(loader, greeting.getClassLoader());
            assertEquals("webapp", greeting.getDeclaredConstructor().newInstance().toString());
            assertEquals("parent", new Greeting().toString(), "the test's own copy is another class");
            assertSame(loader, loader.loadClass("javax.inject.Named").getClassLoader(), "a javax package the JDK lacks is the application's");
        }
    }

    @Test
    void servletApiContainerAndPlatformClassesAlwaysComeFromTheParent() throws Exception {
        try (WebAppClassLoader loader = loader(ClassVisibility.DEFAULT)) {
            assertSame(GenericServlet.class, loader.loadClass("jakarta.servlet.GenericServlet"));
            assertSame(Gate.class, loader.loadClass("io.wharf.webapp.Gate"));
            assertSame(javax.xml.XMLConstants.class, loader.loadClass("javax.xml.XMLConstants"));
            assertSame(String.class, loader.loadClass("java.lang.String"));
        }
    }

    @Test
    void extraSystemAndServerPrefixesAreHonoured() throws Exception {
        try (WebAppClassLoader loader = loader(ClassVisibility.DEFAULT.withSystemPrefixes("webapps.shadow."))) {
            assertSame(Greeting.class, loader.loadClass("webapps.shadow.Greeting"));
        }
        try (WebAppClassLoader loader = loader(ClassVisibility.DEFAULT)) {
            assertSame(Test.class, loader.loadClass("org.junit.jupiter.api.Test"), "a class the application lacks is the parent's");
        }
        try (WebAppClassLoader loader = loader(ClassVisibility.DEFAULT.withServerPrefixes("org.junit.", "webapps.shadow."))) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("org.junit.jupiter.api.Test"),
                "a server class the application lacks is not taken from the parent");
            assertSame(loader, loader.loadClass("webapps.shadow.Greeting").getClassLoader(), "a server class the application has is its own");
        }
        try (WebAppClassLoader loader = loader(ClassVisibility.DEFAULT)) {
            assertThrows(ClassNotFoundException.class, () -> loader.loadClass("org.objectweb.asm.ClassReader"),
                "the container's ASM is hidden by default");
        }
    }

    @Test
    void resourcesFollowTheSameOrder() throws Exception {
        try (WebAppClassLoader loader = loader(ClassVisibility.DEFAULT)) {
            URL greeting = loader.getResource("webapps/shadow/Greeting.class");
            assertTrue(greeting.toString().startsWith("jar:file:") && greeting.toString().contains("app.jar!/"), greeting.toString());
            List<URL> all = Collections.list(loader.getResources("webapps/shadow/Greeting.class"));
            assertEquals(2, all.size(), all.toString());
            assertEquals(greeting, all.get(0), "the application's first");

            URL servlet = loader.getResource("jakarta/servlet/GenericServlet.class");
            assertEquals(GenericServlet.class.getResource("GenericServlet.class"), servlet, "the parent's first for the Servlet API");
            List<URL> servlets = Collections.list(loader.getResources("jakarta/servlet/GenericServlet.class"));
            assertEquals(servlet, servlets.get(0));
            assertNotNull(loader.getResource("META-INF/app.txt"));
            assertEquals(null, loader.getResource("org/objectweb/asm/ClassReader.class"), "a server class's resource is hidden too");
        }
    }

    @Test
    void closingClosesTheJars() throws Exception {
        WebAppClassLoader loader = loader(ClassVisibility.DEFAULT);
        loader.loadClass("webapps.shadow.Greeting");
        try (InputStream in = loader.getResourceAsStream("META-INF/app.txt")) {
            assertEquals("the application's", new String(in.readAllBytes()));
        }
        loader.close();
        assertThrows(ClassNotFoundException.class, () -> loader.loadClass("javax.inject.Named"));
        try (Stream<Path> open = Files.list(Path.of("/proc/self/fd"))) {
            assertTrue(open.noneMatch(fd -> {
                try {
                    return Files.readSymbolicLink(fd).toString().endsWith("app.jar");
                } catch (IOException e) {
                    return false;
                }
            }), "no file descriptor is left on the jar");
        }
    }
}
