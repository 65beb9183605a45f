package io.wharf.webapp.internal;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;

import jakarta.servlet.ServletContainerInitializer;
import jakarta.servlet.annotation.HandlesTypes;

import io.wharf.webapp.DeploymentException;
import io.wharf.webapp.WebAppClassLoader;
import io.wharf.webapp.descriptor.WebDescriptor;
import io.wharf.webapp.scan.AnnotationScanner;
import io.wharf.webapp.scan.HandlesTypesIndex;
import io.wharf.webapp.scan.ScanResult;
import io.wharf.webapp.scan.WebAppMetadata;

/**
 * Finds a web application's {@link ServletContainerInitializer}s and the classes each handles
 * (Servlet 6.1 section 8.2.4): the initializers are the services {@link ServiceLoader} finds
 * through the application's class loader — the application's jars first, then the container's
 * class path, as that loader delegates — less those of WEB-INF/lib jars an absolute ordering
 * leaves out. Each one's {@code @HandlesTypes} is answered from the scanned classes, loaded by
 * the application's loader. {@code @HandlesTypes} applies even when web.xml is
 * metadata-complete, so then the classes are scanned here, only when an initializer asks.
 * Called by {@link io.wharf.webapp.WebApplication} on the deploying thread.
 */
public final class InitializerDiscovery {

    /** An initializer and the classes to give its {@code onStartup}. */
    public record Found(ServletContainerInitializer initializer, Set<Class<?>> classes) {
    }

    private final ClassLoader loader;
    private final Path webInf;
    private final AnnotationScanner scanner;

    /**
     * @param loader the application's class loader
     * @param webInf its WEB-INF directory
     * @param scanner reads classes when the metadata holds no scan (metadata-complete)
     */
    public InitializerDiscovery(ClassLoader loader, Path webInf, AnnotationScanner scanner) {
        this.loader = loader;
        this.webInf = webInf;
        this.scanner = scanner;
    }

    /** @return the initializers in the order found, each with its handled classes */
    public List<Found> discover(WebAppMetadata metadata) throws IOException {
        Set<Path> excludedJars = excludedJars(metadata.orderedFragments());
        List<ServletContainerInitializer> initializers = new ArrayList<>();
        try {
            for (ServletContainerInitializer initializer : ServiceLoader.load(ServletContainerInitializer.class, loader)) {
                if (!excludedJars.contains(origin(initializer.getClass()))) {
                    initializers.add(initializer);
                }
            }
        } catch (ServiceConfigurationError e) {
            throw new DeploymentException("a ServletContainerInitializer cannot be made: " + e.getMessage(), e);
        }
        HandlesTypesIndex index = null;
        List<Found> found = new ArrayList<>();
        for (ServletContainerInitializer initializer : initializers) {
            HandlesTypes handles = initializer.getClass().getAnnotation(HandlesTypes.class);
            if (handles == null || handles.value().length == 0) {
                found.add(new Found(initializer, Set.of()));
                continue;
            }
            if (index == null) {
                index = new HandlesTypesIndex(scans(metadata), loader);
            }
            Set<String> types = Arrays.stream(handles.value()).map(Class::getName).collect(Collectors.toSet());
            found.add(new Found(initializer, load(index.classesFor(types), initializer)));
        }
        return found;
    }

    private List<ScanResult> scans(WebAppMetadata metadata) throws IOException {
        if (!metadata.scans().isEmpty() || !metadata.descriptor().metadataComplete()) {
            return metadata.scans();
        }
        List<ScanResult> scans = new ArrayList<>();
        scans.add(scanner.scanDirectory(webInf.resolve("classes")));
        scans.addAll(scanner.scanJars(jarsOf(metadata.orderedFragments())));
        return scans;
    }

    private Set<Class<?>> load(Set<String> names, ServletContainerInitializer initializer) {
        Set<Class<?>> classes = new LinkedHashSet<>();
        for (String name : names) {
            try {
                classes.add(Class.forName(name, false, loader));
            } catch (ClassNotFoundException | LinkageError e) {
                // A class whose dependencies are missing cannot be handed over; the others still are.
                System.getLogger(InitializerDiscovery.class.getName()).log(System.Logger.Level.WARNING,
                    "{0}: @HandlesTypes class {1} cannot be loaded, left out: {2}", initializer.getClass().getName(), name, e);
            }
        }
        return classes;
    }

    /** @return the WEB-INF/lib jars no fragment in the ordering comes from */
    private Set<Path> excludedJars(List<WebDescriptor> ordered) throws IOException {
        Set<Path> included = Set.copyOf(jarsOf(ordered));
        return WebAppClassLoader.classPathOf(webInf.getParent()).stream()
            .filter(entry -> entry.getFileName().toString().endsWith(".jar"))
            .map(jar -> jar.toAbsolutePath().normalize())
            .filter(jar -> !included.contains(jar))
            .collect(Collectors.toSet());
    }

    /** @return the jars the fragments come from, by their source ("lib/a.jar" or "lib/a.jar!/META-INF/web-fragment.xml") */
    private static List<Path> jarsOf(List<WebDescriptor> fragments) {
        return fragments.stream().map(fragment -> {
            String source = fragment.source();
            int bang = source.indexOf("!/");
            return Path.of(bang < 0 ? source : source.substring(0, bang)).toAbsolutePath().normalize();
        }).toList();
    }

    /** @return the jar or directory a class was loaded from, or null */
    private static Path origin(Class<?> type) {
        CodeSource source = type.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            return Path.of(source.getLocation().toURI()).toAbsolutePath().normalize();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return null;
        }
    }
}
