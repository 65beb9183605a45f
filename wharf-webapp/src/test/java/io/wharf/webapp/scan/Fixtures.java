package io.wharf.webapp.scan;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;

import io.wharf.webapp.scan.fixtures.SampleServlet;

import org.objectweb.asm.AnnotationVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Opcodes;

/** Test helper: the compiled fixture classes, jars made of them, and a class file that refers to javax.servlet. */
public final class Fixtures {

    private Fixtures() {
    }

    /** @return target/test-classes */
    public static Path testClasses() {
        try {
            return Path.of(SampleServlet.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** @return the directory of the compiled io.wharf.webapp.scan.fixtures classes */
    public static Path fixturesDirectory() {
        return testClasses().resolve("io/wharf/webapp/scan/fixtures");
    }

    /** @return the class file of a compiled test class */
    public static byte[] classBytes(Class<?> type) {
        try (InputStream in = type.getResourceAsStream(type.getSimpleName() + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a jar holding the fixture classes (at their package paths) and the extra entries.
     *
     * @return the jar
     */
    public static Path jar(Path jar, Map<String, byte[]> extraEntries) throws IOException {
        Files.createDirectories(jar.getParent());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out);
             Stream<Path> files = Files.list(fixturesDirectory())) {
            for (Path file : files.sorted().toList()) {
                zip.putNextEntry(new JarEntry("io/wharf/webapp/scan/fixtures/" + file.getFileName()));
                zip.write(Files.readAllBytes(file));
                zip.closeEntry();
            }
            for (Map.Entry<String, byte[]> entry : extraEntries.entrySet()) {
                zip.putNextEntry(new JarEntry(entry.getKey()));
                zip.write(entry.getValue());
                zip.closeEntry();
            }
        }
        return jar;
    }

    /** Writes a jar holding only the given entries. */
    public static Path jarOf(Path jar, Map<String, byte[]> entries) throws IOException {
        Files.createDirectories(jar.getParent());
        try (OutputStream out = Files.newOutputStream(jar); JarOutputStream zip = new JarOutputStream(out)) {
            for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
                zip.putNextEntry(new JarEntry(entry.getKey()));
                zip.write(entry.getValue());
                zip.closeEntry();
            }
        }
        return jar;
    }

    /** @return the class file of {@code legacy.LegacyServlet extends javax.servlet.http.HttpServlet}, made with ASM */
    public static byte[] javaxServletClass() {
        return emptyClass("legacy/LegacyServlet", "javax/servlet/http/HttpServlet", List.of());
    }

    /** @return the class file of {@code @javax.servlet.annotation.WebServlet("/legacy") legacy.LegacyServlet extends javax.servlet.http.HttpServlet} */
    public static byte[] javaxWebServletClass() {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V21, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, "legacy/LegacyServlet", null, "javax/servlet/http/HttpServlet", null);
        AnnotationVisitor annotation = writer.visitAnnotation("Ljavax/servlet/annotation/WebServlet;", true);
        annotation.visitArray("value").visit(null, "/legacy");
        annotation.visitEnd();
        writer.visitEnd();
        return writer.toByteArray();
    }

    /** @return the class file of an empty public class with this internal name, superclass and interfaces */
    public static byte[] emptyClass(String internalName, String superName, List<String> interfaces) {
        ClassWriter writer = new ClassWriter(0);
        writer.visit(Opcodes.V21, Opcodes.ACC_PUBLIC | Opcodes.ACC_SUPER, internalName, null, superName, interfaces.toArray(String[]::new));
        writer.visitEnd();
        return writer.toByteArray();
    }
}
