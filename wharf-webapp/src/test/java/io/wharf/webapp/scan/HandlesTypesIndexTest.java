package io.wharf.webapp.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import io.wharf.webapp.scan.fixtures.BasePlugin;
import io.wharf.webapp.scan.fixtures.ConcretePlugin;
import io.wharf.webapp.scan.fixtures.MarkedClass;
import io.wharf.webapp.scan.fixtures.MarkedField;
import io.wharf.webapp.scan.fixtures.MarkedMembers;
import io.wharf.webapp.scan.fixtures.Marker;
import io.wharf.webapp.scan.fixtures.PlainFilter;
import io.wharf.webapp.scan.fixtures.Plugin;
import io.wharf.webapp.scan.fixtures.SampleFilter;
import io.wharf.webapp.scan.fixtures.SampleListener;
import io.wharf.webapp.scan.fixtures.SampleServlet;
import io.wharf.webapp.scan.fixtures.ValueServlet;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** HandlesTypesIndex over the fixtures: subtypes through the scanned hierarchy and beyond it, annotations on classes and members. */
class HandlesTypesIndexTest {

    private static HandlesTypesIndex index;

    @BeforeAll
    static void scan() throws Exception {
        ScanResult fixtures = new AnnotationScanner(Optional.empty(), 1).scanDirectory(Fixtures.fixturesDirectory());
        index = new HandlesTypesIndex(List.of(fixtures), HandlesTypesIndexTest.class.getClassLoader());
    }

    @Test
    void findsImplementationsDirectAndThroughASuperclass() {
        assertEquals(Set.of(BasePlugin.class.getName(), ConcretePlugin.class.getName()), index.classesFor(Set.of(Plugin.class.getName())));
        assertEquals(Set.of(ConcretePlugin.class.getName()), index.classesFor(Set.of(BasePlugin.class.getName())));
    }

    @Test
    void findsAnnotatedClassesAndMembers() {
        assertEquals(Set.of(MarkedClass.class.getName(), MarkedMembers.class.getName(), MarkedField.class.getName()),
            index.classesFor(Set.of(Marker.class.getName())));
    }

    @Test
    void walksUpThroughSupertypesThatWereNotScanned() {
        // SampleServlet extends HttpServlet extends GenericServlet implements Servlet, none of them scanned.
        assertEquals(Set.of(SampleServlet.class.getName(), ValueServlet.class.getName()), index.classesFor(Set.of("jakarta.servlet.Servlet")));
        assertEquals(Set.of(SampleFilter.class.getName(), PlainFilter.class.getName()), index.classesFor(Set.of("jakarta.servlet.Filter")));
    }

    @Test
    void aPlatformTypeAskedForIsFoundThroughTheTypesAbove() {
        // SampleListener implements ServletContextListener, which extends java.util.EventListener.
        assertEquals(Set.of(SampleListener.class.getName()), index.classesFor(Set.of("java.util.EventListener")));
    }

    /** Classes made here: a chain of 50 interfaces, a class on each, and one beside them; each answer walked once, every one right. */
    @Test
    void aDeepSharedHierarchyIsAnsweredForEveryClass() {
        List<ScannedClass> classes = new java.util.ArrayList<>();
        for (int i = 0; i < 50; i++) {
            List<String> above = i == 0 ? List.of() : List.of("chain.Level" + (i - 1));
            classes.add(scanned("chain.Level" + i, Optional.empty(), above));
            classes.add(scanned("chain.Impl" + i, Optional.of("java.lang.Object"), List.of("chain.Level" + i, "java.io.Serializable")));
        }
        classes.add(scanned("chain.Unrelated", Optional.of("java.lang.Object"), List.of("java.io.Serializable")));
        HandlesTypesIndex chain = new HandlesTypesIndex(List.of(new ScanResult("chain", classes, false)), getClass().getClassLoader());
        Set<String> expected = new java.util.TreeSet<>();
        for (int i = 10; i < 50; i++) {
            expected.add("chain.Impl" + i);
            if (i > 10) {
                expected.add("chain.Level" + i);
            }
        }
        expected.add("chain.Impl10");
        assertEquals(expected, chain.classesFor(Set.of("chain.Level10")));
        Set<String> serializable = new java.util.TreeSet<>(Set.of("chain.Unrelated"));
        for (int i = 0; i < 50; i++) {
            serializable.add("chain.Impl" + i);
        }
        assertEquals(serializable, chain.classesFor(Set.of("java.io.Serializable")), "a platform type asked for, outside the scan");
    }

