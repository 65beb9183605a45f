/**
 * The connections of a destination, not exported: one lock-free pool for HTTP/1.1 (one
 * exchange per connection) and HTTP/2 (many, up to what the server allows).
 */
package io.wharf.client.internal.pool;
