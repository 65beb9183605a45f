package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(EndPoint.class);
        assertEquals("io.wharf.io", descriptor.name());
        assertEquals(Set.of("io.wharf.io", "io.wharf.io.ssl", "io.wharf.io.connect"), ModuleExports.unqualifiedExports(descriptor));
    }
}
