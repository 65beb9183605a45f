package io.wharf.tests.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

/**
 * Resolves the WebSocket parts on a module path that lacks the other side, as a user's build
 * would: the client part with every Wharf module but {@code wharf-server} and
 * {@code wharf-websocket-server}, the server part with every one but {@code wharf-client} and
 * {@code wharf-websocket-client}. Resolution fails (FindException) if anything in the part's
 * {@code requires} closure needs a missing module.
 */
class ModulePathTest {

    @Test
    void aWebSocketClientResolvesWithoutTheServer() throws Exception {
        Set<String> resolved = resolveWithout("io.wharf.websocket.client", "io.wharf.server", "io.wharf.websocket.server");
        assertTrue(resolved.contains("io.wharf.client"), resolved.toString());
        assertFalse(resolved.contains("io.wharf.server"), resolved.toString());
    }

    @Test
    void aWebSocketServerResolvesWithoutTheClient() throws Exception {
        Set<String> resolved = resolveWithout("io.wharf.websocket.server", "io.wharf.client", "io.wharf.websocket.client");
        assertTrue(resolved.contains("io.wharf.server"), resolved.toString());
        assertFalse(resolved.contains("io.wharf.client"), resolved.toString());
    }

    /** @return the modules that {@code root} resolves to with the Wharf modules but {@code missing}, and SLF4J */
    private static Set<String> resolveWithout(String root, String... missing) throws URISyntaxException {
        List<Path> path = new ArrayList<>();
        Set<String> left = Set.of(missing);
        for (Map.Entry<String, Path> module : WharfModules.moduleRoots().entrySet()) {
            if (!left.contains(module.getKey())) {
                path.add(module.getValue());
            }
        }
        path.add(Path.of(Logger.class.getProtectionDomain().getCodeSource().getLocation().toURI()));
        Configuration configuration = ModuleLayer.boot().configuration()
            .resolve(ModuleFinder.of(path.toArray(Path[]::new)), ModuleFinder.of(), Set.of(root));
        return configuration.modules().stream().map(ResolvedModule::name).collect(Collectors.toSet());
    }
}
