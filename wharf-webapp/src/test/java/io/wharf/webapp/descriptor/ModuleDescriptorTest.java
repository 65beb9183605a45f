package io.wharf.webapp.descriptor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The module exports its class loader, its model and its scanner, no internal package, and needs no other Wharf module. */
class ModuleDescriptorTest {

    @Test
    void exportsTheLoaderTheModelAndTheScannerAndNeedsNoWharfModule() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebDescriptor.class);
        assertEquals("io.wharf.webapp", descriptor.name());
        assertEquals(Set.of("io.wharf.webapp", "io.wharf.webapp.descriptor", "io.wharf.webapp.scan"), ModuleExports.unqualifiedExports(descriptor));
        assertEquals(Set.of(), ModuleExports.wharfRequires(descriptor));
    }
}
