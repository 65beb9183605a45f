/**
 * The PROXY protocol (v1 and v2) for the server, not exported: the connection that reads the
 * header a proxy sends first ({@link io.wharf.server.proxy.ProxyConnection}), its parser, and
 * the endpoint that reports the client's addresses. Applications use
 * {@link io.wharf.server.ProxyConnectionFactory} and {@link io.wharf.server.ProxyHeader}.
 */
package io.wharf.server.proxy;
