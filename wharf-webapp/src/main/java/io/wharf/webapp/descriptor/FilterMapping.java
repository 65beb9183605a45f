package io.wharf.webapp.descriptor;

import java.util.List;

import jakarta.servlet.DispatcherType;

/**
 * A {@code <filter-mapping>}: which requests one filter sees. The order of filter mappings in
 * the descriptor is the order of the filter chain (Servlet 6.1 section 6.2.4).
 *
 * @param filterName the filter
 * @param urlPatterns the URL patterns in document order
 * @param servletNames the servlet names in document order ("*" for every servlet)
 * @param dispatcherTypes the dispatches it applies to; empty in the document means REQUEST only, which is what this list then holds
 */
public record FilterMapping(String filterName, List<String> urlPatterns, List<String> servletNames, List<DispatcherType> dispatcherTypes) {

    /** Copies the lists. */
    public FilterMapping {
        urlPatterns = List.copyOf(urlPatterns);
        servletNames = List.copyOf(servletNames);
        dispatcherTypes = List.copyOf(dispatcherTypes);
    }
}
