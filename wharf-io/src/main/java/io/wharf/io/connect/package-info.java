/**
 * Connecting out: {@link io.wharf.io.connect.ClientConnector} opens connections over TCP, Unix
 * domain sockets and TLS for Wharf's clients. It sits above {@code io.wharf.io} and
 * {@code io.wharf.io.ssl}, which know nothing of it.
 */
package io.wharf.io.connect;
