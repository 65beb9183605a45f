/**
 * Request logs: {@link io.wharf.server.handler.log.RequestLogHandler} calls a
 * {@link io.wharf.server.handler.log.RequestLog} once per completed request;
 * {@link io.wharf.server.handler.log.NcsaRequestLog} formats the NCSA combined line and hands
 * it to its own writer thread, which writes it to a
 * {@link io.wharf.server.handler.log.RequestLogOutput} (an {@code Appendable}, an SLF4J logger, a
 * file or a file a day).
 */
package io.wharf.server.handler.log;
