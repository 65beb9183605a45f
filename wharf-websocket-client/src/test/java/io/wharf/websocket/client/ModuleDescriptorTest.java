package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The client part exports its one package and does not require Wharf's server. */
class ModuleDescriptorTest {

    @Test
    void exportsOnlyTheApi() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebSocketClient.class);
        assertEquals("io.wharf.websocket.client", descriptor.name());
        assertEquals(Set.of("io.wharf.websocket.client"), ModuleExports.unqualifiedExports(descriptor));
    }

    @Test
    void requiresNoServer() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebSocketClient.class);
        assertEquals(Set.of("io.wharf.websocket", "io.wharf.client", "io.wharf.http2"), ModuleExports.wharfRequires(descriptor));
    }
}
