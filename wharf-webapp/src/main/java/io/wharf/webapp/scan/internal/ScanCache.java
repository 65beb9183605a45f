package io.wharf.webapp.scan.internal;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.scan.ScannedClass;
import io.wharf.webapp.scan.ServletSecurityAnnotation;
import io.wharf.webapp.scan.WebFilterAnnotation;
import io.wharf.webapp.scan.WebServletAnnotation;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.annotation.ServletSecurity.EmptyRoleSemantic;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;

/**
 * The scanner's cache: for each jar, keyed by its {@link JarKey} (a SHA-256 of its length and zip
 * central directory), one file {@code <hash>.scan} holding the jar's {@link ScannedClass}es. The file is a magic line, a
 * format version, the hash again, the classes written field by field with length-prefixed
 * UTF-8 strings, and last the SHA-256 of all that. A file whose digest, hash, version or
 * structure does not check out is not trusted: {@link #read} answers empty and the jar is
 * scanned again. Files are written to a temporary name and moved into place, so scanning
 * threads (and processes) sharing the directory never see half a file.
 */
public final class ScanCache {

    private static final String MAGIC = "wharf-webapp-scan";
    private static final int VERSION = 1;
    private static final int DIGEST_LENGTH = 32;
    /** A larger file is not read: no jar's scan comes near it. */
    private static final long MAX_ENTRY_BYTES = 256L * 1024 * 1024;

    private final Path directory;

    /** @param directory where the files are, created if missing */
    public ScanCache(Path directory) {
        this.directory = directory;
    }

    /** @return the file that holds the scan of the jar with this hash */
    public Path fileFor(String hash) {
        return directory.resolve(hash + ".scan");
    }

    /** @return the cached classes of the jar with this hash; empty when there is no entry or it does not check out */
    public Optional<List<ScannedClass>> read(String hash) {
        Path file = fileFor(hash);
        try {
            if (!Files.isRegularFile(file) || Files.size(file) > MAX_ENTRY_BYTES) {
                return Optional.empty();
            }
            byte[] bytes = Files.readAllBytes(file);
            if (bytes.length < DIGEST_LENGTH) {
                return Optional.empty();
            }
            byte[] payload = Arrays.copyOf(bytes, bytes.length - DIGEST_LENGTH);
            if (!MessageDigest.isEqual(newDigest().digest(payload), Arrays.copyOfRange(bytes, payload.length, bytes.length))) {
                return Optional.empty();
            }
            Reader reader = new Reader(payload);
            if (!reader.string().equals(MAGIC) || reader.in.readInt() != VERSION || !reader.string().equals(hash)) {
                return Optional.empty();
            }
            List<ScannedClass> classes = reader.list(Reader::scannedClass);
            return reader.in.available() == 0 ? Optional.of(classes) : Optional.empty();
        } catch (IOException | RuntimeException e) {
            // Unreadable or not what this format writes: scan the jar again.
            return Optional.empty();
        }
    }

