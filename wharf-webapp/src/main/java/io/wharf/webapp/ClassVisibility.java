package io.wharf.webapp;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import io.wharf.webapp.scan.internal.PlatformPackages;

/**
 * Which classes a {@link WebAppClassLoader} takes from its parent (the container) and which it
 * hides from the web application (Servlet 6.1 section 10.7.2). Immutable; read by the loader on
 * any thread that loads a class.
 *
 * <p>A rule is a package prefix ending in {@code .} ({@code jakarta.servlet.} covers
 * {@code jakarta.servlet.http.Cookie}) or an exact class name.
 * <ul>
 * <li><b>System</b> classes come from the parent first: the Java platform's packages (every
 *     package of a JDK module, {@code java.*}, the JDK's {@code javax.*}, {@code org.w3c.dom}
 *     and so on), the Servlet API the container implements, the container's own
 *     {@code io.wharf.} classes, and the extra prefixes given. Only a system class the parent
 *     lacks is looked up in the application.</li>
 * <li><b>Server</b> classes are the container's private libraries: never taken from the parent,
 *     so an application sees only its own copy, if it has one.</li>
 * <li>Every other class is the application's first (WEB-INF/classes, then WEB-INF/lib), then
 *     the parent's.</li>
 * </ul>
 *
 * @param systemPrefixes extra system rules beside the platform, {@code jakarta.servlet.} and {@code io.wharf.}
 * @param serverPrefixes server rules
 */
public record ClassVisibility(List<String> systemPrefixes, List<String> serverPrefixes) {

    /** Always system: the Servlet API and the container itself. */
    public static final List<String> CONTAINER_PREFIXES = List.of("jakarta.servlet.", "io.wharf.");

    /** The server rules by default: the bytecode library the container scans with. */
    public static final List<String> DEFAULT_SERVER_PREFIXES = List.of("org.objectweb.asm.");

    /** The defaults: no extra system rule, {@link #DEFAULT_SERVER_PREFIXES} hidden. */
    public static final ClassVisibility DEFAULT = new ClassVisibility(List.of(), DEFAULT_SERVER_PREFIXES);

    /** Copies the lists. */
    public ClassVisibility {
        systemPrefixes = List.copyOf(systemPrefixes);
        serverPrefixes = List.copyOf(serverPrefixes);
    }

    /** @return these rules with {@code prefixes} added to the system ones */
    public ClassVisibility withSystemPrefixes(String... prefixes) {
        return new ClassVisibility(concat(systemPrefixes, prefixes), serverPrefixes);
    }

    /** @return these rules with {@code prefixes} added to the server ones */
    public ClassVisibility withServerPrefixes(String... prefixes) {
        return new ClassVisibility(systemPrefixes, concat(serverPrefixes, prefixes));
    }

    private static List<String> concat(List<String> list, String... more) {
        return Stream.concat(list.stream(), Arrays.stream(more)).toList();
    }

    /** @return whether the class of this binary name comes from the parent first */
    public boolean isSystemClass(String className) {
        return PlatformPackages.containsClass(className) || matches(CONTAINER_PREFIXES, className) || matches(systemPrefixes, className);
    }

    /** @return whether the class of this binary name is hidden from the application */
    public boolean isServerClass(String className) {
        return matches(serverPrefixes, className);
    }

    /**
     * @return the class name a resource path names for these rules: {@code io/wharf/A.class} and
     *     {@code io/wharf/} both name something in {@code io.wharf}; null for a resource outside any package
     */
    static String classNameOfResource(String resource) {
        String path = resource.startsWith("/") ? resource.substring(1) : resource;
        int slash = path.lastIndexOf('/');
        if (slash < 0) {
            return null;
        }
        String name = path.endsWith(".class") ? path.substring(0, path.length() - ".class".length()) : path.substring(0, slash + 1) + "*";
        return name.replace('/', '.');
    }

    private static boolean matches(List<String> rules, String className) {
        for (String rule : rules) {
            if (rule.endsWith(".") ? className.startsWith(rule) : className.equals(rule)) {
                return true;
            }
        }
        return false;
    }
}
