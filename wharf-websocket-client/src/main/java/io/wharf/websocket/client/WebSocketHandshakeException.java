package io.wharf.websocket.client;

/**
 * The opening handshake failed after the server answered: not 101, a wrong
 * {@code Sec-WebSocket-Accept}, a subprotocol or extension that was not offered. Its message
 * names the problem; {@link #getStatus()} is the server's HTTP status.
 */
public final class WebSocketHandshakeException extends java.io.IOException {

    private static final long serialVersionUID = 1L;

    private final int status;

    public WebSocketHandshakeException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** @return the HTTP status the server answered with, or 0 when the answer had none that could be read */
    public int getStatus() {
        return status;
    }
}
