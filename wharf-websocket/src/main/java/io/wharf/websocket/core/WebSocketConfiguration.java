package io.wharf.websocket.core;

import java.time.Duration;
import java.util.Objects;

/**
 * The limits and timeouts of one WebSocket session, shared by server and client. Immutable;
 * change a copy with the {@code with...} methods.
 *
 * @param maxFrameSize the largest frame payload accepted, in bytes (a larger one closes with 1009,
 *     refused from its header before any of its payload is kept)
 * @param maxTextMessageSize the largest text message, in UTF-8 bytes, summed over its fragments (1009)
 * @param maxBinaryMessageSize the largest binary message, in bytes, summed over its fragments (1009)
 * @param idleTimeout how long a session may see no byte move before it closes with 1001
 * @param closeTimeout how long a local close waits for the peer's close frame before the
 *     connection is dropped
 * @param maxQueuedFrames how many outgoing frames may wait to be written; a send beyond fails
 *     its callback (see {@link FrameFlusher})
 * @param inputBufferSize the size of the pooled buffer read into
 */
public record WebSocketConfiguration(long maxFrameSize, int maxTextMessageSize, int maxBinaryMessageSize,
        Duration idleTimeout, Duration closeTimeout, int maxQueuedFrames, int inputBufferSize) {

    public WebSocketConfiguration {
        Objects.requireNonNull(idleTimeout, "idleTimeout");
        Objects.requireNonNull(closeTimeout, "closeTimeout");
        if (maxFrameSize < 125 || maxTextMessageSize < 1 || maxBinaryMessageSize < 1 || maxQueuedFrames < 2 || inputBufferSize < 64) {
            throw new IllegalArgumentException("limits too small: " + maxFrameSize + "/" + maxTextMessageSize + "/"
                + maxBinaryMessageSize + "/" + maxQueuedFrames + "/" + inputBufferSize);
        }
    }

    /** @return 64 KiB frames and messages, 30 s idle, 5 s close, 1024 queued frames, 4 KiB reads */
    public static WebSocketConfiguration defaults() {
        return new WebSocketConfiguration(64 * 1024, 64 * 1024, 64 * 1024, Duration.ofSeconds(30), Duration.ofSeconds(5), 1024, 4096);
    }

    /** @return a copy whose frame, text and binary limits are all {@code bytes} */
    public WebSocketConfiguration withMaxMessageSize(int bytes) {
        return new WebSocketConfiguration(bytes, bytes, bytes, idleTimeout, closeTimeout, maxQueuedFrames, inputBufferSize);
    }

    /** @return a copy with these limits */
    public WebSocketConfiguration withLimits(long frame, int text, int binary) {
        return new WebSocketConfiguration(frame, text, binary, idleTimeout, closeTimeout, maxQueuedFrames, inputBufferSize);
    }

    /** @return a copy with these timeouts */
    public WebSocketConfiguration withTimeouts(Duration idle, Duration close) {
        return new WebSocketConfiguration(maxFrameSize, maxTextMessageSize, maxBinaryMessageSize, idle, close, maxQueuedFrames, inputBufferSize);
    }

    /** @return a copy with this bound on the outgoing queue */
    public WebSocketConfiguration withMaxQueuedFrames(int frames) {
        return new WebSocketConfiguration(maxFrameSize, maxTextMessageSize, maxBinaryMessageSize, idleTimeout, closeTimeout, frames, inputBufferSize);
    }

    /** @return the frame limit the parser enforces: no frame may be larger than the largest message either */
    long effectiveFrameLimit() {
        return Math.max(125, Math.min(maxFrameSize, Math.max(maxTextMessageSize, maxBinaryMessageSize)));
    }
}
