package io.wharf.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;

import org.junit.jupiter.api.Assumptions;

/**
 * Test helper shared with the modules above: the real peers some tests drive (curl, haproxy,
 * python3...) are installed by {@code scripts/install-peers}, which {@code ./wharf test}
 * runs. A test that needs one fails in CI when it is missing, and is skipped elsewhere with a
 * message naming it.
 */
public final class Peers {

    private Peers() {
    }

    /** Fails in CI ({@code CI=true}), skips elsewhere, when {@code tool} is not on the PATH. */
    public static void requireTool(String tool) {
        boolean present = false;
        for (String directory : System.getenv().getOrDefault("PATH", "/usr/bin").split(File.pathSeparator)) {
            if (new File(directory, tool).canExecute()) {
                present = true;
                break;
            }
        }
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(present, tool + " is not installed; scripts/install-peers installs it");
        } else {
            Assumptions.assumeTrue(present, tool + " is not installed; run scripts/install-peers " + tool);
        }
    }
}
