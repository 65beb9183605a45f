/**
 * Static files: {@link io.wharf.server.handler.resource.ResourceHandler}, which serves GET and
 * HEAD from a base directory or a class path location, with validators, conditional requests,
 * byte ranges, precompressed variants ({@link io.wharf.server.handler.resource.PrecompressedFormat})
 * and optional directory listings. Which request path may reach which file — dot segments,
 * symbolic links and other aliases — is decided in one place, the package's
 * {@code ResourceBase}, with an {@link io.wharf.server.handler.resource.AliasChecker} as the
 * user's hook. The file's content is written by the package-private {@code FileContentWriter},
 * from the threads that complete each write, so a slow client holds no thread.
 */
package io.wharf.server.handler.resource;
