package io.wharf.http2.session;

import java.nio.ByteBuffer;
import java.util.function.Consumer;
import java.util.function.Function;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameListener;
import io.wharf.http2.frames.Priority;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.io.Content;

/**
 * Test listener for the peer a session test plays: tells {@code lines} one line per frame it
 * reads — {@code DATA id <content>}, {@code HEADERS id <pseudo-header>[ END_STREAM]},
 * {@code RST_STREAM id code}, {@code SETTINGS[ ACK]}, {@code GOAWAY last code} and the parse
 * errors — leaving out PRIORITY, PUSH_PROMISE, PING and WINDOW_UPDATE. Each DATA chunk is
 * released once described.
 */
final class FrameLines implements FrameListener {

    private final Consumer<String> lines;
    private final String pseudoHeader;
    private final Function<Content.Chunk, String> content;

    /**
     * @param pseudoHeader the pseudo-header a HEADERS line shows, e.g. {@code :path} or {@code :status}
     * @param content what a DATA line shows of its chunk
     */
    FrameLines(Consumer<String> lines, String pseudoHeader, Function<Content.Chunk, String> content) {
        this.lines = lines;
        this.pseudoHeader = pseudoHeader;
        this.content = content;
    }

    @Override
    public void onData(int streamId, Content.Chunk data, int padding) {
        lines.accept("DATA " + streamId + " " + content.apply(data));
        data.release();
    }

    @Override
    public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
        lines.accept("HEADERS " + streamId + " " + headers.pseudoHeader(pseudoHeader) + (endStream ? " END_STREAM" : ""));
    }

    @Override
    public void onPriority(int streamId, Priority priority) {
    }

    @Override
    public void onRstStream(int streamId, long errorCode) {
        lines.accept("RST_STREAM " + streamId + " " + errorCode);
    }

    @Override
    public void onSettings(Settings settings, boolean ack) {
        lines.accept(ack ? "SETTINGS ACK" : "SETTINGS");
    }

    @Override
    public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
    }

    @Override
    public void onPing(long payload, boolean ack) {
    }

    @Override
    public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
        lines.accept("GOAWAY " + lastStreamId + " " + errorCode);
    }

    @Override
    public void onWindowUpdate(int streamId, int increment) {
    }

    @Override
    public void onStreamError(int streamId, ErrorCode error, String reason) {
        lines.accept("STREAM_ERROR " + streamId + " " + error);
    }

    @Override
    public void onConnectionError(ErrorCode error, String reason) {
        lines.accept("CONNECTION_ERROR " + error + " " + reason);
    }
}
