package io.wharf.http.form;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;

/**
 * One part of a {@code multipart/form-data} body: its form field name, its file name when it
 * is a file, its header fields and its content, held in memory when small and in a temporary
 * spool file when larger than {@link MultiPartLimits#spoolThresholdBytes()}.
 *
 * <p>Made by a {@link MultiPartFormParser}; owned by the {@link MultiPartForm} it returns,
 * which {@link #close() closes} every part. Methods may be called from any thread but one
 * thread at a time. The part owns its content: the in-memory bytes are never exposed, and
 * its spool file is deleted on {@link #close()} unless {@link #writeTo(Path)} moved it away.
 * I/O failures surface as {@link UncheckedIOException}.
 */
public final class Part implements AutoCloseable {

    private final String name;
    private final String fileName;
    private final HttpFields headers;
    private final long length;
    private PartContent content;

    Part(String name, String fileName, HttpFields headers, long length, PartContent content) {
        this.name = name;
        this.fileName = fileName;
        this.headers = headers;
        this.length = length;
        this.content = content;
    }

    /** @return the form field name from {@code Content-Disposition: form-data; name="..."} */
    public String getName() {
        return name;
    }

    /**
     * @return the file name from the {@code Content-Disposition} ({@code filename*} when
     *     present and readable, else {@code filename}) exactly as sent, possibly empty or a
     *     full client path: never use it as a path without cleaning it; null when the part is
     *     a plain field
     */
    public String getFileName() {
        return fileName;
    }

    /** @return whether the part is a file (it has a file name, possibly empty) */
    public boolean isFile() {
        return fileName != null;
    }

    /** @return the part's header fields, immutable */
    public HttpFields getHeaders() {
        return headers;
    }

    /** @return the part's {@code Content-Type}, or null when it has none (which means text/plain) */
    public String getContentType() {
        return headers.get(HttpHeader.CONTENT_TYPE);
    }

    /** @return the number of content bytes */
    public long getLength() {
        return length;
    }

    /** @return whether the content lives in a file rather than in memory */
    public boolean isSpooled() {
        return content instanceof PartContent.TemporaryFile || content instanceof PartContent.KeptFile;
    }

    /**
     * @return a new stream over the whole content, which the caller closes
     * @throws IllegalStateException when the part is closed
     */
    public InputStream newInputStream() {
        return switch (content) {
            case PartContent.InMemory memory -> new ByteArrayInputStream(memory.bytes());
            case PartContent.TemporaryFile file -> open(file.path());
            case PartContent.KeptFile file -> open(file.path());
            case PartContent.Released released -> throw closed();
        };
    }

    /**
     * @return the content read in {@code charset}, malformed bytes replaced
     * @throws IllegalStateException when the part is closed
     */
    public String getContentAsString(Charset charset) {
        Objects.requireNonNull(charset, "charset");
        return switch (content) {
            case PartContent.InMemory memory -> new String(memory.bytes(), charset);
            case PartContent.TemporaryFile file -> readString(file.path(), charset);
            case PartContent.KeptFile file -> readString(file.path(), charset);
            case PartContent.Released released -> throw closed();
        };
    }

    /**
     * Puts the content in the file {@code target}, which must not exist yet. A spooled part's
     * file is moved there (copied when another file system makes a move impossible); from then
     * on the part reads {@code target} and {@link #close()} leaves it alone.
     *
     * @throws UncheckedIOException when the file cannot be written, for example because it exists
     * @throws IllegalStateException when the part is closed
     */
    public void writeTo(Path target) {
        Objects.requireNonNull(target, "target");
        try {
            switch (content) {
                case PartContent.InMemory memory ->
                        Files.write(target, memory.bytes(), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                case PartContent.TemporaryFile file -> {
                    Files.move(file.path(), target);
                    content = new PartContent.KeptFile(target);
                }
                case PartContent.KeptFile file -> Files.copy(file.path(), target);
                case PartContent.Released released -> throw closed();
            }
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot write part content to " + target, failure);
        }
    }

    /** Releases the content and deletes the spool file, if any. Idempotent; never fails. */
    @Override
    public void close() {
        PartContent released = content;
        content = new PartContent.Released();
        if (released instanceof PartContent.TemporaryFile file) {
            try {
                Files.deleteIfExists(file.path());
            } catch (IOException ignored) {
                // nothing more can be done; the spool directory is the application's to sweep
            }
        }
    }

    @Override
    public String toString() {
        return "Part[name=" + name + ", fileName=" + fileName + ", length=" + length + ", " + content + "]";
    }

    private static InputStream open(Path path) {
        try {
            return Files.newInputStream(path);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read part content from " + path, failure);
        }
    }

    private static String readString(Path path, Charset charset) {
        try {
            return new String(Files.readAllBytes(path), charset);
        } catch (IOException failure) {
            throw new UncheckedIOException("cannot read part content from " + path, failure);
        }
    }

    private IllegalStateException closed() {
        return new IllegalStateException("part " + name + " is closed");
    }
}
