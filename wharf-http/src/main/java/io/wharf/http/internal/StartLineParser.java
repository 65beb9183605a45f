package io.wharf.http.internal;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpCompliance;
import io.wharf.http.HttpMethod;
import io.wharf.http.HttpParser;
import io.wharf.http.HttpParserListener;
import io.wharf.http.HttpStatus;
import io.wharf.http.HttpVersion;
import io.wharf.util.Index;

/**
 * Parses a complete request line (RFC 9112 section 3) or status line (section 4) and tells
 * the listener. The method is found with one walk of {@link HttpMethod#LOOK_AHEAD} and the
 * version with {@link HttpVersion#CACHE}, straight from the buffer, after a comparison of
 * whole words for the commonest ({@code GET }, {@code HTTP/1.1}); the request target is
 * the one String a cached request costs, and none when it repeats the last request's target.
 * Single spaces only: no tabs, no runs of blanks.
 * Only HTTP/1.0 and HTTP/1.1 are spoken (505 otherwise; a later HTTP/1 minor version
 * such as HTTP/1.2 is read as HTTP/1.1, as RFC 9110 section 2.5 asks); a versionless HTTP/0.9 request
 * line passes only when the mode allows {@code HTTP_0_9}.
 *
 * <p>Owned by one parser, used on its thread; remembers the version and status of the
 * current message until {@link #reset()}.
 */
public final class StartLineParser {

    private static final Index<HttpMethod> METHODS_IN_ANY_CASE = Index.<HttpMethod>builder()
            .caseSensitive(false)
            .withAll(HttpMethod.values(), HttpMethod::asString)
            .build();

    /** {@code "GET "}, {@code "HTTP/1.1"} and {@code "HTTP/1.0"} read as big-endian words. */
    private static final int GET_SPACE = (int) word("GET ");
    private static final long HTTP_1_1 = word("HTTP/1.1");
    private static final long HTTP_1_0 = word("HTTP/1.0");
    private static final byte[] HTTP_SLASH = {'H', 'T', 'T', 'P', '/'};

    /** Longest request target remembered for the next request line: longer ones are made anew each time. */
    public static final int REMEMBERED_TARGET_BYTES = 128;

    private final ComplianceGate gate;
    private final BufferText text;
    private HttpVersion version;
    private int status;
    /** The last request target, as a String and as its octets, for a client that asks for it again. */
    private String lastTarget;
    private byte[] lastTargetBytes;

    public StartLineParser(ComplianceGate gate, BufferText text) {
        this.gate = gate;
        this.text = text;
    }

    /** Forgets the previous message's start line. */
    public void reset() {
        version = null;
        status = 0;
    }

    /** @return the version of the current message, or null before its start line */
    public HttpVersion version() {
        return version;
    }

    /** @return the status of the current response, or 0 */
    public int status() {
        return status;
    }

    /**
     * Parses the request line at absolute indexes {@code [start, end)} (no line end, not
     * empty) and calls {@link HttpParserListener.Request#startRequest}.
     *
     * @return the version, {@link HttpVersion#HTTP_0_9} for an allowed versionless line
     */
    public HttpVersion parseRequest(ByteBuffer buffer, int start, int end, HttpParserListener.Request listener) {
        String method;
        int position;
        HttpMethod known = end - start > 4 && buffer.order() == ByteOrder.BIG_ENDIAN && buffer.getInt(start) == GET_SPACE
                ? HttpMethod.GET : HttpMethod.LOOK_AHEAD.getBest(buffer, start, end - start);
        if (known != null) {
            method = known.asString();
            position = start + method.length() + 1;
        } else {
            int methodEnd = start;
            while (methodEnd < end && HttpTokens.isToken(buffer.get(methodEnd))) {
                methodEnd++;
            }
            if (methodEnd == start) {
                throw new BadMessageException("request line does not start with a method token");
            }
            if (methodEnd == end || buffer.get(methodEnd) != ' ') {
                throw new BadMessageException(methodEnd == end ? "request line has only a method"
                        : "method is not followed by a single space");
            }
            method = unknownMethod(buffer, start, methodEnd);
            position = methodEnd + 1;
        }
        int targetStart = position;
        while (position < end && HttpTokens.isTarget(buffer.get(position))) {
            position++;
        }
        if (position == targetStart) {
            throw new BadMessageException(position < end && buffer.get(position) == ' '
                    ? "more than one space before the request target" : "request target is empty or starts badly");
        }
        String target = target(buffer, targetStart, position);
        if (position == end) {
            gate.check(HttpCompliance.Violation.HTTP_0_9, "request line without a version",
                    HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505, "HTTP/0.9 request (no version) is not supported");
            version = HttpVersion.HTTP_0_9;
        } else if (buffer.get(position) != ' ') {
            throw new BadMessageException("request target has an illegal character 0x" +
                    Integer.toHexString(buffer.get(position) & 0xFF));
        } else {
            version = requestVersion(buffer, position + 1, end, known != null);
        }
        listener.startRequest(method, target, version);
        return version;
    }

