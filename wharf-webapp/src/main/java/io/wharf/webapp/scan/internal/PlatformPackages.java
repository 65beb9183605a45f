package io.wharf.webapp.scan.internal;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * The packages of the JDK's own modules (those of the bootstrap and platform loaders): the
 * platform no application may replace, whose classes extend and implement only platform types.
 * Read by the class loader's visibility rules and by the {@code @HandlesTypes} index, on any thread.
 */
public final class PlatformPackages {

    private static final Set<String> PACKAGES = ModuleLayer.boot().modules().stream()
        .filter(module -> module.getClassLoader() == null || module.getClassLoader() == ClassLoader.getPlatformClassLoader())
        .flatMap(module -> module.getPackages().stream())
        .collect(Collectors.toUnmodifiableSet());

    private PlatformPackages() {
    }

    /** @return whether the class of this binary name ({@code java.util.Map$Entry}) is in a package of the platform */
    public static boolean containsClass(String className) {
        int dot = className.lastIndexOf('.');
        return dot > 0 && PACKAGES.contains(className.substring(0, dot));
    }
}
