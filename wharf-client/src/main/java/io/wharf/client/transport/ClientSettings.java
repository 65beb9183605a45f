package io.wharf.client.transport;

import java.nio.file.Path;
import java.time.Duration;

import io.wharf.http.HttpParser;
import io.wharf.http.compression.DecoderLimits;
import io.wharf.util.Pool;

/**
 * An immutable snapshot of an {@code HttpClient}'s settings, which the client's internals and
 * its transports read instead of the client's getters (each component is documented on the
 * client's getter of the same name). The client takes one when it is made, at start, and each
 * time one of its setters is called. A request keeps the snapshot of the moment it was made
 * (its timeout, redirects, content cap, User-Agent, decoding, the idle timeout of its exchange,
 * its destination's queue bound); a destination sizes its connection pool with the snapshot of
 * the moment it was made; a connection reads buffers and limits from the snapshot of the moment
 * it was opened. So a setting changed on a running client applies to what is made afterwards,
 * never to what is already on its way, and is never seen half-changed.
 *
 * <p><b>Threads.</b> Immutable, any thread; read on hot paths without a lock or an allocation.
 * <b>Buffers.</b> None.
 *
 * @param connectTimeout how long opening a connection may take (the connector's)
 * @param idleTimeout how long a connection may be silent
 * @param requestTimeout the total timeout new requests start with, or null for none
 * @param maxConnectionsPerDestination the most connections open to one destination
 * @param maxRequestsQueuedPerDestination the most requests waiting for a connection per destination
 * @param maxConnectionUsage how many exchanges a connection carries before it is closed; 0 for no limit
 * @param connectionStrategy how a destination picks among its free connections
 * @param maxResponseContentBytes the most content bytes {@code Request.send()} keeps in memory
 * @param requestBufferSize the size of the buffer a request head is first written into
 * @param maxRequestHeadBytes the largest request head the client writes
 * @param responseBufferSize the size of the buffers responses are read into
 * @param responseLimits the bounds of a response head
 * @param userAgent the User-Agent sent when a request has none, or null for none
 * @param unixDomainPath the Unix domain socket every connection goes to, or null for TCP
 * @param followRedirects whether requests follow redirects unless they say otherwise
 * @param maxRedirects how many redirects a request follows at most
 * @param contentDecoding whether gzip responses are inflated (and {@code Accept-Encoding: gzip} sent)
 * @param responseDecoderLimits the bounds on inflating a response
 */
public record ClientSettings(Duration connectTimeout, Duration idleTimeout, Duration requestTimeout,
                             int maxConnectionsPerDestination, int maxRequestsQueuedPerDestination,
                             int maxConnectionUsage, Pool.Strategy connectionStrategy, int maxResponseContentBytes,
                             int requestBufferSize, int maxRequestHeadBytes, int responseBufferSize,
                             HttpParser.Limits responseLimits, String userAgent, Path unixDomainPath,
                             boolean followRedirects, int maxRedirects, boolean contentDecoding,
                             DecoderLimits responseDecoderLimits) {
}
