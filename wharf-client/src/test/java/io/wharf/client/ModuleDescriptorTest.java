package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(HttpClient.class);
        assertEquals("io.wharf.client", descriptor.name());
        assertEquals(Set.of("io.wharf.client", "io.wharf.client.auth", "io.wharf.client.reactive", "io.wharf.client.transport"), ModuleExports.unqualifiedExports(descriptor));
    }
}
