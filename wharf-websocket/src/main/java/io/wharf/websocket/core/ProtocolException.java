package io.wharf.websocket.core;

/**
 * A violation of the WebSocket protocol or of a limit, with the close status that answers it
 * (RFC 6455 section 7.4.1): 1002 for a protocol error, 1007 for invalid UTF-8 text, 1009 for a
 * frame or message too big. The session closes with {@link #getStatus()} and this message as
 * the reason (shortened to fit a close frame).
 */
public class ProtocolException extends RuntimeException {

    private final int status;

    public ProtocolException(int status, String message) {
        super(message);
        this.status = status;
    }

    /** @return the close status that answers it */
    public int getStatus() {
        return status;
    }
}
