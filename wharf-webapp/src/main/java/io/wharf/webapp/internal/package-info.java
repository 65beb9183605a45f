/**
 * How a web application is deployed: its WAR extracted, its descriptor applied to a servlet
 * context, its initializers found, its context mounted with requests counted for a graceful
 * stop, the webapps directory polled. Not exported; {@code io.wharf.webapp} is the API.
 */
package io.wharf.webapp.internal;
