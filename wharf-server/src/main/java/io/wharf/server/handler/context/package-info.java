/**
 * Contexts: {@link io.wharf.server.handler.context.ContextHandler} mounts a handler at a
 * context path, optionally for some virtual hosts only, and gives it a context (attributes, a
 * class loader, a temporary directory); {@link io.wharf.server.handler.context.ContextHandlerCollection}
 * gives each request to the context with the longest matching path. The virtual-host rules and
 * the request wrapper a context's child sees are package-private.
 */
package io.wharf.server.handler.context;
