package io.wharf.http.internal;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpHeaderValue;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.http.PreEncodedHttpField;

/**
 * Writes the pieces of an HTTP/1 message head into a buffer: start lines, field lines,
 * numbers and the fixed lines of chunked framing. Used by {@code HttpGenerator} on the
 * thread that generates; stateless, so any thread may call it.
 *
 * <p>Every method writes at the buffer's position with relative puts and allocates nothing;
 * when the buffer is too small it throws {@link BufferOverflowException} having written part
 * of its bytes, so the caller restores the position it saved. The buffer belongs to the caller.
 *
 * <p>Nothing written here can end a line early: text from the application is sanitised
 * (control characters become a space in values and reasons, a name's non-token characters
 * become {@code _}), so no field value or reason phrase can split a message.
 */
public final class HeadEncoder {

    public static final byte[] CRLF = {'\r', '\n'};
    public static final byte[] CONNECTION_CLOSE = ascii("Connection: close\r\n");
    public static final byte[] CONNECTION_KEEP_ALIVE = ascii("Connection: keep-alive\r\n");
    public static final byte[] TRANSFER_ENCODING_CHUNKED = ascii("Transfer-Encoding: chunked\r\n");
    /** The last chunk's size line, {@code 0\r\n}, before the trailer fields and the final CRLF. */
    private static final byte[] LAST_CHUNK = ascii("0\r\n");

    private static final byte[] HEX_DIGITS = ascii("0123456789abcdef");
    private static final int FIRST_STATUS = 100;
    private static final int LAST_CACHED_STATUS = 599;
    /** Whole status lines with the standard reason, by version then status; null where unknown. */
    private static final byte[][] STATUS_LINES_1_0 = statusLines(HttpVersion.HTTP_1_0);
    private static final byte[][] STATUS_LINES_1_1 = statusLines(HttpVersion.HTTP_1_1);

    private HeadEncoder() {
    }

    /**
     * Writes {@code "HTTP/1.1 200 OK\r\n"}: a cached line when the reason is null or the
     * standard one, otherwise the reason with control characters replaced by spaces.
     */
    public static void putStatusLine(ByteBuffer buffer, HttpVersion version, int status, String reason) {
        if (status >= FIRST_STATUS && status <= LAST_CACHED_STATUS
                && (reason == null || reason.equals(HttpStatus.getReason(status)))) {
            byte[] line = (version == HttpVersion.HTTP_1_0 ? STATUS_LINES_1_0 : STATUS_LINES_1_1)[status - FIRST_STATUS];
            if (line != null) {
                buffer.put(line);
                return;
            }
        }
        buffer.put(version.toBytes());
        buffer.put((byte) ' ');
        putDecimal(buffer, status);
        buffer.put((byte) ' ');
        putSanitisedText(buffer, reason != null ? reason : HttpStatus.getReason(status));
        buffer.put(CRLF);
    }

    /**
     * Writes {@code "GET /target HTTP/1.1\r\n"}.
     *
     * @throws IllegalArgumentException when the method is not a token or the target holds a
     *     character outside visible ASCII (a request-target is sent percent-encoded)
     */
    public static void putRequestLine(ByteBuffer buffer, String method, String target, HttpVersion version) {
        if (method.isEmpty()) {
            throw new IllegalArgumentException("request method is empty");
        }
        for (int i = 0; i < method.length(); i++) {
            char c = method.charAt(i);
            if (!isTokenCharacter(c)) {
                throw new IllegalArgumentException("request method has an illegal character 0x"
                        + Integer.toHexString(c) + " at " + i);
            }
        }
        if (target.isEmpty()) {
            throw new IllegalArgumentException("request target is empty");
        }
        for (int i = 0; i < target.length(); i++) {
            char c = target.charAt(i);
            if (c <= ' ' || c >= 0x7F) {
                throw new IllegalArgumentException("request target has an illegal character 0x"
                        + Integer.toHexString(c) + " at " + i);
            }
        }
        putAscii(buffer, method);
        buffer.put((byte) ' ');
        putAscii(buffer, target);
        buffer.put((byte) ' ');
        buffer.put(version.toBytes());
        buffer.put(CRLF);
    }

    /**
     * Writes one field line, {@code "Name: value\r\n"}: a pre-encoded field is copied, a known
     * header's name comes from {@link HttpHeader#getBytesColonSpace()}, other names and all
     * values are encoded as ISO-8859-1 after sanitising (see the class comment; a character
     * beyond ISO-8859-1 becomes {@code ?}).
     *
     * @throws IllegalArgumentException when the field's name is empty
     */
    public static void putField(ByteBuffer buffer, HttpField field) {
        if (field instanceof PreEncodedHttpField encoded) {
            encoded.putTo(buffer);
            return;
        }
        HttpHeader header = field.getHeader();
        if (header != null) {
            buffer.put(header.getBytesColonSpace());
        } else {
            putSanitisedName(buffer, field.getName());
            buffer.put((byte) ':');
            buffer.put((byte) ' ');
        }
        putSanitisedText(buffer, field.getValue());
        buffer.put(CRLF);
    }

