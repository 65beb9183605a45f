package io.wharf.http2.frames;

import java.nio.ByteBuffer;

import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.io.Content;

/** Test helper: passes every event to another listener; tests override what they watch. */
class FrameListenerAdapter implements FrameListener {

    private final FrameListener delegate;

    FrameListenerAdapter(FrameListener delegate) {
        this.delegate = delegate;
    }

    @Override
    public void onData(int streamId, Content.Chunk data, int padding) {
        delegate.onData(streamId, data, padding);
    }

    @Override
    public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
        delegate.onHeaders(streamId, headers, priority, endStream);
    }

    @Override
    public void onPriority(int streamId, Priority priority) {
        delegate.onPriority(streamId, priority);
    }

    @Override
    public void onRstStream(int streamId, long errorCode) {
        delegate.onRstStream(streamId, errorCode);
    }

    @Override
    public void onSettings(Settings settings, boolean ack) {
        delegate.onSettings(settings, ack);
    }

    @Override
    public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
        delegate.onPushPromise(streamId, promisedStreamId, headers);
    }

    @Override
    public void onPing(long payload, boolean ack) {
        delegate.onPing(payload, ack);
    }

    @Override
    public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
        delegate.onGoAway(lastStreamId, errorCode, debugData);
    }

    @Override
    public void onWindowUpdate(int streamId, int increment) {
        delegate.onWindowUpdate(streamId, increment);
    }

    @Override
    public void onStreamError(int streamId, ErrorCode error, String reason) {
        delegate.onStreamError(streamId, error, reason);
    }

    @Override
    public void onConnectionError(ErrorCode error, String reason) {
        delegate.onConnectionError(error, reason);
    }
}
