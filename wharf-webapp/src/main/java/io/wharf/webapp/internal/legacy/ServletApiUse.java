package io.wharf.webapp.internal.legacy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipException;
import java.util.zip.ZipFile;

import io.wharf.webapp.DeploymentException;
import io.wharf.webapp.scan.AnnotationScanner;
import io.wharf.webapp.scan.internal.ClassFileReader;

/**
 * Which Servlet API the class files of an exploded application refer to: of those in
 * WEB-INF/classes and in the WEB-INF/lib jars, in path order, the first that names a
 * {@code javax.servlet} type and the first that names a {@code jakarta.servlet} type (a name in
 * the constant pool, as {@link ClassFileReader#contains} reads it; no class is parsed). Made on
 * the deploying thread before a conversion, so that an application holding both is refused rather
 * than half converted, and for the refusal of a javax application, to name one of its classes.
 *
 * @param firstJavax where the first class referring to javax.servlet is ("WEB-INF/lib/a.jar!/x/A.class")
 * @param firstJakarta where the first class referring to jakarta.servlet is
 */
public record ServletApiUse(Optional<String> firstJavax, Optional<String> firstJakarta) {

    private static final byte[] JAVAX = "javax/servlet/".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] JAKARTA = "jakarta/servlet/".getBytes(StandardCharsets.US_ASCII);

    /** @return whether classes refer to both APIs */
    public boolean mixed() {
        return firstJavax.isPresent() && firstJakarta.isPresent();
    }

    /**
     * @param root the exploded application
     * @throws DeploymentException naming a WEB-INF/lib jar that is not a zip file, or a class file over the scanner's bound
     */
    public static ServletApiUse of(Path root) throws IOException {
        Finder finder = new Finder();
        Path classes = root.resolve("WEB-INF/classes");
        if (Files.isDirectory(classes)) {
            List<Path> files;
            try (Stream<Path> walk = Files.walk(classes)) {
                files = walk.filter(file -> file.toString().endsWith(".class") && Files.isRegularFile(file)).sorted().toList();
            }
            for (Path file : files) {
                try (InputStream in = Files.newInputStream(file)) {
                    finder.look(root.relativize(file).toString(), in);
                }
            }
        }
        for (Path jar : jars(root.resolve("WEB-INF/lib"))) {
            String name = root.relativize(jar).toString();
            try (ZipFile zip = new ZipFile(jar.toFile())) {
                List<? extends ZipEntry> entries = zip.stream()
                    .filter(entry -> !entry.isDirectory() && entry.getName().endsWith(".class"))
                    .sorted(Comparator.<ZipEntry, String>comparing(ZipEntry::getName))
                    .toList();
                for (ZipEntry entry : entries) {
                    try (InputStream in = zip.getInputStream(entry)) {
                        finder.look(name + "!/" + entry.getName(), in);
                    }
                }
            } catch (ZipException e) {
                throw new DeploymentException(name + " is not a jar (" + e.getMessage() + "); the legacy javax mode cannot convert it", e);
            }
        }
        return new ServletApiUse(Optional.ofNullable(finder.javax), Optional.ofNullable(finder.jakarta));
    }

    private static List<Path> jars(Path lib) throws IOException {
        if (!Files.isDirectory(lib)) {
            return List.of();
        }
        try (Stream<Path> files = Files.list(lib)) {
            return files.filter(file -> file.toString().endsWith(".jar") && Files.isRegularFile(file)).sorted().toList();
        }
    }

    /** Remembers the first class file of each API. */
    private static final class Finder {
        private String javax;
        private String jakarta;

        void look(String where, InputStream in) throws IOException {
            if (javax != null && jakarta != null) {
                return;
            }
            byte[] bytes = in.readNBytes(AnnotationScanner.MAX_CLASS_FILE_BYTES + 1);
            if (bytes.length > AnnotationScanner.MAX_CLASS_FILE_BYTES) {
                throw new DeploymentException(where + ": class file larger than " + AnnotationScanner.MAX_CLASS_FILE_BYTES + " bytes");
            }
            if (javax == null && ClassFileReader.contains(bytes, JAVAX)) {
                javax = where;
            }
            if (jakarta == null && ClassFileReader.contains(bytes, JAKARTA)) {
                jakarta = where;
            }
        }
    }
}
