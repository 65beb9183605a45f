/**
 * The servlet container's implementation; not exported.
 *
 * <p>So far: {@link io.wharf.servlet.internal.UrlPattern} (one {@code url-pattern}, Servlet 6.1
 * section 12.2), {@link io.wharf.servlet.internal.ServletMappings} (which servlet a path maps to,
 * section 12.1, answered as a {@link io.wharf.servlet.internal.ServletMatch}) and
 * {@link io.wharf.servlet.internal.FilterMappings} (which filters run before it, section 6.2.4,
 * one {@link io.wharf.servlet.internal.FilterMapping} per declaration).
 */
package io.wharf.servlet.internal;
