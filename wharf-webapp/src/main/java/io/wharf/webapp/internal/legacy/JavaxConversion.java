package io.wharf.webapp.internal.legacy;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.wharf.webapp.DeploymentException;
import io.wharf.webapp.internal.DirectoryTree;
import io.wharf.webapp.scan.internal.JarKey;

/**
 * The legacy javax mode for one deployment: a javax.servlet application's converted (Jakarta)
 * copy, made by the Eclipse Transformer ({@link EclipseTransformer}) or found in the cache.
 *
 * <p><b>The cache.</b> A copy is kept in {@code <cache>/<key>}, where the key is the SHA-256 of
 * the rules' revision and the source's content: a WAR's bytes, or an exploded directory's files
 * (each one's path, size and bytes, in path order). So a restart, or a redeploy of the same
 * content, reuses the copy without converting again, while a changed WAR (even one of the same
 * size and time) or changed rules make a new one. A copy is written under a staging name and
 * moved into place when complete, so a deployment (or another process sharing the directory)
 * never sees half of one; when two make the same copy at once, the first move wins and the other
 * is dropped. Copies are never deleted by Wharf: each converted version stays until the cache
 * directory is cleared, with the server stopped.
 *
 * <p>Used by {@link io.wharf.webapp.WebApplication#prepare} on the deploying thread.
 */
public final class JavaxConversion {

    /** Changes whenever the rules or the Transformer's version change, so that old copies are not reused. */
    private static final String RULES_REVISION = "wharf legacy-javax rules 1, org.eclipse.transformer 1.0.0";
    private static final String TRANSFORMER_CLASS = "org.eclipse.transformer.Transformer";
    private static final String TRANSFORMER_MODULE = "org.eclipse.transformer";
    private static final String MISSING = "the legacy javax mode needs the Eclipse Transformer: put org.eclipse.transformer:org.eclipse.transformer"
        + " (1.0.0) and its dependencies (biz.aQute.bnd:biz.aQute.bnd.transform, org.slf4j:slf4j-api) on the class path"
        + " (or the module path, with --add-modules " + TRANSFORMER_MODULE + ")";

    private final Path source;
    private final Path cacheDirectory;
    private String key;

    /**
     * @param source the WAR or exploded directory being deployed
     * @param cacheDirectory where converted copies are kept, made when missing
     */
    public JavaxConversion(Path source, Path cacheDirectory) {
        this.source = source;
        this.cacheDirectory = cacheDirectory;
    }

    /** @return the converted copy of the source that an earlier deployment of the same content left in the cache */
    public Optional<Path> cached() throws IOException {
        Path copy = cacheDirectory.resolve(key());
        return Files.isDirectory(copy) ? Optional.of(copy) : Optional.empty();
    }

    /**
     * @param root the source, exploded (the extracted WAR, or the directory itself)
     * @return the converted copy: from the cache, or made now
     * @throws DeploymentException when the Transformer is missing, when classes refer to both
     *     javax.servlet and jakarta.servlet (naming one of each), or when the Transformer fails
     *     (with its errors, which name the file)
     */
    public Path convert(Path root) throws IOException {
        Optional<Path> cached = cached();
        if (cached.isPresent()) {
            return cached.get();
        }
        requireTransformer(JavaxConversion.class.getModule(), JavaxConversion.class.getClassLoader());
        ServletApiUse use = ServletApiUse.of(root);
        if (use.mixed()) {
            throw new DeploymentException(source + " mixes the two Servlet APIs: " + use.firstJavax().get() + " refers to javax.servlet and "
                + use.firstJakarta().get() + " to jakarta.servlet; the legacy javax mode converts only applications written"
                + " entirely for javax.servlet (leave the jakarta classes out, or convert the javax ones beforehand)");
        }
        Files.createDirectories(cacheDirectory);
        Path copy = cacheDirectory.resolve(key());
        Path staging = Files.createTempDirectory(cacheDirectory, ".staging-");
        try {
            EclipseTransformer.convert(source.toString(), root, staging);
            moveIntoPlace(staging, copy);
            return copy;
        } catch (LinkageError e) {
            throw new DeploymentException(MISSING + " (" + e + ")", e);
        } finally {
            DirectoryTree.delete(staging);
        }
    }

    /** Moves the finished copy to its key; when another deployment got there first, that copy stays and this one is dropped. */
    private static void moveIntoPlace(Path staging, Path copy) throws IOException {
        try {
            Files.move(staging, copy, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            // The same content, converted at the same time by another deployment.
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("the legacy javax cache " + copy.getParent() + " cannot take an atomic move of " + staging, e);
        }
    }

    /**
     * @param module the module that would call the Transformer
     * @param loader the class loader that would load it
     * @throws DeploymentException saying what to add when the Transformer cannot be reached
     */
    static void requireTransformer(Module module, ClassLoader loader) {
        boolean present;
        if (module.isNamed()) {
            ModuleLayer layer = module.getLayer();
            present = layer != null && layer.findModule(TRANSFORMER_MODULE).filter(module::canRead).isPresent();
        } else {
            try {
                Class.forName(TRANSFORMER_CLASS, false, loader);
                present = true;
            } catch (ClassNotFoundException | LinkageError e) {
                present = false;
            }
        }
        if (!present) {
            throw new DeploymentException(MISSING);
        }
    }

    private String key() throws IOException {
        if (key == null) {
            MessageDigest digest = sha256();
            digest.update(RULES_REVISION.getBytes(StandardCharsets.UTF_8));
            if (Files.isRegularFile(source)) {
                digest.update(JarKey.sha256(source).getBytes(StandardCharsets.US_ASCII));
            } else {
                List<Path> files;
                try (Stream<Path> walk = Files.walk(source)) {
                    files = walk.filter(Files::isRegularFile).sorted().toList();
                }
                for (Path file : files) {
                    digest.update(source.relativize(file).toString().getBytes(StandardCharsets.UTF_8));
                    digest.update(ByteBuffer.allocate(Long.BYTES + 1).put((byte) 0).putLong(Files.size(file)).flip());
                    digest.update(JarKey.sha256(file).getBytes(StandardCharsets.US_ASCII));
                }
            }
            key = HexFormat.of().formatHex(digest.digest());
        }
        return key;
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
