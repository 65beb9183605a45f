/**
 * HTTP/1.1 for the server, not exported: the connection and its request loop
 * ({@link io.wharf.server.http1.internal.HttpConnection}) with the steps that read a request
 * head ({@link io.wharf.server.http1.internal.RequestHeadReader}) and what follows a response
 * ({@link io.wharf.server.http1.internal.AfterResponse}), the codecs it borrows (parser,
 * generator, response writer and slow-request guard), and
 * {@link io.wharf.server.http1.internal.Http1Stream}, the stream under each request's
 * {@link io.wharf.server.internal.ServerExchange}. It names no other protocol: HTTP/2 (h2c)
 * takes a connection over through {@link io.wharf.server.internal.Http1Handover}. Applications
 * use {@link io.wharf.server.http1.HttpConnectionFactory}.
 */
package io.wharf.server.http1.internal;
