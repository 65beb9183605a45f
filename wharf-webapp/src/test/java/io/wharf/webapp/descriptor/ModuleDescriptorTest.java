package io.wharf.webapp.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;
import java.util.stream.Collectors;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/**
 * The module exports its deployment API, its model and its scanner, no internal package (but the
 * java: URL factory to JNDI alone), and needs of Wharf only the servlet container.
 */
class ModuleDescriptorTest {

    @Test
    void exportsTheApiTheModelAndTheScannerAndNeedsOnlyTheServletContainer() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebDescriptor.class);
        assertEquals("io.wharf.webapp", descriptor.name());
        assertEquals(Set.of("io.wharf.webapp", "io.wharf.webapp.descriptor", "io.wharf.webapp.scan"), ModuleExports.unqualifiedExports(descriptor));
        assertEquals(Set.of("io.wharf.servlet"), ModuleExports.wharfRequires(descriptor));
        assertEquals(Set.of("java.naming"), descriptor.exports().stream()
            .filter(ModuleDescriptor.Exports::isQualified)
            .flatMap(export -> export.targets().stream())
            .collect(Collectors.toSet()));
    }
}
