package io.wharf.webapp.scan;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

import io.wharf.webapp.scan.internal.ClassFileReader;

/**
 * Answers {@code @HandlesTypes} (Servlet 6.1 section 8.2.4) over scanned classes: given the type
 * names a ServletContainerInitializer declares, which scanned classes extend or implement one of
 * them, directly or through other types, or carry one of them as an annotation on the class, a
 * field, a method or a constructor. A supertype that was not scanned (HttpServlet, say) is read
 * as a class file from {@code supertypes}, still without loading it, so a class that extends
 * HttpServlet is found for {@code jakarta.servlet.Servlet}. A type is not reported for itself.
 *
 * <p>Built once by the deployer; {@link #classesFor} may then be called from any thread
 * (it synchronizes on the supertypes it reads).
 */
public final class HandlesTypesIndex {

    private final Map<String, ScannedClass> scanned = new HashMap<>();
    private final Map<String, Optional<ScannedClass>> outside = new HashMap<>();
    private final ClassLoader supertypes;

    /**
     * @param results the scans of WEB-INF/classes and the jars
     * @param supertypes where to read the class files of supertypes that were not scanned (the
     *     container's and the platform's), as resources
     */
    public HandlesTypesIndex(Collection<ScanResult> results, ClassLoader supertypes) {
        for (ScanResult result : results) {
            for (ScannedClass scannedClass : result.classes()) {
                this.scanned.putIfAbsent(scannedClass.name(), scannedClass);
            }
        }
        this.supertypes = supertypes;
    }

    /** @return the names of the scanned classes that extend, implement or are annotated with one of {@code types}, sorted */
    public Set<String> classesFor(Set<String> types) {
        Set<String> found = new TreeSet<>();
        for (ScannedClass candidate : scanned.values()) {
            if (types.contains(candidate.name())) {
                continue;
            }
            if (candidate.annotations().stream().anyMatch(types::contains)
                || candidate.memberAnnotations().stream().anyMatch(types::contains)
                || hasSupertypeIn(candidate, types)) {
                found.add(candidate.name());
            }
        }
        return found;
    }

    private boolean hasSupertypeIn(ScannedClass candidate, Set<String> types) {
        Deque<String> pending = new ArrayDeque<>(directSupertypes(candidate));
        Set<String> seen = new HashSet<>();
        while (!pending.isEmpty()) {
            String type = pending.pop();
            if (!seen.add(type)) {
                continue;
            }
            if (types.contains(type)) {
                return true;
            }
            lookUp(type).ifPresent(supertype -> pending.addAll(directSupertypes(supertype)));
        }
        return false;
    }

    private static List<String> directSupertypes(ScannedClass type) {
        return type.superName().map(superName -> {
            List<String> all = new java.util.ArrayList<>(type.interfaces());
            all.add(0, superName);
            return all;
        }).orElse(type.interfaces());
    }

    private Optional<ScannedClass> lookUp(String type) {
        ScannedClass known = scanned.get(type);
        if (known != null) {
            return Optional.of(known);
        }
        if (type.equals("java.lang.Object")) {
            return Optional.empty();
        }
        synchronized (outside) {
            return outside.computeIfAbsent(type, this::readOutside);
        }
    }

    private Optional<ScannedClass> readOutside(String type) {
        String resource = type.replace('.', '/') + ".class";
        try (InputStream in = supertypes.getResourceAsStream(resource)) {
            return in == null ? Optional.empty() : Optional.of(ClassFileReader.read(resource, in.readAllBytes()));
        } catch (IOException | RuntimeException e) {
            // A supertype that cannot be read ends the walk up that branch.
            return Optional.empty();
        }
    }
}
