package io.wharf.jsp.internal;

import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The class path a compiler that reads files needs to compile a page (Jasper's
 * {@code classpath} init parameter; the JDK's compiler, {@code compilerClassName}
 * {@code org.apache.jasper.compiler.JavaCompiler}, reads it), as seen from the context's class
 * loader: the {@code file:} URLs of every {@link URLClassLoader} from it up to the platform
 * loader, then, when the system class loader is one of its ancestors, the JVM's class path and
 * module path. Jasper's default compiler, the Eclipse compiler, asks the class loader instead.
 * Called once a start; stateless.
 */
final class CompilerClassPath {

    private CompilerClassPath() {
    }

    /** @return the entries, joined with the platform's path separator; "" when there are none */
    static String of(ClassLoader contextLoader) {
        Set<String> entries = new LinkedHashSet<>();
        boolean system = false;
        for (ClassLoader loader = contextLoader; loader != null; loader = loader.getParent()) {
            if (loader instanceof URLClassLoader urls) {
                for (URL url : urls.getURLs()) {
                    addFile(entries, url);
                }
            }
            system |= loader == ClassLoader.getSystemClassLoader();
        }
        if (system) {
            addPath(entries, System.getProperty("java.class.path"));
            addPath(entries, System.getProperty("jdk.module.path"));
        }
        return String.join(File.pathSeparator, entries);
    }

    private static void addFile(Set<String> entries, URL url) {
        if ("file".equals(url.getProtocol())) {
            try {
                entries.add(Path.of(url.toURI()).toString());
            } catch (URISyntaxException | IllegalArgumentException x) {
                // Not a file system path: a compiler could not read it either.
            }
        }
    }

    private static void addPath(Set<String> entries, String path) {
        if (path != null && !path.isEmpty()) {
            for (String entry : path.split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    entries.add(entry);
                }
            }
        }
    }
}
