package io.wharf.http2.frames.internal;

import java.nio.ByteBuffer;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameListener;
import io.wharf.http2.frames.FrameType;
import io.wharf.http2.frames.Priority;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;

/**
 * Reads the whole payload of a frame that carries no header block and no content — PRIORITY,
 * RST_STREAM, SETTINGS, PING, GOAWAY, WINDOW_UPDATE — checks what its header could not tell
 * (setting values, self-dependency, a zero window increment) and tells the listener.
 *
 * <p>Stateless: the parser calls it on its thread with the payload at absolute indexes of a
 * buffer it owns; the buffer is only read.
 */
public final class ControlFrameReader {

    private ControlFrameReader() {
    }

    /**
     * @param fromServer whether the frame comes from a server (which may not enable push)
     * @return the rule the payload breaks (nothing was told then), or null once the listener was told
     */
    public static Violation read(FrameType type, int flags, int streamId, ByteBuffer payload, int offset, int length,
                                 boolean fromServer, FrameListener listener) {
        switch (type) {
            case PRIORITY -> {
                Priority priority = priority(payload, offset);
                if (priority.dependency() == streamId) {
                    return Violation.stream(ErrorCode.PROTOCOL_ERROR, "stream " + streamId
                        + " depends on itself (RFC 9113 section 5.3.1)");
                }
                listener.onPriority(streamId, priority);
            }
            case RST_STREAM -> listener.onRstStream(streamId, Integer.toUnsignedLong(int32(payload, offset)));
            case SETTINGS -> {
                return settings(flags, payload, offset, length, fromServer, listener);
            }
            case PING -> listener.onPing((long) int32(payload, offset) << 32 | Integer.toUnsignedLong(int32(payload, offset + 4)), Flags.has(flags, Flags.ACK));
            case GOAWAY -> {
                int lastStreamId = int32(payload, offset) & 0x7FFF_FFFF;
                long errorCode = Integer.toUnsignedLong(int32(payload, offset + 4));
                listener.onGoAway(lastStreamId, errorCode, payload.slice(offset + 8, length - 8).asReadOnlyBuffer());
            }
            case WINDOW_UPDATE -> {
                int increment = int32(payload, offset) & 0x7FFF_FFFF;
                if (increment == 0) {
                    String reason = "WINDOW_UPDATE with an increment of 0 (RFC 9113 section 6.9)";
                    return streamId == 0 ? Violation.connection(ErrorCode.PROTOCOL_ERROR, reason)
                        : Violation.stream(ErrorCode.PROTOCOL_ERROR, reason);
                }
                listener.onWindowUpdate(streamId, increment);
            }
            default -> throw new IllegalArgumentException("not a control frame: " + type);
        }
        return null;
    }

    /** @return the priority of the five octets at {@code offset}: E bit and dependency, then weight - 1 */
    public static Priority priority(ByteBuffer payload, int offset) {
        int dependency = int32(payload, offset);
        return new Priority(dependency & 0x7FFF_FFFF, dependency < 0, (payload.get(offset + 4) & 0xFF) + 1);
    }

    /** @return the big-endian 32 bits at absolute {@code index}, whatever the buffer's byte order */
    public static int int32(ByteBuffer buffer, int index) {
        return (buffer.get(index) & 0xFF) << 24 | (buffer.get(index + 1) & 0xFF) << 16
            | (buffer.get(index + 2) & 0xFF) << 8 | buffer.get(index + 3) & 0xFF;
    }

    private static Violation settings(int flags, ByteBuffer payload, int offset, int length, boolean fromServer,
                                      FrameListener listener) {
        if (Flags.has(flags, Flags.ACK)) {
            listener.onSettings(Settings.EMPTY, true);
            return null;
        }
        Settings.Builder settings = Settings.builder();
        for (int at = offset, end = offset + length; at < end; at += 6) {
            Setting setting = Setting.from((payload.get(at) & 0xFF) << 8 | payload.get(at + 1) & 0xFF);
            if (setting == null) {
                continue;
            }
            long value = Integer.toUnsignedLong(int32(payload, at + 2));
            String problem = setting.check(value);
            if (problem != null) {
                return Violation.connection(setting.error(), problem + " (RFC 9113 section 6.5.2)");
            }
            if (setting == Setting.ENABLE_PUSH && value == 1 && fromServer) {
                return Violation.connection(ErrorCode.PROTOCOL_ERROR, "a server sent ENABLE_PUSH 1 (RFC 9113 section 6.5.2)");
            }
            settings.set(setting, value);
        }
        listener.onSettings(settings.build(), false);
        return null;
    }
}