    private static ScannedClass scanned(String name, Optional<String> superName, List<String> interfaces) {
        return new ScannedClass(name, superName, interfaces, List.of(), List.of(), false, Optional.empty(), Optional.empty(), false,
            Optional.empty(), Optional.empty());
    }

    /**
     * Random hierarchies of scanned classes over supertypes inside and outside the scan (the
     * container's HttpServlet and Filter, the JDK's Serializable), with annotations: every
     * answer is the one a walk up from each class gives, for wanted types in and out of the scan.
     */
    @Test
    void answersAsAWalkUpFromEachClassWould() throws Exception {
        List<String> outsideTypes = List.of("jakarta.servlet.http.HttpServlet", "jakarta.servlet.Filter", "java.io.Serializable",
            "java.lang.Object", "jakarta.servlet.ServletContextListener");
        List<List<String>> questions = List.of(List.of("jakarta.servlet.Servlet"), List.of("java.util.EventListener"),
            List.of("jakarta.servlet.Filter", "gen.T3"), List.of("gen.T1"), List.of("gen.A0", "gen.T0"), List.of("java.io.Serializable"));
        for (long seed = 1; seed <= 30; seed++) {
            java.util.Random random = new java.util.Random(seed);
            Map<String, ScannedClass> classes = new java.util.LinkedHashMap<>();
            for (int i = 0; i < 120; i++) {
                String name = "gen.T" + i;
                List<String> earlier = new java.util.ArrayList<>(classes.keySet());
                String superName = random.nextInt(3) == 0 || earlier.isEmpty() ? outsideTypes.get(random.nextInt(outsideTypes.size()))
                    : earlier.get(random.nextInt(earlier.size()));
                List<String> interfaces = new java.util.ArrayList<>();
                for (int k = random.nextInt(3); k > 0; k--) {
                    interfaces.add(earlier.isEmpty() || random.nextBoolean() ? outsideTypes.get(random.nextInt(outsideTypes.size()))
                        : earlier.get(random.nextInt(earlier.size())));
                }
                List<String> annotations = random.nextInt(5) == 0 ? List.of("gen.A" + random.nextInt(2)) : List.of();
                List<String> members = random.nextInt(7) == 0 ? List.of("gen.A" + random.nextInt(2)) : List.of();
                classes.put(name, new ScannedClass(name, Optional.of(superName), interfaces, annotations, members, false, Optional.empty(),
                    Optional.empty(), false, Optional.empty(), Optional.empty()));
            }
            HandlesTypesIndex generated = new HandlesTypesIndex(List.of(new ScanResult("gen", List.copyOf(classes.values()), false)),
                getClass().getClassLoader());
            for (List<String> question : questions) {
                Set<String> types = Set.copyOf(question);
                Set<String> expected = new java.util.TreeSet<>();
                for (ScannedClass type : classes.values()) {
                    boolean marked = type.annotations().stream().anyMatch(types::contains) || type.memberAnnotations().stream().anyMatch(types::contains);
                    if (!types.contains(type.name()) && (marked || reachesByWalkingUp(type.name(), types, classes))) {
                        expected.add(type.name());
                    }
                }
                assertEquals(expected, generated.classesFor(types), "seed " + seed + ", " + question);
            }
        }
    }

    /** The plain definition: some supertype, in the scan or loaded from the class path, is wanted. */
    private static boolean reachesByWalkingUp(String type, Set<String> types, Map<String, ScannedClass> classes) throws Exception {
        List<String> above = new java.util.ArrayList<>();
        ScannedClass scannedType = classes.get(type);
        if (scannedType != null) {
            scannedType.superName().ifPresent(above::add);
            above.addAll(scannedType.interfaces());
        } else {
            Class<?> loaded = Class.forName(type, false, HandlesTypesIndexTest.class.getClassLoader());
            if (loaded.getSuperclass() != null) {
                above.add(loaded.getSuperclass().getName());
            }
            for (Class<?> implemented : loaded.getInterfaces()) {
                above.add(implemented.getName());
            }
        }
        for (String supertype : above) {
            if (types.contains(supertype) || reachesByWalkingUp(supertype, types, classes)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void severalTypesAtOnceAndUnknownOnes() {
        assertEquals(Set.of(ConcretePlugin.class.getName(), MarkedClass.class.getName(), MarkedMembers.class.getName(), MarkedField.class.getName()),
            index.classesFor(Set.of(BasePlugin.class.getName(), Marker.class.getName())));
        assertEquals(Set.of(), index.classesFor(Set.of("com.example.Nothing")));
    }
}
