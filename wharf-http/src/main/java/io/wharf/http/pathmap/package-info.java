/**
 * Path specs and path mappings: the ways a handler tree routes a request by its decoded
 * path. A {@link io.wharf.http.pathmap.PathSpec} is one pattern — servlet style (exact,
 * prefix {@code /a/*}, suffix {@code *.jsp}, root {@code ""}, default {@code /}), a regular
 * expression or a URI template — and {@link io.wharf.http.pathmap.PathMappings} picks the
 * best of many for a path, in a documented order of precedence.
 */
package io.wharf.http.pathmap;
