package io.wharf.loadgen;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(LoadGenerator.class);
        assertEquals("io.wharf.loadgen", descriptor.name());
        assertEquals(Set.of("io.wharf.loadgen"), ModuleExports.unqualifiedExports(descriptor));
    }
}
