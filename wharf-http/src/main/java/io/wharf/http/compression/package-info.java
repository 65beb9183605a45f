/**
 * Content codings: pooled {@link java.util.zip.Deflater}s and {@link java.util.zip.Inflater}s,
 * an incremental gzip encoder for response bodies, and incremental, bounded gzip and zlib
 * decoders for request bodies (and client responses) that stop a zip bomb at a configured
 * inflated size.
 *
 * <p>Every codec here writes into buffers its caller supplies, kept in flush mode (the bytes
 * held lie between position and limit), and appends after their limit; none allocates a buffer
 * of its own. Every codec borrows its native zlib stream from a pool only while it works and
 * gives it back (or ends it) when it completes, fails or is aborted.
 */
package io.wharf.http.compression;
