package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The module exports its API packages, not {@code io.wharf.websocket.internal}. */
class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebSocketClient.class);
        assertEquals("io.wharf.websocket", descriptor.name());
        assertEquals(Set.of("io.wharf.websocket.core", "io.wharf.websocket.api", "io.wharf.websocket.api.annotations", "io.wharf.websocket.server",
            "io.wharf.websocket.deflate", "io.wharf.websocket.client"), ModuleExports.unqualifiedExports(descriptor));
    }
}
