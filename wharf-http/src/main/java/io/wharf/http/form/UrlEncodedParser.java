package io.wharf.http.form;

import java.nio.ByteBuffer;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Objects;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;
import io.wharf.http.internal.HttpTokens;

/**
 * A push parser for {@code application/x-www-form-urlencoded} content, as the WHATWG URL
 * standard defines it for HTML forms: {@code &}-separated {@code name=value} pairs, where
 * {@code +} is a space and {@code %XX} is the byte {@code XX}. The decoded bytes of each name
 * and value are read in the parser's charset (UTF-8 unless told otherwise).
 *
 * <p>Choices where browsers and servers differ:
 * <ul>
 * <li>A pair without {@code =} is a name with an empty value; empty pairs ({@code a&&b},
 *     a trailing {@code &}) are skipped; {@code =x} is the empty name with value {@code x}.</li>
 * <li>A {@code %} not followed by two hex digits is a 400, where the WHATWG parser would keep it
 *     as text: a form is produced by a browser that always escapes {@code %}, so a bare one
 *     means a broken or hostile client.</li>
 * <li>Bytes that are not valid in the charset become U+FFFD (the replacement character), as the
 *     WHATWG "UTF-8 decode without BOM" does; they are not an error.</li>
 * </ul>
 *
 * <p>Threads and buffers: one request's content source calls {@link #parse(ByteBuffer, boolean)}
 * chunk by chunk, possibly from different threads one after another, never concurrently. The
 * parser reads each chunk from its position to its limit, leaves the position at the limit
 * on success, and keeps no reference to it once {@code parse} returns: the caller owns and
 * releases the chunk. It holds at most the undecoded bytes of one name or value, which the
 * content limit bounds.
 *
 * <p>Limits ({@link FormLimits}) fail early: the chunk that takes the content past
 * {@code maxContentBytes} is refused before it is read, and the first byte of the key past
 * {@code maxKeys} fails at once; both with a 413 naming the limit. After a failure the parser
 * refuses further input.
 */
public final class UrlEncodedParser {

    private static final String ASCII_PROBE = "%&+=09AZaz";

    /** Where the parser is in the current pair. */
    private enum Phase {
        /** No byte of the pair yet. */
        PAIR_START,
        NAME,
        VALUE,
        /** The last chunk was parsed; the fields are ready. */
        COMPLETE,
        /** A chunk broke the form or a limit; no more input is taken. */
        FAILED
    }

    /** Where the parser is inside a {@code %XX} escape. */
    private enum Escape {
        NONE,
        AFTER_PERCENT,
        AFTER_FIRST_DIGIT
    }

    private final Charset charset;
    private final FormLimits limits;
    private final FormFields fields = new FormFields();
    private Phase phase = Phase.PAIR_START;
    private Escape escape = Escape.NONE;
    private int firstDigit;
    private byte[] pending = new byte[32];
    private int pendingLength;
    private String name;
    private long contentBytes;
    private int keys;

    /**
     * @param charset how the decoded bytes of names and values are read; must encode ASCII as
     *     ASCII (UTF-8, ISO-8859-1, windows-1252...)
     * @param limits the limits to enforce
     * @throws IllegalArgumentException when the charset does not keep ASCII bytes as they are
     */
    public UrlEncodedParser(Charset charset, FormLimits limits) {
        this.charset = requireAsciiCompatible(charset);
        this.limits = Objects.requireNonNull(limits, "limits");
    }

    /** A parser for UTF-8 forms with the {@link FormLimits#DEFAULT default limits}. */
    public UrlEncodedParser() {
        this(StandardCharsets.UTF_8, FormLimits.DEFAULT);
    }

    /**
     * Decodes a URI query string ({@code a=1&b=2}, without the {@code ?}) into fields, under
     * the same rules and limits as a form body. The query's characters are first encoded in
     * {@code charset}, so raw non-ASCII characters survive.
     *
     * @param query the query, or null for none
     * @return the fields, empty when there is no query
     * @throws BadMessageException 400 for a bad {@code %} escape, 413 when a limit is passed
     */
    public static FormFields decodeQuery(String query, Charset charset, FormLimits limits) {
        UrlEncodedParser parser = new UrlEncodedParser(charset, limits);
        byte[] bytes = query == null ? new byte[0] : query.getBytes(charset);
        parser.parse(ByteBuffer.wrap(bytes), true);
        return parser.getFields();
    }

