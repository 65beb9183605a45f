package io.wharf.webapp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The class loader of one web application (Servlet 6.1 section 10.7.2): WEB-INF/classes, then
 * the jars of WEB-INF/lib in name order, looked at before the parent (the container) for every
 * class but the {@linkplain ClassVisibility#isSystemClass system ones}, which come from the
 * parent first; {@linkplain ClassVisibility#isServerClass server classes} never come from the
 * parent. Resources follow the same order: {@link #getResource} answers from where the class of
 * that package would come, {@link #getResources} lists the application's first for a
 * non-system name, the parent's first for a system one.
 *
 * <p>Made by {@link WebApplication} for each deployment and closed by it when the application is
 * undeployed, which closes the jars. Parallel capable: any thread may load through it.
 */
public final class WebAppClassLoader extends URLClassLoader {

    static {
        registerAsParallelCapable();
    }

    private final ClassVisibility visibility;
    private final ClassLoader parent;

    /**
     * @param name the loader's name, for stack traces and heap dumps (the context path, say)
     * @param classPath the directories and jars, in the order they are searched
     * @param parent the container's loader
     * @param visibility which classes come from the parent first and which never do
     */
    public WebAppClassLoader(String name, List<Path> classPath, ClassLoader parent, ClassVisibility visibility) {
        super(name, urls(classPath), parent);
        this.parent = parent;
        this.visibility = visibility;
    }

    /** @return WEB-INF/classes (when it exists) and the jars of WEB-INF/lib in name order, of the application in {@code root} */
    public static List<Path> classPathOf(Path root) throws IOException {
        List<Path> classPath = new ArrayList<>();
        Path classes = root.resolve("WEB-INF/classes");
        if (Files.isDirectory(classes)) {
            classPath.add(classes);
        }
        Path lib = root.resolve("WEB-INF/lib");
        if (Files.isDirectory(lib)) {
            try (Stream<Path> files = Files.list(lib)) {
                files.filter(file -> file.getFileName().toString().endsWith(".jar") && Files.isRegularFile(file))
                    .sorted()
                    .forEach(classPath::add);
            }
        }
        return classPath;
    }

    private static URL[] urls(List<Path> classPath) {
        return classPath.stream().map(path -> {
            try {
                return path.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new UncheckedIOException(e);
            }
        }).toArray(URL[]::new);
    }

    /** @return the rules this loader follows */
    public ClassVisibility visibility() {
        return visibility;
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        synchronized (getClassLoadingLock(name)) {
            Class<?> type = findLoadedClass(name);
            if (type == null) {
                type = visibility.isSystemClass(name) ? parentThenOwn(name) : ownThenParent(name);
            }
            if (resolve) {
                resolveClass(type);
            }
            return type;
        }
    }

    private Class<?> parentThenOwn(String name) throws ClassNotFoundException {
        try {
            return parent.loadClass(name);
        } catch (ClassNotFoundException notInParent) {
            try {
                return findClass(name);
            } catch (ClassNotFoundException notHere) {
                notHere.addSuppressed(notInParent);
                throw notHere;
            }
        }
    }

    private Class<?> ownThenParent(String name) throws ClassNotFoundException {
        try {
            return findClass(name);
        } catch (ClassNotFoundException notHere) {
            if (visibility.isServerClass(name)) {
                throw new ClassNotFoundException(name + " is a server class, hidden from the web application, which does not have it");
            }
            return parent.loadClass(name);
        }
    }

    @Override
    public URL getResource(String name) {
        String className = ClassVisibility.classNameOfResource(name);
        boolean system = className != null && visibility.isSystemClass(className);
        boolean hidden = className != null && visibility.isServerClass(className);
        URL url = system ? parent.getResource(name) : findResource(name);
        if (url == null && !hidden) {
            url = system ? findResource(name) : parent.getResource(name);
        }
        return url;
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        String className = ClassVisibility.classNameOfResource(name);
        boolean system = className != null && visibility.isSystemClass(className);
        boolean hidden = className != null && visibility.isServerClass(className);
        Set<URL> urls = new LinkedHashSet<>();
        if (system) {
            urls.addAll(Collections.list(parent.getResources(name)));
        }
        urls.addAll(Collections.list(findResources(name)));
        if (!system && !hidden) {
            urls.addAll(Collections.list(parent.getResources(name)));
        }
        return Collections.enumeration(urls);
    }

    @Override
    public String toString() {
        return "WebAppClassLoader[" + getName() + "]";
    }
}
