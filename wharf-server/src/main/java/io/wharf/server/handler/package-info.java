/**
 * The standard handlers: path mappings, contexts, resources (static files), gzip, errors,
 * statistics, request logging, size limits and the default handler.
 */
package io.wharf.server.handler;
