package io.wharf.webapp.scan;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.ArrayList;
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
import io.wharf.webapp.scan.internal.PlatformPackages;

/**
 * Answers {@code @HandlesTypes} (Servlet 6.1 section 8.2.4) over scanned classes: given the type
 * names a ServletContainerInitializer declares, which scanned classes extend or implement one of
 * them, directly or through other types, or carry one of them as an annotation on the class, a
 * field, a method or a constructor. A supertype that was not scanned (HttpServlet, say) is read
 * as a class file from {@code supertypes}, still without loading it, so a class that extends
 * HttpServlet is found for {@code jakarta.servlet.Servlet}; the platform's (the JDK's) types,
 * which extend only platform types, are read only when a platform type is asked for. A type is
 * not reported for itself.
 *
 * <p><b>How.</b> Built once: each type's direct subtypes among the scanned classes, and the
 * scanned classes that carry each annotation. A question then walks down from the wanted types,
 * and from the supertypes outside the scan that reach one of them (walked up once each), so it
 * costs what the answer holds plus one look at each such outside type, not a walk per scanned
 * class: a Spring application's 28,000 classes took about 600 ms per initializer the old way,
 * on a deployment's cold JVM.
 *
 * <p>Built once by the deployer; {@link #classesFor} may then be called from any thread
 * (it synchronizes on the supertypes it reads).
 */
public final class HandlesTypesIndex {

    private final Map<String, ScannedClass> scanned = new HashMap<>();
    private final Map<String, Optional<ScannedClass>> outside = new HashMap<>();
    /** Each type's direct subtypes among the scanned classes. */
    private final Map<String, List<String>> subtypes = new HashMap<>();
    /** The scanned classes that carry each annotation, on the class or a member. */
    private final Map<String, List<String>> annotated = new HashMap<>();
    /** The supertypes of scanned classes that were not scanned themselves. */
    private final Set<String> outsideSupertypes = new HashSet<>();
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
        for (ScannedClass type : scanned.values()) {
            for (String supertype : directSupertypes(type)) {
                subtypes.computeIfAbsent(supertype, key -> new ArrayList<>(2)).add(type.name());
            }
            Set<String> carried = new HashSet<>(type.annotations());
            carried.addAll(type.memberAnnotations());
            for (String annotation : carried) {
                annotated.computeIfAbsent(annotation, key -> new ArrayList<>(2)).add(type.name());
            }
        }
        for (String supertype : subtypes.keySet()) {
            if (!scanned.containsKey(supertype)) {
                outsideSupertypes.add(supertype);
            }
        }
        this.supertypes = supertypes;
    }

    /** @return the names of the scanned classes that extend, implement or are annotated with one of {@code types}, sorted */
    public Set<String> classesFor(Set<String> types) {
        Reach reach = new Reach(types);
        Deque<String> pending = new ArrayDeque<>(types);
        for (String type : outsideSupertypes) {
            if (!types.contains(type) && reach.reaches(type)) {
                pending.push(type);
            }
        }
        Set<String> visited = new HashSet<>(pending);
        Set<String> found = new TreeSet<>();
        while (!pending.isEmpty()) {
            for (String subtype : subtypes.getOrDefault(pending.pop(), List.of())) {
                if (visited.add(subtype)) {
                    pending.push(subtype);
                    if (!types.contains(subtype)) {
                        found.add(subtype);
                    }
                }
            }
        }
        for (String type : types) {
            for (String carrier : annotated.getOrDefault(type, List.of())) {
                if (!types.contains(carrier)) {
                    found.add(carrier);
                }
            }
        }
        return found;
    }

    /**
     * Whether a type is one of the wanted types or has one among its supertypes, answered once
     * per type for one {@link #classesFor} call: the classes of a jar share most of their
     * supertypes, so each is walked once, not once per subclass. A platform type's supertypes are
     * platform types, so unless a platform type is wanted the walk stops at the platform without
     * reading its class files. A cycle (which no loadable hierarchy has) ends the walk as a "no".
     */
    private final class Reach {

        private final Set<String> types;
        private final boolean platformWanted;
        private final Map<String, Boolean> known = new HashMap<>();

        Reach(Set<String> types) {
            this.types = types;
            this.platformWanted = types.stream().anyMatch(PlatformPackages::containsClass);
        }

        /** @return whether {@code start} is a wanted type or a subtype of one */
        boolean reaches(String start) {
            Boolean answer = known.get(start);
            if (answer != null) {
                return answer;
            }
            Deque<String> pending = new ArrayDeque<>();
            Set<String> expanded = new HashSet<>();
            pending.push(start);
            while (!pending.isEmpty()) {
                String type = pending.peek();
                if (known.containsKey(type)) {
                    pending.pop();
                } else if (types.contains(type)) {
                    known.put(type, true);
                    pending.pop();
                } else if (type.equals("java.lang.Object") || !platformWanted && PlatformPackages.containsClass(type)) {
                    known.put(type, false);
                    pending.pop();
                } else if (expanded.add(type)) {
                    // First visit: its supertypes are answered first, then it is visited again.
                    for (String supertype : supertypesOf(type)) {
                        if (!known.containsKey(supertype) && !expanded.contains(supertype)) {
                            pending.push(supertype);
                        }
                    }
                } else {
                    known.put(type, supertypesOf(type).stream().anyMatch(supertype -> known.getOrDefault(supertype, false)));
                    pending.pop();
                }
            }
            return known.get(start);
        }

        private List<String> supertypesOf(String type) {
            return lookUp(type).map(HandlesTypesIndex::directSupertypes).orElse(List.of());
        }
    }

    private static List<String> directSupertypes(ScannedClass type) {
        return type.superName().map(superName -> {
            List<String> all = new ArrayList<>(type.interfaces());
            all.add(0, superName);
            return all;
        }).orElse(type.interfaces());
    }

    private Optional<ScannedClass> lookUp(String type) {
        ScannedClass known = scanned.get(type);
        if (known != null) {
            return Optional.of(known);
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
