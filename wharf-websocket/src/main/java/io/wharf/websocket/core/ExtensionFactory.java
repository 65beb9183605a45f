package io.wharf.websocket.core;

import java.util.List;

import io.wharf.util.buffer.ByteBufferPool;

/**
 * Makes an {@link Extension} of one kind when a handshake agrees on it, on either side. A
 * factory is shared by every session of a server handler or a client, and may hold what they
 * share (pools of inflaters and deflaters). Any thread: handshakes run concurrently.
 */
public interface ExtensionFactory {

    /** @return the extension's token, as in {@code Sec-WebSocket-Extensions} */
    String name();

    /**
     * The server's side: answers one offer of this extension.
     *
     * @param offer one element of the client's offer, named {@link #name()}
     * @param buffers the pool the session's buffers come from
     * @return the extension agreed (its {@link Extension#config()} is the answer), or null to
     *     decline this offer (the server then tries the client's next one)
     */
    Extension acceptOffer(ExtensionConfig offer, ByteBufferPool buffers);

    /** The client's side: @return the offers to send, in order of preference */
    List<ExtensionConfig> offers();

    /**
     * The client's side: takes the server's answer to one of our offers.
     *
     * @param buffers the pool the session's buffers come from
     * @return the extension agreed
     * @throws IllegalArgumentException naming what makes the answer unacceptable (the client
     *     then fails the handshake)
     */
    Extension acceptResponse(ExtensionConfig response, ByteBufferPool buffers);
}
