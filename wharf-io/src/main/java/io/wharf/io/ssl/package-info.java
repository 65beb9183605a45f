/**
 * TLS as an endpoint wrapper over the JDK {@link javax.net.ssl.SSLEngine}.
 *
 * <p>An {@link io.wharf.io.ssl.SslConnection} sits on the network endpoint and exposes a
 * decrypted {@link io.wharf.io.ssl.SslEndPoint}, on which HTTP/1.1, HTTP/2 or any other
 * connection runs exactly as on a plain socket: fill, flush, fill interest, full writes,
 * half-close (close_notify), close and idle timeout keep their contracts.
 * {@link io.wharf.io.ssl.SslConnectionFactory} configures engines (TLS 1.2 and later, SNI,
 * host name verification, ALPN) and makes the connections, for a server's opener or for
 * {@link io.wharf.io.connect.ClientConnector#connectTls}. {@link io.wharf.io.ssl.SslConnection.Listener}s
 * hear each handshake's outcome ({@link io.wharf.io.ssl.SslHandshake}) before the first
 * application byte, and may upgrade the decrypted endpoint to the negotiated protocol.
 *
 * <p>Rules: the handshake runs with the application's own reads and writes (a client that
 * only writes, or a server that only reads, completes it); renegotiation is refused; every
 * encrypted and decrypted buffer comes from the pool and only while it holds bytes, so an
 * idle TLS connection holds none.
 */
package io.wharf.io.ssl;