    /**
     * Writes a message's own fields except those a generator decides itself: Content-Length
     * always, Transfer-Encoding unless {@code transferCodingsAsGiven} (codings before chunked),
     * a Connection field asking for keep-alive when {@code closing}, and HTTP/2 pseudo-headers.
     */
    public static void putMessageFields(ByteBuffer buffer, HttpFields fields, boolean closing,
                                        boolean transferCodingsAsGiven) {
        for (int i = 0, size = fields.size(); i < size; i++) {
            HttpField field = fields.getField(i);
            HttpHeader known = field.getHeader();
            if (known != null) {
                boolean skip = switch (known) {
                    case CONTENT_LENGTH -> true;
                    case TRANSFER_ENCODING -> !transferCodingsAsGiven;
                    case CONNECTION -> closing && field.contains(HttpHeaderValue.KEEP_ALIVE.asString());
                    default -> known.isPseudo();
                };
                if (skip) {
                    continue;
                }
            }
            putField(buffer, field);
        }
    }

    /**
     * Writes the last chunk, {@code 0\r\n}, the trailer fields (except those that frame or
     * route a message: Content-Length, Transfer-Encoding, Connection, Host, pseudo-headers) and
     * the final CRLF (RFC 9112 section 7.1.2).
     */
    public static void putLastChunk(ByteBuffer buffer, HttpFields trailers) {
        buffer.put(LAST_CHUNK);
        for (int i = 0, size = trailers.size(); i < size; i++) {
            HttpField field = trailers.getField(i);
            HttpHeader known = field.getHeader();
            boolean skip = known != null && switch (known) {
                case CONTENT_LENGTH, TRANSFER_ENCODING, CONNECTION, HOST -> true;
                default -> known.isPseudo();
            };
            if (!skip) {
                putField(buffer, field);
            }
        }
        buffer.put(CRLF);
    }

    /** Writes {@code "Name: 1234\r\n"} without making a String of the number. */
    public static void putLongField(ByteBuffer buffer, HttpHeader header, long value) {
        buffer.put(header.getBytesColonSpace());
        putDecimal(buffer, value);
        buffer.put(CRLF);
    }

    /** Writes a non-negative number in decimal digits. */
    public static void putDecimal(ByteBuffer buffer, long value) {
        if (value < 0) {
            throw new IllegalArgumentException("negative number: " + value);
        }
        int digits = digits(value);
        int start = buffer.position();
        if (buffer.remaining() < digits) {
            throw new BufferOverflowException();
        }
        for (int i = start + digits - 1; i >= start; i--) {
            buffer.put(i, (byte) ('0' + value % 10));
            value /= 10;
        }
        buffer.position(start + digits);
    }

    /** @return how many decimal digits {@code value} (not negative) has: by comparison, no division for the usual small numbers */
    static int digits(long value) {
        if (value < 10) {
            return 1;
        }
        if (value < 100) {
            return 2;
        }
        if (value < 1000) {
            return 3;
        }
        if (value < 10000) {
            return 4;
        }
        int digits = 5;
        for (long rest = value / 100000; rest > 0; rest /= 10) {
            digits++;
        }
        return digits;
    }

    /** Writes a chunk-size line, the positive size in lower-case hex then CRLF (RFC 9112 section 7.1). */
    public static void putChunkSize(ByteBuffer buffer, long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("chunk size must be positive: " + size);
        }
        int digits = (64 - Long.numberOfLeadingZeros(size) + 3) / 4;
        int start = buffer.position();
        if (buffer.remaining() < digits + 2) {
            throw new BufferOverflowException();
        }
        for (int i = start + digits - 1; i >= start; i--) {
            buffer.put(i, HEX_DIGITS[(int) (size & 0xF)]);
            size >>>= 4;
        }
        buffer.position(start + digits);
        buffer.put(CRLF);
    }

    /** @return whether {@code c} may appear in a token (RFC 9110 section 5.6.2) */
    public static boolean isTokenCharacter(char c) {
        if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
            return true;
        }
        return switch (c) {
            case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~' -> true;
            default -> false;
        };
    }

    /** Writes text already known to be ASCII. */
    private static void putAscii(ByteBuffer buffer, String text) {
        for (int i = 0, length = text.length(); i < length; i++) {
            buffer.put((byte) text.charAt(i));
        }
    }

    /** Writes a value or reason: tab kept, other controls (CR, LF, NUL, DEL...) become spaces. */
    private static void putSanitisedText(ByteBuffer buffer, String text) {
        for (int i = 0, length = text.length(); i < length; i++) {
            char c = text.charAt(i);
            if (c < ' ' && c != '\t' || c == 0x7F) {
                c = ' ';
            } else if (c > 0xFF) {
                c = '?';
            }
            buffer.put((byte) c);
        }
    }

    private static void putSanitisedName(ByteBuffer buffer, String name) {
        if (name.isEmpty()) {
            throw new IllegalArgumentException("field name is empty");
        }
        for (int i = 0, length = name.length(); i < length; i++) {
            char c = name.charAt(i);
            buffer.put((byte) (isTokenCharacter(c) ? c : '_'));
        }
    }

    private static byte[][] statusLines(HttpVersion version) {
        byte[][] lines = new byte[LAST_CACHED_STATUS - FIRST_STATUS + 1][];
        for (int status = FIRST_STATUS; status <= LAST_CACHED_STATUS; status++) {
            String reason = HttpStatus.getReason(status);
            if (!"Unknown".equals(reason)) {
                lines[status - FIRST_STATUS] = ascii(version.asString() + " " + status + " " + reason + "\r\n");
            }
        }
        return lines;
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