    /**
     * @return the request target at {@code [start, end)}: the same String as the last request's
     *     when the octets are the same (a keep-alive client asking for one resource again costs
     *     no String), otherwise a new one, remembered when short
     */
    private String target(ByteBuffer buffer, int start, int end) {
        int length = end - start;
        byte[] last = lastTargetBytes;
        if (last != null && last.length == length && sameOctets(buffer, start, last)) {
            return lastTarget;
        }
        String target = text.string(buffer, start, end);
        if (length <= REMEMBERED_TARGET_BYTES) {
            byte[] bytes = last != null && last.length == length ? last : new byte[length];
            buffer.get(start, bytes, 0, length);
            lastTargetBytes = bytes;
            lastTarget = target;
        }
        return target;
    }

    private static boolean sameOctets(ByteBuffer buffer, int start, byte[] bytes) {
        if (buffer.hasArray()) {
            int from = buffer.arrayOffset() + start;
            return Arrays.equals(buffer.array(), from, from + bytes.length, bytes, 0, bytes.length);
        }
        for (int i = 0; i < bytes.length; i++) {
            if (buffer.get(start + i) != bytes[i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * @return the method token as sent: methods are case-sensitive (RFC 9110 section 9.1), so
     *     {@code get} is an extension method of its own, not GET — unless the mode allows
     *     {@code CASE_INSENSITIVE_METHOD}, which folds it to the standard method and reports it
     */
    private String unknownMethod(ByteBuffer buffer, int start, int end) {
        HttpMethod folded = METHODS_IN_ANY_CASE.get(buffer, start, end - start);
        if (folded == null || !gate.allows(HttpCompliance.Violation.CASE_INSENSITIVE_METHOD)) {
            return text.string(buffer, start, end);
        }
        gate.check(HttpCompliance.Violation.CASE_INSENSITIVE_METHOD, BufferText.excerpt(buffer, start, end),
                "method " + BufferText.excerpt(buffer, start, end) + " is not in upper case");
        return folded.asString();
    }

    /**
     * @param knownMethod whether the line starts with a standard method, which makes it HTTP/1
     *     whatever its last word
     */
    private static HttpVersion requestVersion(ByteBuffer buffer, int start, int end, boolean knownMethod) {
        if (end - start == 8 && buffer.order() == ByteOrder.BIG_ENDIAN) {
            long word = buffer.getLong(start);
            if (word == HTTP_1_1) {
                return HttpVersion.HTTP_1_1;
            }
            if (word == HTTP_1_0) {
                return HttpVersion.HTTP_1_0;
            }
        }
        HttpVersion version = HttpVersion.CACHE.get(buffer, start, end - start);
        if (version == HttpVersion.HTTP_1_1 || version == HttpVersion.HTTP_1_0) {
            return version;
        }
        if (version == null && isLaterMinorOfOne(buffer, start, end)) {
            return HttpVersion.HTTP_1_1;
        }
        if (version != null || looksLikeVersion(buffer, start, end)) {
            throw new BadMessageException(HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505,
                    "HTTP version not supported; only HTTP/1.0 and HTTP/1.1");
        }
        if (end - start > 8 && looksLikeVersion(buffer, end - 8, end)) {
            throw new BadMessageException("request line has a space in its target or more than one space before the version");
        }
        if (end - start >= 5 && startsWithIgnoreCase(buffer, start, HTTP_SLASH)) {
            throw new BadMessageException(malformedVersion(buffer, start, end));
        }
        if (knownMethod) {
            throw new BadMessageException("request line does not end with an HTTP version");
        }
        throw new BadMessageException(HttpParser.NOT_HTTP_1);
    }

    /** @return what is wrong with a last word that starts {@code HTTP/} in some case but is no version */
    private static String malformedVersion(ByteBuffer buffer, int start, int end) {
        if (end - start >= 8 && looksLikeVersionIgnoringCase(buffer, start)) {
            if (!looksLikeVersion(buffer, start, start + 8)) {
                return "HTTP version not in upper case (HTTP/1.1)";
            }
            boolean blanks = true;
            for (int i = start + 8; i < end; i++) {
                blanks &= HttpTokens.isBlank(buffer.get(i));
            }
            if (blanks) {
                return "blank after the HTTP version";
            }
        }
        return "malformed HTTP version";
    }

    private static boolean startsWithIgnoreCase(ByteBuffer buffer, int start, byte[] upperCase) {
        for (int i = 0; i < upperCase.length; i++) {
            byte b = buffer.get(start + i);
            if (b != upperCase[i] && b != Character.toLowerCase(upperCase[i])) {
                return false;
            }
        }
        return true;
    }

    /** @return whether the 8 bytes at {@code start} are {@code HTTP/} DIGIT {@code .} DIGIT, letters in any case */
    private static boolean looksLikeVersionIgnoringCase(ByteBuffer buffer, int start) {
        return startsWithIgnoreCase(buffer, start, HTTP_SLASH) && isDigit(buffer.get(start + 5))
                && buffer.get(start + 6) == '.' && isDigit(buffer.get(start + 7));
    }

    /** @return whether the bytes are {@code HTTP/} DIGIT {@code .} DIGIT */
    private static boolean looksLikeVersion(ByteBuffer buffer, int start, int end) {
        if (end - start != 8) {
            return false;
        }
        return buffer.get(start) == 'H' && buffer.get(start + 1) == 'T' && buffer.get(start + 2) == 'T' &&
                buffer.get(start + 3) == 'P' && buffer.get(start + 4) == '/' && isDigit(buffer.get(start + 5)) &&
                buffer.get(start + 6) == '.' && isDigit(buffer.get(start + 7));
    }

    /**
     * @return whether the bytes are {@code HTTP/1.}n with n from 2 to 9: RFC 9110 section 2.5
     *     has a message of a later minor version of a major version we speak processed as the
     *     highest minor version we speak, HTTP/1.1
     */
    private static boolean isLaterMinorOfOne(ByteBuffer buffer, int start, int end) {
        return looksLikeVersion(buffer, start, end) && buffer.get(start + 5) == '1' && buffer.get(start + 7) > '1';
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /**
     * Parses the status line at absolute indexes {@code [start, end)} (no line end, not
     * empty) and calls {@link HttpParserListener.Response#startResponse}. The reason phrase
     * may be missing, with or without the space before it.
     *
     * @return the status code
     */
    public int parseResponse(ByteBuffer buffer, int start, int end, HttpParserListener.Response listener) {
        int space = start;
        while (space < end && buffer.get(space) != ' ') {
            space++;
        }
        HttpVersion parsed = HttpVersion.CACHE.get(buffer, start, space - start);
        if (parsed == null && isLaterMinorOfOne(buffer, start, space)) {
            parsed = HttpVersion.HTTP_1_1;
        }
        if (parsed == null) {
            throw new BadMessageException("status line does not start with an HTTP version");
        }
        if (parsed != HttpVersion.HTTP_1_1 && parsed != HttpVersion.HTTP_1_0) {
            throw new BadMessageException(HttpStatus.HTTP_VERSION_NOT_SUPPORTED_505,
                    "response version not supported; only HTTP/1.0 and HTTP/1.1");
        }
        if (end - space < 4) {
            throw new BadMessageException("status line has no three-digit status code");
        }
        int code = 0;
        for (int i = space + 1; i < space + 4; i++) {
            byte b = buffer.get(i);
            if (!isDigit(b)) {
                throw new BadMessageException("status code is not three digits");
            }
            code = code * 10 + b - '0';
        }
        if (code < 100) {
            throw new BadMessageException("status code below 100");
        }
        int reasonStart = space + 4;
        if (reasonStart < end && buffer.get(reasonStart++) != ' ') {
            throw new BadMessageException("status code is not followed by a space");
        }
        for (int i = reasonStart; i < end; i++) {
            if (!HttpTokens.isFieldValue(buffer.get(i))) {
                throw new BadMessageException("reason phrase has an illegal character 0x" +
                        Integer.toHexString(buffer.get(i) & 0xFF));
            }
        }
        version = parsed;
        status = code;
        listener.startResponse(parsed, code, reason(buffer, reasonStart, end, code));
        return code;
    }

    /** @return the standard reason of {@code code} when the bytes spell it, else a new String */
    private String reason(ByteBuffer buffer, int start, int end, int code) {
        String standard = HttpStatus.getReason(code);
        if (standard.length() == end - start) {
            boolean same = true;
            for (int i = 0; same && i < standard.length(); i++) {
                same = buffer.get(start + i) == standard.charAt(i);
            }
            if (same) {
                return standard;
            }
        }
        return text.string(buffer, start, end);
    }

    /** @return the US-ASCII bytes of {@code text} (4 or 8 of them) as one big-endian word */
    private static long word(String text) {
        long word = 0;
        for (int i = 0; i < text.length(); i++) {
            word = word << 8 | text.charAt(i);
        }
        return word;
    }
}
