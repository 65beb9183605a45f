package io.wharf.webapp.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import io.wharf.webapp.scan.internal.ZipCentralDirectory;

/**
 * Which elements of a web application's class path may hold the classes of a package: built
 * once from the entry names in each jar's zip central directory (nothing else of the jar is
 * read), so that loading a class looks in the jars that have its package, not in each of the
 * sixty jars before it, and a class that no jar has is known missing at once. Directories
 * (WEB-INF/classes) and jars whose directory cannot be read are never indexed: they are looked in
 * for every package, in their place in the order. Class files under {@code META-INF/versions/N/}
 * count for their package, since a multi-release jar may hold a class only there.
 *
 * <p>Immutable once made; any thread may ask it.
 */
public final class ClassPathIndex {

    private static final byte[] VERSIONS = "META-INF/versions/".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CLASS = ".class".getBytes(StandardCharsets.US_ASCII);

    /** For each package (internal form, {@code a/b}; the unnamed one is empty): the elements to look in, in order. */
    private final Map<String, int[]> byPackage;
    /** The elements looked in for every package: those not indexed. */
    private final int[] always;

    private ClassPathIndex(Map<String, int[]> byPackage, int[] always) {
        this.byPackage = byPackage;
        this.always = always;
    }

    /** @return the index of {@code classPath}, whose elements are numbered in its order */
    public static ClassPathIndex of(List<Path> classPath) {
        Map<String, List<Integer>> found = new HashMap<>();
        List<Integer> always = new ArrayList<>();
        for (int element = 0; element < classPath.size(); element++) {
            Path path = classPath.get(element);
            List<String> packages = Files.isRegularFile(path) ? packagesOf(path) : null;
            if (packages == null) {
                always.add(element);
                continue;
            }
            for (String name : packages) {
                List<Integer> elements = found.computeIfAbsent(name, key -> new ArrayList<>(1));
                if (elements.isEmpty() || elements.get(elements.size() - 1) != element) {
                    elements.add(element);
                }
            }
        }
        Map<String, int[]> byPackage = new HashMap<>(found.size() * 2);
        found.forEach((name, elements) -> byPackage.put(name, merge(elements, always)));
        return new ClassPathIndex(byPackage, always.stream().mapToInt(Integer::intValue).toArray());
    }

    /** @return the elements that may hold classes of {@code packagePath} ({@code a/b}), in class path order; never modify it */
    public int[] candidates(String packagePath) {
        return byPackage.getOrDefault(packagePath, always);
    }

    private static int[] merge(List<Integer> indexed, List<Integer> always) {
        return java.util.stream.Stream.concat(indexed.stream(), always.stream()).mapToInt(Integer::intValue).sorted().distinct().toArray();
    }

    /** @return the packages that hold class files in the jar, each once; null when its central directory cannot be read */
    static List<String> packagesOf(Path jar) {
        byte[] directory;
        try (FileChannel channel = FileChannel.open(jar, StandardOpenOption.READ)) {
            long[] located = ZipCentralDirectory.locate(channel, channel.size());
            if (located == null) {
                return null;
            }
            directory = ZipCentralDirectory.read(channel, located[0], (int) located[1]);
        } catch (IOException e) {
            return null;
        }
        return packagesIn(directory);
    }

    /** @return the packages of the class files the central directory names, each once; null when it is malformed */
    static List<String> packagesIn(byte[] directory) {
        ByteBuffer entries = ByteBuffer.wrap(directory).order(ByteOrder.LITTLE_ENDIAN);
        List<String> packages = new ArrayList<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        int lastStart = 0;
        int lastEnd = -1;
        int at = 0;
        while (at + ZipCentralDirectory.ENTRY_LENGTH <= directory.length) {
            if (entries.getInt(at) != ZipCentralDirectory.ENTRY_SIGNATURE) {
                return null;
            }
            int nameLength = Short.toUnsignedInt(entries.getShort(at + 28));
            int next = at + ZipCentralDirectory.ENTRY_LENGTH + nameLength + Short.toUnsignedInt(entries.getShort(at + 30))
                + Short.toUnsignedInt(entries.getShort(at + 32));
            int start = at + ZipCentralDirectory.ENTRY_LENGTH;
            int end = start + nameLength;
            if (next > directory.length) {
                return null;
            }
            if (endsWith(directory, start, end, CLASS)) {
                int packageStart = start;
                if (startsWith(directory, start, end, VERSIONS)) {
                    // META-INF/versions/N/a/b/C.class is a class of a/b; without the slash after N, of none.
                    int slash = indexOfSlash(directory, start + VERSIONS.length, end);
                    packageStart = slash < 0 ? -1 : slash + 1;
                }
                if (packageStart >= 0) {
                    int packageEnd = lastSlash(directory, packageStart, end);
                    // Entries of one package mostly come together: a String only when it changes.
                    if (lastEnd < 0 || !Arrays.equals(directory, lastStart, lastEnd, directory, packageStart, packageEnd)) {
                        String name = new String(directory, packageStart, packageEnd - packageStart, StandardCharsets.UTF_8);
                        if (seen.add(name)) {
                            packages.add(name);
                        }
                        lastStart = packageStart;
                        lastEnd = packageEnd;
                    }
                }
            }
            at = next;
        }
        return at == directory.length ? packages : null;
    }

    /** @return the position of the last '/' in [start, end), or start when there is none (the unnamed package) */
    private static int lastSlash(byte[] bytes, int start, int end) {
        for (int i = end - 1; i >= start; i--) {
            if (bytes[i] == '/') {
                return i;
            }
        }
        return start;
    }

    private static int indexOfSlash(byte[] bytes, int start, int end) {
        for (int i = start; i < end; i++) {
            if (bytes[i] == '/') {
                return i;
            }
        }
        return -1;
    }

    private static boolean endsWith(byte[] bytes, int start, int end, byte[] suffix) {
        return end - start >= suffix.length && Arrays.equals(bytes, end - suffix.length, end, suffix, 0, suffix.length);
    }

    private static boolean startsWith(byte[] bytes, int start, int end, byte[] prefix) {
        return end - start >= prefix.length && Arrays.equals(bytes, start, start + prefix.length, prefix, 0, prefix.length);
    }
}
