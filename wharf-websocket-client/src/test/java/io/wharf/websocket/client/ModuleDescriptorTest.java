package io.wharf.websocket.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.module.ModuleDescriptor;
import java.util.Set;

import io.wharf.testing.ModuleExports;

import org.junit.jupiter.api.Test;

/** The client part exports its one package, does not require Wharf's server, and requires HTTP/2 only statically. */
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

    /** Only sessions over HTTP/2 need wharf-http2: a client over HTTP/1.1 runs without it on its module path. */
    @Test
    void requiresHttp2OnlyStatically() throws Exception {
        ModuleDescriptor descriptor = ModuleExports.descriptorOf(WebSocketClient.class);
        ModuleDescriptor.Requires http2 = descriptor.requires().stream()
            .filter(requires -> requires.name().equals("io.wharf.http2"))
            .findFirst().orElseThrow();
        assertEquals(Set.of(ModuleDescriptor.Requires.Modifier.STATIC), http2.modifiers(), http2.toString());
    }
}
