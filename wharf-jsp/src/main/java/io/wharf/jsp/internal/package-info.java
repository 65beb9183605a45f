/**
 * How {@link io.wharf.jsp.JspInitializer} sets Apache Jasper up in a servlet context: the
 * {@code jsp} servlet, the scratch directory, the compiler's class path, and the attributes
 * Jasper reads. Not exported.
 */
package io.wharf.jsp.internal;
