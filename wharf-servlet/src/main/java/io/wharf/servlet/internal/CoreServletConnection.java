package io.wharf.servlet.internal;

import jakarta.servlet.ServletConnection;

import io.wharf.server.ConnectionMetaData;
import io.wharf.server.Request;

/**
 * The {@link ServletConnection} of a request: the core connection's id, protocol and security.
 * Immutable.
 */
record CoreServletConnection(Request request) implements ServletConnection {

    @Override
    public String getConnectionId() {
        return request.getConnectionMetaData().getId();
    }

    @Override
    public String getProtocol() {
        ConnectionMetaData connection = request.getConnectionMetaData();
        return switch (connection.getHttpVersion()) {
            case HTTP_2 -> connection.isSecure() ? "h2" : "h2c";
            case HTTP_1_0 -> "http/1.0";
            case HTTP_1_1 -> "http/1.1";
            default -> connection.getHttpVersion().asString().toLowerCase(java.util.Locale.ROOT);
        };
    }

    @Override
    public String getProtocolConnectionId() {
        return "";
    }

    @Override
    public boolean isSecure() {
        return request.getConnectionMetaData().isSecure();
    }
}
