package io.wharf.websocket.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The server part exports its one package and does not require Wharf's client. */
class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebSocketUpgradeHandler.class);
        assertEquals("io.wharf.websocket.server", descriptor.name());
        assertEquals(Set.of("io.wharf.websocket.server"), ModuleExports.unqualifiedExports(descriptor));
    }

    @Test
    void requiresNoClient() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebSocketUpgradeHandler.class);
        assertEquals(Set.of("io.wharf.websocket", "io.wharf.server"), ModuleExports.wharfRequires(descriptor));
    }
}
