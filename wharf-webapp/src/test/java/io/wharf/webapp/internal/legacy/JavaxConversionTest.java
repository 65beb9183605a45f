package io.wharf.webapp.internal.legacy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URL;
import java.net.URLClassLoader;

import io.wharf.webapp.DeploymentException;

import org.junit.jupiter.api.Test;

/** What the legacy javax mode says when the Eclipse Transformer, an optional dependency, is not there. */
class JavaxConversionTest {

    @Test
    void saysWhatToAddWhenTheTransformerIsMissing() throws Exception {
        try (URLClassLoader without = new URLClassLoader(new URL[0], ClassLoader.getPlatformClassLoader())) {
            DeploymentException missing = assertThrows(DeploymentException.class,
                () -> JavaxConversion.requireTransformer(without.getUnnamedModule(), without));
            assertEquals("the legacy javax mode needs the Eclipse Transformer: put org.eclipse.transformer:org.eclipse.transformer (1.0.0)"
                + " and its dependencies (biz.aQute.bnd:biz.aQute.bnd.transform, org.slf4j:slf4j-api) on the class path (or the module"
                + " path, with --add-modules org.eclipse.transformer)", missing.getMessage());
        }
        // And this test's own class path has it.
        JavaxConversion.requireTransformer(JavaxConversion.class.getModule(), JavaxConversion.class.getClassLoader());
    }
}
