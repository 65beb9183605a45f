package io.wharf.servlet.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/**
 * The module exports its API packages only (the container and its security), and requires the Servlet API and the server
 * transitively: the API's types ({@code ServletContextHandler} is a core {@code Handler} and
 * hands out {@code ServletContext}) come from both.
 */
class ModuleDescriptorTest {

    @Test
    void exportsTheApiPackagesOnly() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(ServletMappings.class);
        assertEquals("io.wharf.servlet", descriptor.name());
        assertEquals(Set.of("io.wharf.servlet", "io.wharf.servlet.security"), ModuleExports.unqualifiedExports(descriptor));
    }

    @Test
    void requiresTheServletApiAndTheServerTransitively() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(ServletMappings.class);
        assertEquals(Set.of("io.wharf.server"), ModuleExports.wharfRequires(descriptor));
        for (String name : Set.of("jakarta.servlet", "io.wharf.server")) {
            ModuleDescriptor.Requires required = descriptor.requires().stream()
                .filter(requires -> requires.name().equals(name))
                .findFirst().orElseThrow();
            assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.TRANSITIVE), required.modifiers(), name);
        }
        // java.base, the two above, and java.naming for certificate subjects.
        assertEquals(4, descriptor.requires().size(), descriptor.requires().toString());
    }
}
