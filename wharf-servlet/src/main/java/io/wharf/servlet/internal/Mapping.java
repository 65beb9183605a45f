package io.wharf.servlet.internal;

import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.MappingMatch;

/**
 * The {@link HttpServletMapping} of a dispatch: how its path mapped to a servlet (Servlet 6.1
 * section 12.3). Immutable.
 */
record Mapping(String matchValue, String pattern, String servletName, MappingMatch mappingMatch) implements HttpServletMapping {

    /** @return the mapping a match reports; for a dispatch by name, the servlet's name only */
    static Mapping of(ServletMatch<ServletEntry> match) {
        return new Mapping(match.matchValue(), match.pattern(), match.target().getName(), match.mappingMatch());
    }

    @Override
    public String getMatchValue() {
        return matchValue;
    }

    @Override
    public String getPattern() {
        return pattern;
    }

    @Override
    public String getServletName() {
        return servletName;
    }

    @Override
    public MappingMatch getMappingMatch() {
        return mappingMatch;
    }

    @Override
    public String toString() {
        return "HttpServletMapping[matchValue=" + matchValue + ", pattern=" + pattern + ", servletName=" + servletName
            + ", mappingMatch=" + mappingMatch + "]";
    }
}
