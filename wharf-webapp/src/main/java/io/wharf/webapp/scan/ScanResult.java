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

    /** @return the names of the classes that refer to javax.servlet types: the sign of a javax application */
    public List<String> javaxServletClasses() {
        return classes.stream().filter(ScannedClass::referencesJavaxServlet).map(ScannedClass::name).toList();
    }
}
