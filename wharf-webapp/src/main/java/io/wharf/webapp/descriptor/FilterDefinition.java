package io.wharf.webapp.descriptor;

import java.util.Map;
import java.util.Optional;

/**
 * A {@code <filter>}.
 *
 * @param name the filter name, unique in the application
 * @param className {@code <filter-class>}, empty when another descriptor gives it
 * @param initParams {@code <init-param>}s in document order
 * @param asyncSupported {@code <async-supported>}
 */
public record FilterDefinition(String name, Optional<String> className, Map<String, String> initParams, Optional<Boolean> asyncSupported) {

    /** Copies the map. */
    public FilterDefinition {
        initParams = Copies.orderedMap(initParams);
    }
}
