package io.wharf.jsp.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.util.List;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/**
 * The module exports its API package only, requires the servlet container transitively (the
 * API takes a {@code ServletContextHandler}), and provides its initializer to
 * {@link java.util.ServiceLoader} on the module path as its {@code META-INF/services} file does
 * on the class path.
 */
class ModuleDescriptorTest {

    @Test
    void exportsTheApiPackageOnlyAndProvidesTheInitializer() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(JasperSetup.class);
        assertEquals("io.wharf.jsp", descriptor.name());
        assertEquals(Set.of("io.wharf.jsp"), ModuleExports.unqualifiedExports(descriptor));
        ModuleDescriptor.Provides provides = descriptor.provides().stream().findFirst().orElseThrow();
        assertEquals(1, descriptor.provides().size());
        assertEquals("jakarta.servlet.ServletContainerInitializer", provides.service());
        assertEquals(List.of("io.wharf.jsp.JspInitializer"), provides.providers());
    }

    @Test
    void requiresTheServletContainerTransitivelyAndJasper() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(JasperSetup.class);
        assertEquals(Set.of("io.wharf.servlet"), ModuleExports.wharfRequires(descriptor));
        ModuleDescriptor.Requires servlet = descriptor.requires().stream()
            .filter(requires -> requires.name().equals("io.wharf.servlet")).findFirst().orElseThrow();
        assertTrue(servlet.modifiers().contains(ModuleDescriptor.Requires.Modifier.TRANSITIVE));
        assertTrue(descriptor.requires().stream().anyMatch(requires -> requires.name().equals("org.mortbay.apache.jasper")));
    }
}