    /** Stores the classes of the jar with this hash, replacing any entry. */
    public void write(String hash, List<ScannedClass> classes) throws IOException {
        Files.createDirectories(directory);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Writer writer = new Writer(new DataOutputStream(bytes));
        writer.string(MAGIC);
        writer.out.writeInt(VERSION);
        writer.string(hash);
        writer.list(classes, writer::scannedClass);
        writer.out.flush();
        bytes.write(newDigest().digest(bytes.toByteArray()));
        Path temporary = Files.createTempFile(directory, hash, ".tmp");
        try {
            Files.write(temporary, bytes.toByteArray());
            try {
                Files.move(temporary, fileFor(hash), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, fileFor(hash), StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    static MessageDigest newDigest() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Something the writer can write, which may fail with an IOException. */
    private interface Part<T> {
        void write(T value) throws IOException;
    }

    /** Something the reader can read. */
    private interface Parse<T> {
        T read(Reader reader) throws IOException;
    }

    private static final class Writer {
        final DataOutputStream out;

        Writer(DataOutputStream out) {
            this.out = out;
        }

        void string(String value) throws IOException {
            byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
            out.writeInt(utf8.length);
            out.write(utf8);
        }

        <T> void list(List<T> values, Part<T> part) throws IOException {
            out.writeInt(values.size());
            for (T value : values) {
                part.write(value);
            }
        }

        <T> void optional(Optional<T> value, Part<T> part) throws IOException {
            out.writeBoolean(value.isPresent());
            if (value.isPresent()) {
                part.write(value.get());
            }
        }

        void strings(List<String> values) throws IOException {
            list(values, this::string);
        }

        void map(Map<String, String> map) throws IOException {
            out.writeInt(map.size());
            for (Map.Entry<String, String> entry : map.entrySet()) {
                string(entry.getKey());
                string(entry.getValue());
            }
        }

        void scannedClass(ScannedClass scanned) throws IOException {
            string(scanned.name());
            optional(scanned.superName(), this::string);
            strings(scanned.interfaces());
            strings(scanned.annotations());
            strings(scanned.memberAnnotations());
            out.writeBoolean(scanned.referencesJavaxServlet());
            optional(scanned.webServlet(), servlet -> {
                string(servlet.name());
                strings(servlet.urlPatterns());
                optional(servlet.loadOnStartup(), out::writeInt);
                map(servlet.initParams());
                optional(servlet.asyncSupported(), out::writeBoolean);
            });
            optional(scanned.webFilter(), filter -> {
                string(filter.filterName());
                strings(filter.urlPatterns());
                strings(filter.servletNames());
                strings(filter.dispatcherTypes().stream().map(DispatcherType::name).toList());
                map(filter.initParams());
                optional(filter.asyncSupported(), out::writeBoolean);
            });
            out.writeBoolean(scanned.webListener());
            optional(scanned.multipartConfig(), multipart -> {
                string(multipart.location());
                out.writeLong(multipart.maxFileSize());
                out.writeLong(multipart.maxRequestSize());
                out.writeInt(multipart.fileSizeThreshold());
            });
            optional(scanned.servletSecurity(), security -> {
                constraint(security.defaultConstraint());
                list(security.methodConstraints(), method -> {
                    string(method.method());
                    constraint(method.constraint());
                });
            });
        }

        void constraint(ServletSecurityAnnotation.Constraint constraint) throws IOException {
            string(constraint.emptyRoleSemantic().name());
            string(constraint.transportGuarantee().name());
            strings(constraint.rolesAllowed());
        }
    }

    private static final class Reader {
        final DataInputStream in;

        Reader(byte[] payload) {
            this.in = new DataInputStream(new ByteArrayInputStream(payload));
        }

        /** @return a count or length, which cannot exceed the bytes left */
        int count() throws IOException {
            int count = in.readInt();
            if (count < 0 || count > in.available()) {
                throw new EOFException("count " + count + " beyond the entry");
            }
            return count;
        }

        String string() throws IOException {
            return new String(in.readNBytes(count()), StandardCharsets.UTF_8);
        }

        <T> List<T> list(Parse<T> parse) throws IOException {
            int count = count();
            List<T> values = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                values.add(parse.read(this));
            }
            return values;
        }

        <T> Optional<T> optional(Parse<T> parse) throws IOException {
            return in.readBoolean() ? Optional.of(parse.read(this)) : Optional.empty();
        }

        List<String> strings() throws IOException {
            return list(Reader::string);
        }

        Map<String, String> map() throws IOException {
            int count = count();
            Map<String, String> map = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                map.put(string(), string());
            }
            return map;
        }

        <E extends Enum<E>> List<E> constants(Class<E> type) throws IOException {
            return strings().stream().map(name -> Enum.valueOf(type, name)).toList();
        }

        ScannedClass scannedClass() throws IOException {
            return new ScannedClass(string(), optional(Reader::string), strings(), strings(), strings(), in.readBoolean(),
                optional(reader -> new WebServletAnnotation(reader.string(), reader.strings(), reader.optional(r -> r.in.readInt()),
                    reader.map(), reader.optional(r -> r.in.readBoolean()))),
                optional(reader -> new WebFilterAnnotation(reader.string(), reader.strings(), reader.strings(),
                    reader.constants(DispatcherType.class), reader.map(), reader.optional(r -> r.in.readBoolean()))),
                in.readBoolean(),
                optional(reader -> new MultipartConfig(reader.string(), reader.in.readLong(), reader.in.readLong(), reader.in.readInt())),
                optional(reader -> new ServletSecurityAnnotation(reader.constraint(),
                    reader.list(r -> new ServletSecurityAnnotation.MethodConstraint(r.string(), r.constraint())))));
        }

        ServletSecurityAnnotation.Constraint constraint() throws IOException {
            return new ServletSecurityAnnotation.Constraint(Enum.valueOf(EmptyRoleSemantic.class, string()),
                Enum.valueOf(TransportGuarantee.class, string()), strings());
        }
    }
}
