package io.wharf.webapp.internal;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSigner;
import java.security.CodeSource;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipFile;

/**
 * One element of a web application's class path, a jar or a directory, as the class loader
 * reads classes from it: the class file's bytes and signers, the element's manifest (for the
 * package's specification and implementation attributes) and its code source. A jar is opened
 * on first use, multi-release aware at the running JDK's version and verifying signatures, as
 * the JDK's URLClassLoader opens it; {@link #close()} closes it, after which the element holds
 * nothing.
 *
 * <p>Any thread may read through it (a {@link JarFile} is safe for concurrent reads); opening
 * and closing synchronize on it.
 */
public final class ClassPathElement implements Closeable {

    /** A class file read from an element: its bytes, and the signers of its entry (null when unsigned). */
    public record ClassFile(byte[] bytes, CodeSigner[] signers) {
    }

    private final Path path;
    private final URL url;
    private final boolean directory;
    private final CodeSource unsigned;
    private JarFile jar;
    private Manifest manifest;
    private boolean manifestRead;
    private boolean closed;

    /** @param url {@code path} as a URL, as the loader lists it */
    public ClassPathElement(Path path, URL url) {
        this.path = path;
        this.url = url;
        this.directory = Files.isDirectory(path);
        this.unsigned = new CodeSource(url, (CodeSigner[]) null);
    }

    public URL url() {
        return url;
    }

    /** @return the class file at {@code resource} ({@code a/b/C.class}), or null when this element does not hold it */
    public ClassFile read(String resource) throws IOException {
        if (directory) {
            Path file = path.resolve(resource);
            return Files.isRegularFile(file) ? new ClassFile(Files.readAllBytes(file), null) : null;
        }
        JarFile opened = jar();
        if (opened == null) {
            return null;
        }
        JarEntry entry = opened.getJarEntry(resource);
        if (entry == null) {
            return null;
        }
        byte[] bytes;
        try (InputStream in = opened.getInputStream(entry)) {
            bytes = in.readAllBytes();
        }
        // Known once the entry was read whole.
        return new ClassFile(bytes, entry.getCodeSigners());
    }

    /**
     * @return the URL of the class file at {@code resource} ({@code a/b/C.class}, made of
     *     characters a URL path takes as they are), as the JDK's loader would give it, or null
     *     when this element does not hold it
     */
    public URL find(String resource) throws IOException {
        try {
            if (directory) {
                return Files.isRegularFile(path.resolve(resource)) ? url.toURI().resolve(resource).toURL() : null;
            }
            JarFile opened = jar();
            return opened == null || opened.getJarEntry(resource) == null ? null : URI.create("jar:" + url + "!/" + resource).toURL();
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IOException("no URL for " + resource + " in " + url + ": " + e.getMessage(), e);
        }
    }

    /** @return whether this is a multi-release jar, whose entries' URLs the JDK's loader marks for the running version */
    public boolean isMultiRelease() throws IOException {
        JarFile opened = directory ? null : jar();
        return opened != null && opened.isMultiRelease();
    }

    /** @return the jar's manifest, or null for a directory or a jar without one */
    public synchronized Manifest manifest() throws IOException {
        if (!manifestRead) {
            JarFile opened = directory ? null : jar();
            manifest = opened == null ? null : opened.getManifest();
            manifestRead = true;
        }
        return manifest;
    }

    /** @return where a class read with {@code signers} comes from */
    public CodeSource codeSource(CodeSigner[] signers) {
        return signers == null ? unsigned : new CodeSource(url, signers);
    }

    private synchronized JarFile jar() throws IOException {
        if (jar == null && !closed && !directory) {
            jar = new JarFile(path.toFile(), true, ZipFile.OPEN_READ, JarFile.runtimeVersion());
        }
        return jar;
    }

    @Override
    public synchronized void close() throws IOException {
        closed = true;
        manifest = null;
        if (jar != null) {
            JarFile open = jar;
            jar = null;
            open.close();
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
