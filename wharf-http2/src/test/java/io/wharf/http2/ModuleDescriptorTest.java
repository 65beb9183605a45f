package io.wharf.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

class ModuleDescriptorTest {

    @Test
    void exportsTheCodecsAndTheSession() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(HpackDecoder.class);
        assertEquals("io.wharf.http2", descriptor.name());
        assertEquals(Set.of("io.wharf.http2.hpack", "io.wharf.http2.frames", "io.wharf.http2.session"), ModuleExports.unqualifiedExports(descriptor));
    }
}
