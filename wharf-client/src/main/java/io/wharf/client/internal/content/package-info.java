/**
 * Request content, not exported: bytes, strings, forms, files, streams and Flow publishers as
 * {@code RequestContent}, and the demand gate that paces response content. Depends on no other
 * internal package.
 */
package io.wharf.client.internal.content;
