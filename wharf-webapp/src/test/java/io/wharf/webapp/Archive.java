package io.wharf.webapp;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

/**
 * Test helper: the entries of a WAR or a jar, built from text, bytes and compiled test classes,
 * written as a zip file or as an exploded directory. Entry names are written as given, so a test
 * can also build a hostile archive ({@code ../evil}).
 */
final class Archive {

    private final Map<String, byte[]> entries = new LinkedHashMap<>();

    /** Adds an entry. */
    Archive add(String name, byte[] bytes) {
        entries.put(name, bytes);
        return this;
    }

    /** @return the entries, in order */
    Map<String, byte[]> entries() {
        return Map.copyOf(entries);
    }

    /** Adds a UTF-8 text entry. */
    Archive text(String name, String text) {
        return add(name, text.getBytes(StandardCharsets.UTF_8));
    }

    /** Adds WEB-INF/web.xml: a Jakarta EE 6.1 web-app around {@code body}. */
    Archive webXml(String body) {
        return text("WEB-INF/web.xml", """
            <?xml version="1.0" encoding="UTF-8"?>
            <web-app xmlns="https://jakarta.ee/xml/ns/jakartaee" version="6.1">
            %s
            </web-app>
            """.formatted(body));
    }

    /** Adds the class files of compiled test classes (and their member classes) under {@code prefix} ("WEB-INF/classes/" or ""). */
    Archive classes(String prefix, Class<?>... types) {
        for (Class<?> type : types) {
            add(prefix + type.getName().replace('.', '/') + ".class", classBytes(type));
            classes(prefix, type.getDeclaredClasses());
        }
        return this;
    }

    /** Adds another archive as a jar entry ({@code WEB-INF/lib/x.jar}). */
    Archive jar(String name, Archive jar) {
        return add(name, jar.bytes());
    }

    /** @return the archive as zip bytes */
    byte[] bytes() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(bytes)) {
            write(zip);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Writes the archive as a zip file, its modification time {@code modified} (so a rewrite is a change). */
    Path writeZip(Path file, FileTime modified) throws IOException {
        Files.createDirectories(file.toAbsolutePath().getParent());
        Path partial = file.resolveSibling("." + file.getFileName() + ".partial");
        try (OutputStream out = Files.newOutputStream(partial); ZipOutputStream zip = new ZipOutputStream(out)) {
            write(zip);
        }
        Files.setLastModifiedTime(partial, modified);
        return Files.move(partial, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Writes the archive as a zip file. */
    Path writeZip(Path file) throws IOException {
        return writeZip(file, FileTime.fromMillis(System.currentTimeMillis()));
    }

    /** Writes the entries as files under {@code directory}. */
    Path writeDirectory(Path directory) throws IOException {
        for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
            Path file = directory.resolve(entry.getKey());
            Files.createDirectories(file.getParent());
            Files.write(file, entry.getValue());
        }
        return directory;
    }

    private void write(ZipOutputStream zip) throws IOException {
        for (Map.Entry<String, byte[]> entry : entries.entrySet()) {
            zip.putNextEntry(new ZipEntry(entry.getKey()));
            zip.write(entry.getValue());
            zip.closeEntry();
        }
    }

    /** @return the class file of a compiled test class */
    static byte[] classBytes(Class<?> type) {
        String simple = type.getName().substring(type.getName().lastIndexOf('.') + 1);
        try (InputStream in = type.getResourceAsStream(simple + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
