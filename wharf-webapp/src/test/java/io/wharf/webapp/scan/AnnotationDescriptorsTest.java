package io.wharf.webapp.scan;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Optional;

import io.wharf.webapp.descriptor.DescriptorException;
import io.wharf.webapp.descriptor.DescriptorKind;
import io.wharf.webapp.descriptor.FilterDefinition;
import io.wharf.webapp.descriptor.FilterMapping;
import io.wharf.webapp.descriptor.MultipartConfig;
import io.wharf.webapp.descriptor.ServletDefinition;
import io.wharf.webapp.descriptor.ServletMapping;
import io.wharf.webapp.descriptor.WebDescriptor;
import io.wharf.webapp.scan.fixtures.PlainFilter;
import io.wharf.webapp.scan.fixtures.SampleFilter;
import io.wharf.webapp.scan.fixtures.SampleListener;
import io.wharf.webapp.scan.fixtures.SampleServlet;
import io.wharf.webapp.scan.fixtures.ValueServlet;

import jakarta.servlet.DispatcherType;

import org.junit.jupiter.api.Test;

/** AnnotationDescriptors: the fixtures' annotations as descriptor entries. */
class AnnotationDescriptorsTest {

    @Test
    void turnsAnnotationsIntoEntries() throws Exception {
        ScanResult scan = new AnnotationScanner(Optional.empty(), 1).scanDirectory(Fixtures.fixturesDirectory());
        WebDescriptor entries = AnnotationDescriptors.of(scan);
        assertEquals(DescriptorKind.ANNOTATIONS, entries.kind());
        assertEquals(new ServletDefinition("sample", Optional.of(SampleServlet.class.getName()), Optional.empty(), Map.of("a", "1", "b", "2"),
            Optional.of(2), Optional.of(true), Optional.empty(), Optional.of(new MultipartConfig("/tmp/up", 1024, -1, 16)), Optional.empty(),
            List.of()), entries.servlet("sample").orElseThrow());
        assertEquals(ServletDefinition.of(ValueServlet.class.getName(), ValueServlet.class.getName()),
            entries.servlet(ValueServlet.class.getName()).orElseThrow(), "named after its class");
        assertEquals(List.of(new ServletMapping("sample", List.of("/sample", "/s/*")), new ServletMapping(ValueServlet.class.getName(), List.of("/value"))),
            entries.servletMappings());
        assertEquals(new FilterDefinition("audit", Optional.of(SampleFilter.class.getName()), Map.of("level", "high"), Optional.empty()),
            entries.filter("audit").orElseThrow());
        assertEquals(List.of(
            new FilterMapping(PlainFilter.class.getName(), List.of("/plain/*"), List.of(), List.of(DispatcherType.REQUEST)),
            new FilterMapping("audit", List.of("/*"), List.of("sample"), List.of(DispatcherType.FORWARD, DispatcherType.ERROR))),
            entries.filterMappings());
        assertEquals(List.of(SampleListener.class.getName()), entries.listeners());
    }

    @Test
    void twoClassesClaimingOneServletNameIsAnError() {
        ScannedClass one = servletClass("com.example.One", "same");
        ScannedClass two = servletClass("com.example.Two", "same");
        DescriptorException failure = assertThrows(DescriptorException.class,
            () -> AnnotationDescriptors.of(new ScanResult("WEB-INF/classes", List.of(one, two), false)));
        assertEquals("WEB-INF/classes: @WebServlet name 'same' is used by both com.example.One and com.example.Two", failure.getMessage());
    }

    private static ScannedClass servletClass(String className, String servletName) {
        return new ScannedClass(className, Optional.of("jakarta.servlet.http.HttpServlet"), List.of(), List.of(), List.of(), false,
            Optional.of(new WebServletAnnotation(servletName, List.of("/x"), Optional.empty(), Map.of(), Optional.empty())),
            Optional.empty(), false, Optional.empty(), Optional.empty());
    }
}
