package io.wharf.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The module exports nothing yet (its API package has no type so far) and requires only the Servlet API, transitively. */
class ModuleDescriptorTest {

    @Test
    void exportsNothingYet() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(UrlPattern.class);
        assertEquals("io.wharf.servlet", descriptor.name());
        assertEquals(Set.of(), ModuleExports.unqualifiedExports(descriptor));
        assertEquals(Set.of(), descriptor.exports());
    }

    @Test
    void requiresOnlyTheServletApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(UrlPattern.class);
        assertEquals(Set.of(), ModuleExports.wharfRequires(descriptor));
        ModuleDescriptor.Requires servlet = descriptor.requires().stream()
            .filter(required -> !required.name().equals("java.base"))
            .findFirst().orElseThrow();
        assertEquals("jakarta.servlet", servlet.name());
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.TRANSITIVE), servlet.modifiers());
        assertEquals(2, descriptor.requires().size(), descriptor.requires().toString());
    }
}
