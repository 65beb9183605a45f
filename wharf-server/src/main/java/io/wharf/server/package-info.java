/**
 * The server, its connectors and the core Handler API.
 */
package io.wharf.server;
