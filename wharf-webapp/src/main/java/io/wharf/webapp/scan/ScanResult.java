package io.wharf.webapp.scan;

import java.util.List;

/**
 * The classes the scanner read from one place: WEB-INF/classes or one jar.
 *
 * @param source the directory or jar, as given to the scanner
 * @param classes its classes, in the order of their paths
 * @param fromCache whether they came from the scan cache rather than from the jar
 */
public record ScanResult(String source, List<ScannedClass> classes, boolean fromCache) {

    /** Copies the list. */
    public ScanResult {
        classes = List.copyOf(classes);
    }

    /** @return the names of the classes that refer to javax.servlet types: in WEB-INF/classes, the sign of a javax application */
    public List<String> javaxServletClasses() {
        return classes.stream().filter(ScannedClass::referencesJavaxServlet).map(ScannedClass::name).toList();
    }

    /**
     * @return the names of the classes that carry a {@code javax.servlet.annotation} type (such as
     *     {@code @WebServlet}): components a javax container would deploy, the sign of a javax
     *     application in a WEB-INF/lib jar, where a mere reference is not one (libraries carry
     *     optional javax.servlet classes beside their Jakarta ones)
     */
    public List<String> javaxServletComponents() {
        return classes.stream().filter(scanned -> scanned.annotations().stream().anyMatch(type -> type.startsWith("javax.servlet.annotation.")))
            .map(ScannedClass::name).toList();
    }
}
