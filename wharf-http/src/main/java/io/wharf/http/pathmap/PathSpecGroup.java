package io.wharf.http.pathmap;

/**
 * The shape of a {@link PathSpec}, which decides its precedence: when several specs match a
 * path, one of an earlier group beats one of a later group. Constants are declared in that
 * order, so {@link #ordinal()} is the rank.
 *
 * <p>A plain value; used by {@link PathMappings} on whichever thread looks a path up.
 */
public enum PathSpecGroup {

    /** The whole path is fixed: {@code /a/b}, a template without variables, a literal regex. */
    EXACT,

    /** The servlet root {@code ""}, which matches only the path {@code /}. */
    ROOT,

    /**
     * A fixed beginning followed by a variable rest: {@code /a/*}, {@code /*}, a template
     * whose variables all come after its last literal segment, a regex made of literal
     * characters followed only by pattern.
     */
    PREFIX_GLOB,

    /** A variable beginning followed by a fixed end: {@code *.jsp}, a regex such as {@code ^.*\.jsp$}. */
    SUFFIX_GLOB,

    /** Anything else with variable parts: {@code /a/{x}/b}, {@code ^/a/.*\/b$}. */
    MIDDLE_GLOB,

    /** The servlet default {@code /}, which matches every path and loses to every other spec. */
    DEFAULT
}
