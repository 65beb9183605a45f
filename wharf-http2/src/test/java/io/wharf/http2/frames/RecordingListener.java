package io.wharf.http2.frames;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.wharf.http.HttpField;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.io.Content;

/**
 * Test listener: writes each event as one line of text, copies DATA bytes and releases each
 * chunk at once, as a well-behaved session would. {@link #events()} merges the pieces of
 * consecutive DATA calls on one stream, so a frame split between reads reads the same as whole.
 * Tests that watch one event more closely override it.
 */
class RecordingListener implements FrameListener {

    private final List<String> raw = new ArrayList<>();
    private final List<DataPiece> pieces = new ArrayList<>();
    int connectionErrors;

    private record DataPiece(int index, int streamId, String bytes, int padding, boolean last) {
    }

    @Override
    public void onData(int streamId, Content.Chunk data, int padding) {
        try {
            ByteBuffer bytes = data.getByteBuffer();
            byte[] copy = new byte[bytes.remaining()];
            bytes.get(bytes.position(), copy);
            pieces.add(new DataPiece(raw.size(), streamId, new String(copy, StandardCharsets.ISO_8859_1), padding, data.isLast()));
            raw.add(null);
        } finally {
            data.release();
        }
    }

    @Override
    public void onHeaders(int streamId, HeaderBlock headers, Priority priority, boolean endStream) {
        raw.add("HEADERS " + streamId + " " + fields(headers) + (priority != null ? " " + priority : "")
            + (endStream ? " END_STREAM" : ""));
    }

    @Override
    public void onPriority(int streamId, Priority priority) {
        raw.add("PRIORITY " + streamId + " " + priority);
    }

    @Override
    public void onRstStream(int streamId, long errorCode) {
        raw.add("RST_STREAM " + streamId + " " + errorCode);
    }

    @Override
    public void onSettings(Settings settings, boolean ack) {
        raw.add(ack ? "SETTINGS ACK" : "SETTINGS " + settings);
    }

    @Override
    public void onPushPromise(int streamId, int promisedStreamId, HeaderBlock headers) {
        raw.add("PUSH_PROMISE " + streamId + " " + promisedStreamId + " " + fields(headers));
    }

    @Override
    public void onPing(long payload, boolean ack) {
        raw.add("PING " + Long.toHexString(payload) + (ack ? " ACK" : ""));
    }

    @Override
    public void onGoAway(int lastStreamId, long errorCode, ByteBuffer debugData) {
        byte[] debug = new byte[debugData.remaining()];
        debugData.get(debugData.position(), debug);
        raw.add("GOAWAY " + lastStreamId + " " + errorCode + " '" + new String(debug, StandardCharsets.UTF_8) + "'");
    }

    @Override
    public void onWindowUpdate(int streamId, int increment) {
        raw.add("WINDOW_UPDATE " + streamId + " " + increment);
    }

    @Override
    public void onStreamError(int streamId, ErrorCode error, String reason) {
        raw.add("STREAM_ERROR " + streamId + " " + error + ": " + reason);
    }

    @Override
    public void onConnectionError(ErrorCode error, String reason) {
        connectionErrors++;
        raw.add("CONNECTION_ERROR " + error + ": " + reason);
    }

    private static String fields(HeaderBlock headers) {
        if (headers.tooLarge()) {
            return "[too large: " + headers.size() + "]";
        }
        List<String> fields = new ArrayList<>();
        for (HttpField field : headers.pseudoHeaders()) {
            fields.add(field.getName() + "=" + field.getValue());
        }
        for (HttpField field : headers.fields()) {
            fields.add(field.getName() + "=" + field.getValue());
        }
        return fields.toString();
    }

    /** @return the events, the DATA pieces of one stream that follow each other merged into one */
    List<String> events() {
        List<String> events = new ArrayList<>();
        int piece = 0;
        for (int i = 0; i < raw.size(); i++) {
            if (raw.get(i) != null) {
                events.add(raw.get(i));
                continue;
            }
            DataPiece first = pieces.get(piece++);
            StringBuilder bytes = new StringBuilder(first.bytes());
            int padding = first.padding();
            boolean last = first.last();
            while (i + 1 < raw.size() && raw.get(i + 1) == null && pieces.get(piece).streamId() == first.streamId()) {
                DataPiece next = pieces.get(piece++);
                bytes.append(next.bytes());
                padding += next.padding();
                last |= next.last();
                i++;
            }
            events.add("DATA " + first.streamId() + " '" + bytes + "'" + (padding > 0 ? " padding " + padding : "")
                + (last ? " END_STREAM" : ""));
        }
        return events;
    }

    /** @return how many times {@link #onData} was called */
    int dataCalls() {
        return pieces.size();
    }

    /** @return the events as received, each DATA call its own line */
    List<String> rawEvents() {
        List<String> events = new ArrayList<>();
        int piece = 0;
        for (String event : raw) {
            if (event != null) {
                events.add(event);
            } else {
                DataPiece data = pieces.get(piece++);
                events.add("DATA " + data.streamId() + " '" + data.bytes() + "' padding " + data.padding()
                    + (data.last() ? " END_STREAM" : ""));
            }
        }
        return events;
    }
}
