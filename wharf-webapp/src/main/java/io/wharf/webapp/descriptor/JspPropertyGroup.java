package io.wharf.webapp.descriptor;

import java.util.List;
import java.util.Map;

/**
 * A {@code <jsp-property-group>}. Its single-valued settings ({@code el-ignored},
 * {@code page-encoding}, {@code scripting-invalid}, {@code is-xml}, {@code
 * deferred-syntax-allowed-as-literal}, {@code trim-directive-whitespaces}, {@code
 * default-content-type}, {@code buffer}, {@code error-on-undeclared-namespace}, {@code
 * error-on-el-not-found}) are kept by element name as written, trimmed; the JSP engine
 * interprets them.
 *
 * @param urlPatterns the JSPs it applies to
 * @param settings element name to value, in document order
 * @param includePreludes {@code <include-prelude>}s
 * @param includeCodas {@code <include-coda>}s
 */
public record JspPropertyGroup(List<String> urlPatterns, Map<String, String> settings, List<String> includePreludes, List<String> includeCodas) {

    /** Copies the collections. */
    public JspPropertyGroup {
        urlPatterns = List.copyOf(urlPatterns);
        settings = Copies.orderedMap(settings);
        includePreludes = List.copyOf(includePreludes);
        includeCodas = List.copyOf(includeCodas);
    }
}
