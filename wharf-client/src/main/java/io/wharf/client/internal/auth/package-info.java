/**
 * Authentication internals, not exported: the parser of {@code WWW-Authenticate} and
 * {@code Proxy-Authenticate} challenges.
 */
package io.wharf.client.internal.auth;
