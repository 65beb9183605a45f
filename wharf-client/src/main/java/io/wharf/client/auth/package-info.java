/**
 * The authentication schemes that come with the client: {@link io.wharf.client.auth.BasicAuthentication}
 * (RFC 7617), {@link io.wharf.client.auth.DigestAuthentication} (RFC 7616), and
 * {@link io.wharf.client.auth.AbstractAuthentication}, the matching on a scheme, a URI prefix
 * and a realm that another scheme can extend. They implement the client's
 * {@link io.wharf.client.Authentication} and are added to its
 * {@link io.wharf.client.AuthenticationStore}; this package uses the client's core, which never
 * names it.
 */
package io.wharf.client.auth;
