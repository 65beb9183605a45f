package io.wharf.util;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(Callback.class);
        assertEquals("io.wharf.util", descriptor.name());
        assertEquals(Set.of("io.wharf.util", "io.wharf.util.buffer", "io.wharf.util.component", "io.wharf.util.thread",
            "io.wharf.util.concurrent"),
            ModuleExports.unqualifiedExports(descriptor));
    }
}
