/**
 * The PROXY protocol (HAProxy's, v1 and v2) for the server:
 * {@link io.wharf.server.proxy.ProxyConnectionFactory}, put first on a connector behind a TCP
 * balancer. The header it reads reaches handlers as {@link io.wharf.server.ProxyHeader}. The
 * connection, its parser and the endpoint that reports the client's addresses are in the
 * package's {@code internal} sub-package; the core of the server names none of them.
 */
package io.wharf.server.proxy;
