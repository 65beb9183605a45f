package io.wharf.webapp.descriptor;

import java.util.List;

/**
 * A {@code <web-resource-collection>}: URL patterns and the HTTP methods they cover. With
 * neither methods nor omissions, every method is covered.
 *
 * @param name {@code <web-resource-name>}
 * @param urlPatterns the URL patterns
 * @param httpMethods {@code <http-method>}s: only these are covered
 * @param httpMethodOmissions {@code <http-method-omission>}s: every method but these is covered
 */
public record WebResourceCollection(String name, List<String> urlPatterns, List<String> httpMethods, List<String> httpMethodOmissions) {

    /** Copies the lists. */
    public WebResourceCollection {
        urlPatterns = List.copyOf(urlPatterns);
        httpMethods = List.copyOf(httpMethods);
        httpMethodOmissions = List.copyOf(httpMethodOmissions);
    }
}
