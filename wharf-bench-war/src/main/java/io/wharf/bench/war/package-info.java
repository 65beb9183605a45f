/** The Spring MVC application of the deploy macro run, packaged as a WAR (see {@link io.wharf.bench.war.SpringApp}). */
package io.wharf.bench.war;
