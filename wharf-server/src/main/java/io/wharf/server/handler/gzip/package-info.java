/**
 * Compression: {@link io.wharf.server.handler.gzip.GzipHandler}, a wrapper that compresses
 * responses with gzip for clients that accept it and inflates gzip request content, with a
 * bound on the inflated size, for its child. The request and response wrappers that do the
 * work, and the inflating content source, are package-private.
 */
package io.wharf.server.handler.gzip;
