package io.wharf.webapp.descriptor;

import java.util.List;

/**
 * A {@code <servlet-mapping>}: the URL patterns of one servlet, as written (the container checks their syntax).
 *
 * @param servletName the servlet they map to
 * @param urlPatterns the patterns in document order
 */
public record ServletMapping(String servletName, List<String> urlPatterns) {

    /** Copies the list. */
    public ServletMapping {
        urlPatterns = List.copyOf(urlPatterns);
    }
}
