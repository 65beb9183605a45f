/**
 * Test web applications: classes that tests copy into WARs and jars, then deploy, so that the web
 * application's class loader defines them. They live outside {@code io.wharf} because that
 * prefix is the container's and always comes from the parent loader.
 */
package webapps;
