package io.wharf.tests.architecture;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.Source;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;

/**
 * Which Java module a class was compiled into, read from the {@code module-info.class} at the root
 * its class file was loaded from (a module's {@code target/classes}, its jar, or the JDK's
 * {@code jrt:/} image), so the architecture rules speak of Wharf's modules as its
 * {@code module-info.java} files declare them rather than of package prefixes
 * ({@code io.wharf.websocket.server} is a module of its own beside {@code io.wharf.websocket}).
 *
 * <p>Main code is a class under a root that holds an explicit module named {@code io.wharf.*}:
 * test classes and test jars have no descriptor, so they are never imported. Used by the tests on
 * JUnit's thread; the caches are concurrent anyway.
 */
final class WharfModules {

    /** Initialised before {@link #MAIN_CLASSES}, whose import reads it. */
    private static final Map<String, Optional<ModuleDescriptor>> DESCRIPTORS_BY_ROOT = new ConcurrentHashMap<>();

    /** Every main class of every Wharf module on this test class path, imported once. */
    static final JavaClasses MAIN_CLASSES = new ClassFileImporter()
        .withImportOption(WharfModules::isMainCode)
        .importPackages("io.wharf");

    private WharfModules() {
    }

    /** @return the name of the module {@code type} (or an array's element type) was compiled into, or "" when it is not in one */
    static String moduleOf(JavaClass type) {
        Optional<Source> source = type.getBaseComponentType().getSource();
        if (source.isEmpty()) {
            return "";
        }
        return descriptorAt(source.get().getUri()).map(ModuleDescriptor::name).orElse("");
    }

    /** @return the descriptors of every Wharf module whose main classes were imported */
    static Set<ModuleDescriptor> wharfModules() {
        return MAIN_CLASSES.stream()
            .map(type -> descriptorAt(type.getSource().orElseThrow().getUri()).orElseThrow())
            .collect(Collectors.toSet());
    }

    /** @return where each Wharf module's main classes were imported from (its {@code target/classes} or its jar), by module name */
    static Map<String, Path> moduleRoots() {
        wharfModules();
        Map<String, Path> roots = new TreeMap<>();
        DESCRIPTORS_BY_ROOT.forEach((root, descriptor) -> descriptor
            .filter(found -> found.name().startsWith("io.wharf."))
            .ifPresent(found -> roots.put(found.name(), Path.of(URI.create(root)))));
        return roots;
    }

    /** @return classes compiled into one of the modules {@code names} */
    static DescribedPredicate<JavaClass> inModule(String... names) {
        Set<String> modules = Set.of(names);
        return DescribedPredicate.describe("are in module " + String.join(" or ", names), type -> modules.contains(moduleOf(type)));
    }

    /** @return classes of a Wharf module other than {@code names} */
    static DescribedPredicate<JavaClass> inWharfModuleOtherThan(String... names) {
        Set<String> allowed = Set.of(names);
        return DescribedPredicate.describe("are in a Wharf module other than " + String.join(", ", names), type -> {
            String module = moduleOf(type);
            return module.startsWith("io.wharf.") && !allowed.contains(module);
        });
    }

    private static boolean isMainCode(Location location) {
        return descriptorAt(location.asURI()).map(descriptor -> descriptor.name().startsWith("io.wharf.")).orElse(false);
    }

    /** @return the explicit module descriptor at the root a class file URI lies under, if any */
    private static Optional<ModuleDescriptor> descriptorAt(URI classFile) {
        String uri = classFile.toString();
        if (uri.startsWith("jrt:/")) {
            String module = uri.substring("jrt:/".length()).split("/", 2)[0];
            return Optional.of(ModuleDescriptor.newModule(module).build());
        }
        String root;
        if (uri.startsWith("jar:")) {
            int separator = uri.indexOf("!/");
            root = separator < 0 ? uri.substring(4) : uri.substring(4, separator);
        } else {
            int packageStart = uri.indexOf("/io/wharf/");
            if (packageStart < 0) {
                return Optional.empty();
            }
            root = uri.substring(0, packageStart + 1);
        }
        return DESCRIPTORS_BY_ROOT.computeIfAbsent(root, WharfModules::readDescriptor);
    }

    private static Optional<ModuleDescriptor> readDescriptor(String root) {
        Path path = Path.of(URI.create(root));
        if (Files.isDirectory(path) && !Files.exists(path.resolve("module-info.class"))) {
            return Optional.empty();
        }
        try {
            return ModuleFinder.of(path).findAll().stream()
                .map(ModuleReference::descriptor)
                .filter(descriptor -> !descriptor.isAutomatic())
                .findFirst();
        } catch (RuntimeException notAModule) {
            return Optional.empty();
        }
    }
}
