package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(HttpField.class);
        assertEquals("io.wharf.http", descriptor.name());
        assertEquals(false, ModuleExports.unqualifiedExports(descriptor).contains("io.wharf.http.internal"));
        assertEquals(true, ModuleExports.unqualifiedExports(descriptor).contains("io.wharf.http"));
        assertEquals(true, ModuleExports.unqualifiedExports(descriptor).contains("io.wharf.http.form"));
    }
}
