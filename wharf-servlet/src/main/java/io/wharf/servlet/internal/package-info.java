/**
 * The servlet container's implementation; not exported.
 *
 * <p>So far: {@link io.wharf.servlet.internal.ServletMappings} (which servlet a path maps to,
 * section 12.1, answered as a {@link io.wharf.servlet.internal.ServletMatch}) and
 * {@link io.wharf.servlet.internal.FilterMappings} (which filters run before it, section 6.2.4,
 * one {@link io.wharf.servlet.internal.FilterMapping} per declaration). Both match paths with
 * {@code io.wharf.http.pathmap}; {@link io.wharf.servlet.internal.UrlPatterns} reads a
 * {@code url-pattern} (section 12.2) as one of its path specs.
 */
package io.wharf.servlet.internal;
