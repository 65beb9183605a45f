package io.wharf.websocket.core;

/**
 * A send refused because the session's outgoing queue already holds its maximum of frames
 * (see {@link WebSocketConfiguration#maxQueuedFrames()}): the sender went faster than the peer
 * reads. The session stays open; wait for earlier sends to complete before sending more.
 */
public class WebSocketQueueFullException extends IllegalStateException {

    public WebSocketQueueFullException(int maxQueued) {
        super("the outgoing queue is full (" + maxQueued + " frames)");
    }
}
