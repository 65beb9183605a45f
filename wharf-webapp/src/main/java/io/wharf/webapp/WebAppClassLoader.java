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
import java.util.jar.Manifest;
import java.util.stream.Stream;

import io.wharf.webapp.internal.ClassPathElement;
import io.wharf.webapp.internal.ClassPathIndex;

/**
 * The class loader of one web application (Servlet 6.1 section 10.7.2): WEB-INF/classes, then
 * the jars of WEB-INF/lib in name order, looked at before the parent (the container) for every
 * class but the {@linkplain ClassVisibility#isSystemClass system ones}, which come from the
 * parent first; {@linkplain ClassVisibility#isServerClass server classes} never come from the
 * parent. Resources follow the same order: {@link #getResource} answers from where the class of
 * that package would come, {@link #getResources} lists the application's first for a
 * non-system name, the parent's first for a system one.
 *
 * <p><b>Finding a class.</b> An index of the packages in each jar, read from the jars' zip
 * directories when the loader is made ({@link ClassPathIndex}), sends a class to the jars that
 * have its package, in order, and answers a class no jar has at once; the JDK's search asked each
 * of a Spring application's 61 jars in turn, a tenth of its deployment's samples. Classes are
 * defined with each jar's code source and signers, and their packages with its manifest's
 * attributes, as the JDK's loader does; sealed packages are not enforced. Resources are looked
 * up as the JDK's loader does.
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
    private final List<ClassPathElement> elements;
    private final ClassPathIndex index;

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
        URL[] urls = getURLs();
        List<ClassPathElement> made = new ArrayList<>(classPath.size());
        for (int i = 0; i < classPath.size(); i++) {
            made.add(new ClassPathElement(classPath.get(i), urls[i]));
        }
        this.elements = List.copyOf(made);
        this.index = ClassPathIndex.of(classPath);
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

    /** Looks in the elements that have the class's package, in class path order (see the class's comment). */
    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
        String resource = name.replace('.', '/').concat(".class");
        int slash = resource.lastIndexOf('/');
        for (int element : index.candidates(slash < 0 ? "" : resource.substring(0, slash))) {
            ClassPathElement from = elements.get(element);
            try {
                ClassPathElement.ClassFile file = from.read(resource);
                if (file != null) {
                    return define(name, from, file);
                }
            } catch (IOException e) {
                throw new ClassNotFoundException(name + ": cannot read it from " + from + ": " + e.getMessage(), e);
            }
        }
        throw new ClassNotFoundException(name);
    }

    private Class<?> define(String name, ClassPathElement from, ClassPathElement.ClassFile file) throws IOException {
        int dot = name.lastIndexOf('.');
        if (dot > 0) {
            String packageName = name.substring(0, dot);
            if (getDefinedPackage(packageName) == null) {
                Manifest manifest = from.manifest();
                try {
                    if (manifest != null) {
                        definePackage(packageName, manifest, from.url());
                    } else {
                        definePackage(packageName, null, null, null, null, null, null, null);
                    }
                } catch (IllegalArgumentException definedMeanwhile) {
                    // Another thread defined the package first: it stands.
                }
            }
        }
        return defineClass(name, file.bytes(), 0, file.bytes().length, from.codeSource(file.signers()));
    }

    /**
     * Finds a class file through the package index, as {@link #findClass} does (Spring and the
     * {@code @HandlesTypes} walk read many as resources); any other resource, and a class file
     * whose name a URL would have to escape, as the JDK's loader does.
     */
    @Override
    public URL findResource(String name) {
        if (!name.endsWith(".class") || !plainPath(name)) {
            return super.findResource(name);
        }
        int slash = name.lastIndexOf('/');
        for (int element : index.candidates(slash < 0 ? "" : name.substring(0, slash))) {
            try {
                ClassPathElement from = elements.get(element);
                if (from.isMultiRelease()) {
                    return super.findResource(name);
                }
                URL found = from.find(name);
                if (found != null) {
                    return found;
                }
            } catch (IOException unreadable) {
                // As the JDK's loader does: an element that cannot be read holds nothing.
            }
        }
        return null;
    }

    /** @return whether {@code name} is a relative path of characters a URL takes unescaped */
    private static boolean plainPath(String name) {
        if (name.isEmpty() || name.startsWith("/")) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '/' || c == '.' || c == '_' || c == '$'
                || c == '-')) {
                return false;
            }
        }
        return !name.contains("//") && !name.contains("./");
    }

    /** Closes the jars this loader read classes from, then those it read resources from. */
    @Override
    public void close() throws IOException {
        IOException failure = null;
        for (ClassPathElement element : elements) {
            try {
                element.close();
            } catch (IOException e) {
                failure = e;
            }
        }
        super.close();
        if (failure != null) {
            throw failure;
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
