package io.wharf.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The module exports nothing yet (its API package has no type so far), requires the Servlet API transitively and wharf-http for its path specs. */
class ModuleDescriptorTest {

    @Test
    void exportsNothingYet() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(ServletMappings.class);
        assertEquals("io.wharf.servlet", descriptor.name());
        assertEquals(Set.of(), ModuleExports.unqualifiedExports(descriptor));
        assertEquals(Set.of(), descriptor.exports());
    }

    @Test
    void requiresTheServletApiTransitivelyAndWharfHttp() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(ServletMappings.class);
        assertEquals(Set.of("io.wharf.http"), ModuleExports.wharfRequires(descriptor));
        ModuleDescriptor.Requires servlet = descriptor.requires().stream()
            .filter(required -> required.name().equals("jakarta.servlet"))
            .findFirst().orElseThrow();
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.TRANSITIVE), servlet.modifiers());
        ModuleDescriptor.Requires http = descriptor.requires().stream()
            .filter(required -> required.name().equals("io.wharf.http"))
            .findFirst().orElseThrow();
        assertEquals(Set.of(), http.modifiers(), "the path specs stay out of the container's API");
        assertEquals(3, descriptor.requires().size(), descriptor.requires().toString());
    }
}
