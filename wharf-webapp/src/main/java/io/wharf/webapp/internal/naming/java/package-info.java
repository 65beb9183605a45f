/**
 * Where JNDI looks for the factory of {@code java:} URLs, by its naming convention
 * ({@code <prefix>.java.javaURLContextFactory}, with the prefix
 * {@code io.wharf.webapp.internal.naming} listed in {@code java.naming.factory.url.pkgs}).
 * Not exported, but open to {@code java.naming}, which makes the factory reflectively.
 */
package io.wharf.webapp.internal.naming.java;
