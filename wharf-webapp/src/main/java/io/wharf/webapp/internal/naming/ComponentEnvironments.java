package io.wharf.webapp.internal.naming;

import java.util.Map;
import java.util.WeakHashMap;

/**
 * Which {@link ComponentEnvironment} belongs to which web application class loader, so that a
 * lookup finds the environment of the application whose thread asks (by its context class
 * loader, or a parent of it). {@link io.wharf.webapp.WebApplication} registers on prepare and
 * unregisters on close; the loaders are held weakly all the same, so a forgotten unregister
 * cannot pin an application. Thread-safe.
 */
public final class ComponentEnvironments {

    private static final Map<ClassLoader, ComponentEnvironment> BY_LOADER = new WeakHashMap<>();

    private ComponentEnvironments() {
    }

    /** Makes {@code environment} the one of threads whose context class loader is {@code loader} or below it. */
    public static void register(ClassLoader loader, ComponentEnvironment environment) {
        synchronized (BY_LOADER) {
            BY_LOADER.put(loader, environment);
        }
    }

    /** Forgets the environment of {@code loader}. */
    public static void unregister(ClassLoader loader) {
        synchronized (BY_LOADER) {
            BY_LOADER.remove(loader);
        }
    }

    /** @return the environment of the calling thread's web application, or null when it runs none */
    static ComponentEnvironment ofCurrentThread() {
        synchronized (BY_LOADER) {
            for (ClassLoader loader = Thread.currentThread().getContextClassLoader(); loader != null; loader = loader.getParent()) {
                ComponentEnvironment environment = BY_LOADER.get(loader);
                if (environment != null) {
                    return environment;
                }
            }
            return null;
        }
    }
}
