/**
 * The route to an origin, not exported: TCP (or a Unix domain socket) to the first hop, the
 * tunnels through a proxy (CONNECT, SOCKS5), the absolute-form requests of a forwarding HTTP
 * proxy, and TLS with the origin; {@code EndPointOpening} opens a raw connection along it.
 * Depends on no other internal package.
 */
package io.wharf.client.internal.route;
