package io.wharf.testing;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

/**
 * Test helper shared with the modules above: reads the compiled {@code module-info.class}
 * beside a class and answers which packages it exports to everyone.
 */
public final class ModuleExports {

    private ModuleExports() {
    }

    /** @return the descriptor of the module compiled with {@code member} */
    public static ModuleDescriptor descriptorOf(Class<?> member) throws IOException, URISyntaxException {
        Path root = Path.of(member.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (InputStream in = Files.newInputStream(root.resolve("module-info.class"))) {
            return ModuleDescriptor.read(in);
        }
    }

    /**
     * @return the packages exported without qualification; fails when an internal package
     *     is exported to everyone
     */
    public static Set<String> unqualifiedExports(ModuleDescriptor descriptor) {
        Set<String> exported = new TreeSet<>();
        for (ModuleDescriptor.Exports export : descriptor.exports()) {
            if (export.targets().isEmpty()) {
                assertFalse(export.source().contains(".internal"), "exports an internal package: " + export.source());
                exported.add(export.source());
            }
        }
        return exported;
    }

    /** @return the names of the Wharf modules the module requires */
    public static Set<String> wharfRequires(ModuleDescriptor descriptor) {
        Set<String> required = new TreeSet<>();
        for (ModuleDescriptor.Requires requires : descriptor.requires()) {
            if (requires.name().startsWith("io.wharf.")) {
                required.add(requires.name());
            }
        }
        return required;
    }
}
