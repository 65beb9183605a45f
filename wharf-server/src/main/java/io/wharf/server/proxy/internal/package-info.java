/**
 * The PROXY protocol (v1 and v2) for the server, not exported: the connection that reads the
 * header a proxy sends first ({@link io.wharf.server.proxy.internal.ProxyConnection}), its
 * parser, and the endpoint that reports the client's addresses, which the connections after it
 * read the header from through {@link io.wharf.server.internal.ProxyHeaderSource}. Applications
 * use {@link io.wharf.server.proxy.ProxyConnectionFactory} and
 * {@link io.wharf.server.ProxyHeader}.
 */
package io.wharf.server.proxy.internal;
