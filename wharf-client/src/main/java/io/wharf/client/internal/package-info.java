/**
 * The core of the client's implementation, not exported: a request ({@code HttpRequest}) and the
 * conversation that follows it up (redirects, challenges, cookies, decoding), the exchange that
 * carries one hop ({@code HttpExchange}, the transport SPI's {@code TransportExchange}), the
 * destination that queues exchanges in front of a {@code ConnectionPool} ({@code HttpDestination},
 * the SPI's {@code TransportDestination}), and {@code ClientContext}, what the internals read of
 * their client. It uses {@code route}, {@code content}, {@code cookie}, {@code auth} and
 * {@code pool} (the client's default pool, which sees its destination through the SPI only);
 * {@code http1} and {@code http2}, the built-in transports, use it, never the other way.
 */
package io.wharf.client.internal;
