/**
 * The standard handlers, each in a package by job: this package holds the general ones —
 * {@link io.wharf.server.handler.PathMappingsHandler} (routes by path spec),
 * {@link io.wharf.server.handler.SizeLimitHandler} (bounds request and response content),
 * {@link io.wharf.server.handler.StatisticsHandler} (counts requests and responses) and
 * {@link io.wharf.server.handler.DefaultHandler} (answers what no other handler took). The
 * others are in sub-packages: {@code resource} (static files), {@code gzip} (compression),
 * {@code log} (request logs), {@code push} (server push and 103 Early Hints) and
 * {@code context} (context paths and virtual hosts). None of these packages uses another: each
 * stands on the core Handler API of {@code io.wharf.server}.
 */
package io.wharf.server.handler;
