package io.wharf.webapp.scan;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

import io.wharf.webapp.descriptor.DescriptorException;
import io.wharf.webapp.scan.internal.ClassFileReader;
import io.wharf.webapp.scan.internal.JarKey;
import io.wharf.webapp.scan.internal.ScanCache;

/**
 * Reads the class files of WEB-INF/classes and of WEB-INF/lib jars with ASM, never loading a
 * class, into {@link ScanResult}s. The deployer calls it on its thread; {@link #scanJars} reads
 * jars in parallel on at most {@code threads} threads of its own, which it starts and stops
 * within the call. With a cache directory, a jar's classes are stored under its {@link JarKey} (a
 * SHA-256 of its zip central directory, which holds each entry's CRC-32) and read back the next
 * time a jar with that key is scanned; an entry that does not check out is ignored and
 * rewritten. A directory is always read afresh.
 *
 * <p>Multi-release jars are read at their base version only ({@code META-INF/versions/} is
 * skipped), and {@code module-info.class} is skipped. A class file larger than {@value
 * #MAX_CLASS_FILE_BYTES} bytes, or one ASM cannot read, fails the scan with a message naming it.
 */
public final class AnnotationScanner {

    /** The largest class file read (after inflation): 16 MiB. */
    public static final int MAX_CLASS_FILE_BYTES = 16 * 1024 * 1024;

    private final Optional<ScanCache> cache;
    private final int threads;

    /**
     * @param cacheDirectory where scans of jars are cached, or empty for no cache
     * @param threads the most jars read at once
     */
    public AnnotationScanner(Optional<Path> cacheDirectory, int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1: " + threads);
        }
        this.cache = cacheDirectory.map(ScanCache::new);
        this.threads = threads;
    }

    /** @return the classes of a directory tree such as WEB-INF/classes, in path order; none when it does not exist */
    public ScanResult scanDirectory(Path directory) throws IOException {
        if (!Files.isDirectory(directory)) {
            return new ScanResult(directory.toString(), List.of(), false);
        }
        List<Path> files;
        try (Stream<Path> walk = Files.walk(directory)) {
            files = walk.filter(ClassFiles::isScanned).filter(Files::isRegularFile).sorted(Comparator.comparing(Path::toString)).toList();
        }
        List<ScannedClass> classes = new ArrayList<>();
        for (Path file : files) {
            try (InputStream in = Files.newInputStream(file)) {
                classes.add(ClassFileReader.read(file.toString(), ClassFiles.readBounded(in, Files.size(file), file.toString())));
            }
        }
        return new ScanResult(directory.toString(), classes, false);
    }

    /** @return the classes of one jar, from the cache when it holds them */
    public ScanResult scanJar(Path jar) throws IOException {
        if (cache.isEmpty()) {
            return new ScanResult(jar.toString(), readJar(jar), false);
        }
        String hash = JarKey.of(jar);
        Optional<List<ScannedClass>> cached = cache.get().read(hash);
        if (cached.isPresent()) {
            return new ScanResult(jar.toString(), cached.get(), true);
        }
        List<ScannedClass> classes = readJar(jar);
        cache.get().write(hash, classes);
        return new ScanResult(jar.toString(), classes, false);
    }

    /** @return the results of {@link #scanJar} for each jar, in the order given, read on up to {@code threads} threads */
    public List<ScanResult> scanJars(List<Path> jars) throws IOException {
        if (jars.size() <= 1 || threads == 1) {
            List<ScanResult> results = new ArrayList<>();
            for (Path jar : jars) {
                results.add(scanJar(jar));
            }
            return results;
        }
        ExecutorService executor = Executors.newFixedThreadPool(Math.min(threads, jars.size()), new ScanThreads());
        try {
            List<Future<ScanResult>> futures = new ArrayList<>();
            for (Path jar : jars) {
                futures.add(executor.submit(() -> scanJar(jar)));
            }
            List<ScanResult> results = new ArrayList<>();
            for (Future<ScanResult> future : futures) {
                results.add(join(future));
            }
            return results;
        } finally {
            executor.shutdownNow();
        }
    }

    private static ScanResult join(Future<ScanResult> future) throws IOException {
        try {
            return future.get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while scanning jars", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof IOException io) {
                throw io;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new IOException(cause);
        }
    }

    private static List<ScannedClass> readJar(Path jar) throws IOException {
        List<ScannedClass> classes = new ArrayList<>();
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            List<ZipEntry> entries = new ArrayList<>();
            for (Enumeration<? extends ZipEntry> all = zip.entries(); all.hasMoreElements(); ) {
                ZipEntry entry = all.nextElement();
                if (!entry.isDirectory() && ClassFiles.isScanned(entry.getName())) {
                    entries.add(entry);
                }
            }
            entries.sort(Comparator.comparing(ZipEntry::getName));
            for (ZipEntry entry : entries) {
                String where = jar + "!/" + entry.getName();
                try (InputStream in = zip.getInputStream(entry)) {
                    // A reference to javax.servlet from a library is no sign of a javax application: not searched for.
                    classes.add(ClassFileReader.read(where, ClassFiles.readBounded(in, entry.getSize(), where), false));
                }
            }
        }
        return classes;
    }

    /** Which files are class files to scan, and reading one within the bound. */
    private static final class ClassFiles {

        static boolean isScanned(Path file) {
            return isScanned(file.getFileName().toString());
        }

        static boolean isScanned(String name) {
            return name.endsWith(".class") && !name.endsWith("module-info.class") && !name.startsWith("META-INF/versions/");
        }

        /**
         * @param size the length the file or entry says it has, or -1 when unknown: read into an
         *     array of exactly that length, where reading up to the bound would fill and copy a
         *     buffer per class
         */
        static byte[] readBounded(InputStream in, long size, String where) throws IOException {
            if (size > MAX_CLASS_FILE_BYTES) {
                throw new DescriptorException(where + ": class file larger than " + MAX_CLASS_FILE_BYTES + " bytes");
            }
            if (size >= 0) {
                byte[] bytes = in.readNBytes((int) size);
                if (bytes.length != size) {
                    throw new DescriptorException(where + ": class file of " + size + " bytes ends after " + bytes.length);
                }
                return bytes;
            }
            byte[] bytes = in.readNBytes(MAX_CLASS_FILE_BYTES + 1);
            if (bytes.length > MAX_CLASS_FILE_BYTES) {
                throw new DescriptorException(where + ": class file larger than " + MAX_CLASS_FILE_BYTES + " bytes");
            }
            return bytes;
        }
    }

    /** Names the scanning threads and keeps them from holding the JVM up. */
    private static final class ScanThreads implements ThreadFactory {
        private final AtomicInteger count = new AtomicInteger();

        @Override
        public Thread newThread(Runnable task) {
            Thread thread = new Thread(task, "wharf-scan-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        }
    }
}
