/**
 * Authentication internals, not exported: the parser of {@code WWW-Authenticate} and
 * {@code Proxy-Authenticate} challenges, and the URI prefix test credentials are matched with.
 */
package io.wharf.client.internal.auth;
