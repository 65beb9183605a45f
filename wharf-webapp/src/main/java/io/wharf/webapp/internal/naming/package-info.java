/**
 * The read-only {@code java:comp/env} of web applications: their {@code <env-entry>} values and
 * {@code <resource-ref>} names, found through JNDI's URL context factory for the {@code java:}
 * scheme ({@link io.wharf.webapp.internal.naming.java.javaURLContextFactory}), by the thread's
 * context class loader. Not exported.
 */
package io.wharf.webapp.internal.naming;