    /**
     * Parses the next chunk of the form.
     *
     * @param chunk the bytes from its position to its limit; read but not kept
     * @param last whether this is the end of the form
     * @throws BadMessageException 400 for a bad {@code %} escape, 413 when a limit is passed
     * @throws IllegalStateException after the last chunk or after a failure
     */
    public void parse(ByteBuffer chunk, boolean last) {
        if (phase == Phase.COMPLETE) {
            throw new IllegalStateException("form already complete");
        }
        if (phase == Phase.FAILED) {
            throw new IllegalStateException("form parse already failed");
        }
        try {
            countContent(chunk.remaining());
            int limit = chunk.limit();
            for (int index = chunk.position(); index < limit; index++) {
                accept(chunk.get(index));
            }
            chunk.position(limit);
            if (last) {
                finish();
            }
        } catch (RuntimeException failure) {
            phase = Phase.FAILED;
            throw failure;
        }
    }

    /**
     * @return the fields parsed, in order
     * @throws IllegalStateException before the last chunk was parsed
     */
    public FormFields getFields() {
        if (phase != Phase.COMPLETE) {
            throw new IllegalStateException("form not complete: " + phase);
        }
        return fields;
    }

    private void countContent(int bytes) {
        long max = limits.maxContentBytes();
        if (max >= 0 && contentBytes + bytes > max) {
            throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                    "form content exceeds maxContentBytes " + max);
        }
        contentBytes += bytes;
    }

    private void accept(byte b) {
        if (escape != Escape.NONE) {
            acceptEscapeDigit(b);
            return;
        }
        switch (b) {
            case '&' -> endPair();
            case '=' -> {
                startPairIfNeeded();
                if (phase == Phase.NAME) {
                    name = takePending();
                    phase = Phase.VALUE;
                } else {
                    append(b);
                }
            }
            case '+' -> {
                startPairIfNeeded();
                append((byte) ' ');
            }
            case '%' -> {
                startPairIfNeeded();
                escape = Escape.AFTER_PERCENT;
            }
            default -> {
                startPairIfNeeded();
                append(b);
            }
        }
    }

    private void acceptEscapeDigit(byte b) {
        int digit = HttpTokens.hexValue(b);
        if (digit < 0) {
            throw new BadMessageException("bad percent escape in form: '%' must be followed by two hex digits");
        }
        if (escape == Escape.AFTER_PERCENT) {
            firstDigit = digit;
            escape = Escape.AFTER_FIRST_DIGIT;
        } else {
            append((byte) (firstDigit << 4 | digit));
            escape = Escape.NONE;
        }
    }

    private void startPairIfNeeded() {
        if (phase != Phase.PAIR_START) {
            return;
        }
        int max = limits.maxKeys();
        if (max >= 0 && keys >= max) {
            throw new BadMessageException(HttpStatus.CONTENT_TOO_LARGE_413,
                    "form has more keys than maxKeys " + max);
        }
        keys++;
        phase = Phase.NAME;
    }

    private void endPair() {
        switch (phase) {
            case NAME -> fields.add(takePending(), "");
            case VALUE -> {
                fields.add(name, takePending());
                name = null;
            }
            default -> {
                return;
            }
        }
        phase = Phase.PAIR_START;
    }

    private void finish() {
        if (escape != Escape.NONE) {
            throw new BadMessageException("bad percent escape in form: the form ends inside a '%' escape");
        }
        endPair();
        phase = Phase.COMPLETE;
        pending = null;
    }

    private void append(byte b) {
        if (pendingLength == pending.length) {
            // A decoded name or value is never longer than the content, so the content limit
            // also caps the buffer.
            long max = limits.maxContentBytes();
            long capacity = pending.length * 2L;
            if (max >= 0) {
                capacity = Math.min(capacity, max);
            }
            pending = Arrays.copyOf(pending, (int) Math.min(capacity, Integer.MAX_VALUE - 8));
        }
        pending[pendingLength++] = b;
    }

    private String takePending() {
        String text = new String(pending, 0, pendingLength, charset);
        pendingLength = 0;
        return text;
    }

    private static Charset requireAsciiCompatible(Charset charset) {
        Objects.requireNonNull(charset, "charset");
        if (!Arrays.equals(ASCII_PROBE.getBytes(charset), ASCII_PROBE.getBytes(StandardCharsets.US_ASCII))) {
            throw new IllegalArgumentException("charset does not encode ASCII as ASCII: " + charset.name());
        }
        return charset;
    }
}
