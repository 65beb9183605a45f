/**
 * The client's transport SPI: what a module implements to carry an {@code HttpClient}'s
 * exchanges over a protocol of its own (HTTP/3 will), and what the client's built-in HTTP/1.1 and
 * HTTP/2 transports implement too. A {@link io.wharf.client.transport.Transport} opens
 * {@link io.wharf.client.transport.ClientConnection}s to a
 * {@link io.wharf.client.transport.TransportDestination} and shares them in a
 * {@link io.wharf.client.transport.ConnectionPool} (the client's own, or its own); a connection
 * sends each {@link io.wharf.client.transport.TransportExchange} and tells it what came back.
 * {@link io.wharf.client.transport.ClientSettings} is the immutable snapshot of the client's
 * settings that transports and the client's internals read.
 *
 * <p>These types name only one another and the layers below the client (wharf-http, wharf-io,
 * wharf-util), never the client's API or internals: the client stands on this package. See
 * docs/client-transport.md for an example.
 */
package io.wharf.client.transport;
