/**
 * HTTP/1.1 for the server: {@link io.wharf.server.http1.HttpConnectionFactory}, which a
 * connector is given to speak HTTP/1.1 ({@code new ServerConnector(server, new
 * HttpConnectionFactory())}). Its requests reach the same Handler API as HTTP/2 streams. The
 * connection, its codecs and its stream are in the package's {@code internal} sub-package; the
 * core of the server ({@code io.wharf.server}) names none of them, as it names no HTTP/2 class.
 */
package io.wharf.server.http1;
