package io.wharf.webapp.scan;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.servlet.DispatcherType;

/**
 * The values of a class's {@code @WebFilter}.
 *
 * @param filterName {@code filterName}, "" when not given (the filter is then named after its class)
 * @param urlPatterns {@code urlPatterns} or {@code value}
 * @param servletNames {@code servletNames}
 * @param dispatcherTypes {@code dispatcherTypes}, REQUEST when not given
 * @param initParams {@code initParams}, name to value in order
 * @param asyncSupported {@code asyncSupported}
 */
public record WebFilterAnnotation(String filterName, List<String> urlPatterns, List<String> servletNames,
                                  List<DispatcherType> dispatcherTypes, Map<String, String> initParams,
                                  Optional<Boolean> asyncSupported) {

    /** Copies the collections. */
    public WebFilterAnnotation {
        urlPatterns = List.copyOf(urlPatterns);
        servletNames = List.copyOf(servletNames);
        dispatcherTypes = List.copyOf(dispatcherTypes);
        initParams = Collections.unmodifiableMap(new LinkedHashMap<>(initParams));
    }
}
