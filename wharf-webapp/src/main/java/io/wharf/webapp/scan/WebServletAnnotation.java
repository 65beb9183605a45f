package io.wharf.webapp.scan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The values of a class's {@code @WebServlet}. Values the class file does not hold (left to the
 * annotation's defaults) are empty, so a descriptor can fill them.
 *
 * @param name {@code name}, "" when not given (the servlet is then named after its class)
 * @param urlPatterns {@code urlPatterns} or {@code value}
 * @param loadOnStartup {@code loadOnStartup}
 * @param initParams {@code initParams}, name to value in order
 * @param asyncSupported {@code asyncSupported}
 */
public record WebServletAnnotation(String name, List<String> urlPatterns, Optional<Integer> loadOnStartup,
                                   Map<String, String> initParams, Optional<Boolean> asyncSupported) {

    /** Copies the collections. */
    public WebServletAnnotation {
        urlPatterns = List.copyOf(urlPatterns);
        initParams = Collections.unmodifiableMap(new LinkedHashMap<>(initParams));
    }
}
