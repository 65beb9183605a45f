package io.wharf.http.pathmap;

/**
 * The shape of a {@link PathSpec}, which decides its precedence: when several specs match a
 * path, one of an earlier group beats one of a later group. Constants are declared in that
 * order, so {@link #ordinal()} is the rank.
 *
 * <p>Servlet-style specs keep the servlet specification's order (exact, longest prefix,
 * extension, default). MIDDLE_GLOB, which only regex and template specs have, ranks before
 * PREFIX_GLOB and SUFFIX_GLOB because it pins both ends of the path and so is the more
 * specific: {@code /users/{id}/posts} beats {@code /users/*}, and
 * {@code ^/files/.*\.txt$} beats {@code *.txt}.
 *
 * <p>A plain value; used by {@link PathMappings} on whichever thread looks a path up.
 */
public enum PathSpecGroup {

    /** The whole path is fixed: {@code /a/b}, a template without variables, a literal regex. */
    EXACT,

    /** The servlet root {@code ""}, which matches only the path {@code /}. */
    ROOT,

    /** A fixed beginning and a fixed end with variable parts between: {@code /a/{x}/b}, {@code ^/a/.*\/b$}. */
    MIDDLE_GLOB,

    /**
     * A fixed beginning followed by a variable end: {@code /a/*}, {@code /*}, a template
     * ending with a variable ({@code /users/{id}}), a regex such as {@code ^/api/.*}.
     */
    PREFIX_GLOB,

    /**
     * A variable beginning followed by a fixed end: {@code *.jsp}, a regex such as
     * {@code ^.*\.jsp$}; also a regex fixed at neither end, such as {@code ^.*$}.
     */
    SUFFIX_GLOB,

    /** The servlet default {@code /}, which matches every path and loses to every other spec. */
    DEFAULT
}
