/**
 * HTTP/1.1, not exported: the transport, the opening of a destination's connection along its
 * route (which hands the endpoint to a multiplexed protocol's factory when TLS picks it), the
 * connection that writes a request and parses its response, and their writer and parser
 * listener. Names no HTTP/2 type.
 */
package io.wharf.client.internal.http1;
