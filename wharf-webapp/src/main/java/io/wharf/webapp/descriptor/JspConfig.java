package io.wharf.webapp.descriptor;

import java.util.List;

/**
 * {@code <jsp-config>}: tag library locations and JSP property groups, kept for the JSP engine.
 *
 * @param taglibs the {@code <taglib>}s
 * @param propertyGroups the {@code <jsp-property-group>}s in document order
 */
public record JspConfig(List<Taglib> taglibs, List<JspPropertyGroup> propertyGroups) {

    /** Copies the lists. */
    public JspConfig {
        taglibs = List.copyOf(taglibs);
        propertyGroups = List.copyOf(propertyGroups);
    }

    /**
     * A {@code <taglib>}.
     *
     * @param uri {@code <taglib-uri>}
     * @param location {@code <taglib-location>}
     */
    public record Taglib(String uri, String location) {
    }
}
