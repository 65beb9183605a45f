package io.wharf.webapp.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
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
    void severalTypesAtOnceAndUnknownOnes() {
        assertEquals(Set.of(ConcretePlugin.class.getName(), MarkedClass.class.getName(), MarkedMembers.class.getName(), MarkedField.class.getName()),
            index.classesFor(Set.of(BasePlugin.class.getName(), Marker.class.getName())));
        assertEquals(Set.of(), index.classesFor(Set.of("com.example.Nothing")));
    }
}
