package io.wharf.websocket.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The core exports its API packages, not {@code io.wharf.websocket.internal}, and requires neither server nor client. */
class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(FrameParser.class);
        assertEquals("io.wharf.websocket", descriptor.name());
        assertEquals(Set.of("io.wharf.websocket.core", "io.wharf.websocket.api", "io.wharf.websocket.api.annotations",
            "io.wharf.websocket.deflate", "io.wharf.websocket.endpoint"), ModuleExports.unqualifiedExports(descriptor));
    }

    @Test
    void requiresNeitherServerNorClient() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(FrameParser.class);
        assertEquals(Set.of("io.wharf.io"), ModuleExports.wharfRequires(descriptor));
    }
}
