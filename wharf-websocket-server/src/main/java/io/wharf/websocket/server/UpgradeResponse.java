package io.wharf.websocket.server;

import java.util.List;

/**
 * What a {@link WebSocketCreator} answers besides its listener: the subprotocol picked among
 * those offered, or a refusal with an HTTP status. Used by the creator's thread only.
 */
public final class UpgradeResponse {

    private final List<String> offered;
    private String subprotocol;
    private int refusedStatus;
    private String refusedReason;

    UpgradeResponse(List<String> offered) {
        this.offered = offered;
    }

    /**
     * Picks the subprotocol sent back in {@code Sec-WebSocket-Protocol}.
     *
     * @throws IllegalArgumentException when the client did not offer it
     */
    public void setSubprotocol(String subprotocol) {
        if (!offered.contains(subprotocol)) {
            throw new IllegalArgumentException("subprotocol " + subprotocol + " was not offered: " + offered);
        }
        this.subprotocol = subprotocol;
    }

    /** @return the subprotocol picked, or null */
    public String getSubprotocol() {
        return subprotocol;
    }

    /** Refuses the handshake with an HTTP status (4xx or 5xx) and a reason for the error page. */
    public void refuse(int status, String reason) {
        if (status < 400 || status > 599) {
            throw new IllegalArgumentException("refuse with a 4xx or 5xx status, not " + status);
        }
        this.refusedStatus = status;
        this.refusedReason = reason;
    }

    int getRefusedStatus() {
        return refusedStatus;
    }

    String getRefusedReason() {
        return refusedReason;
    }
}
