package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpCookie;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import io.wharf.client.internal.cookie.SetCookieParser;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target for the client's {@code Set-Cookie} parser (docs/fuzzing.md). An input is the
 * value of one {@code Set-Cookie} field (its bytes read as ISO-8859-1) in the response to a
 * request for an https page. What each input must keep:
 * <ul>
 * <li>nothing throws: a header the parser does not take gives null;</li>
 * <li>bounded: a name and value of at most 4,096 bytes together, a path of at most 1,024;</li>
 * <li>round trip: a cookie kept, written again by the server's {@link io.wharf.http.HttpCookie}
 *     as a {@code Set-Cookie} value, parses to the same cookie — whenever its name, value, path
 *     and domain are ones a server may write (the parser is lenient where a server is not).</li>
 * </ul>
 * Strings only: there is no buffer to leak. The target sits outside the parser's package, so
 * that moving the parser changes one import.
 * Seeds: {@code src/test/resources/io/wharf/client/SetCookieParserFuzzTestInputs/headers/}.
 */
class SetCookieParserFuzzTest {

    /** The parser's bounds: a name and value together, and one attribute value. */
    private static final int MAX_NAME_VALUE = 4096;
    private static final int MAX_ATTRIBUTE_VALUE = 1024;
    private static final URI PAGE = URI.create("https://www.example.com/shop/cart/view");
    private static final long NOW = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();

    @FuzzTest
    void headers(byte[] input) {
        HttpCookie cookie = SetCookieParser.parse(new String(input, StandardCharsets.ISO_8859_1), PAGE, NOW);
        if (cookie == null) {
            return;
        }
        assertTrue(cookie.getName().length() + cookie.getValue().length() <= MAX_NAME_VALUE, cookie::toString);
        assertTrue(cookie.getPath().length() <= Math.max(MAX_ATTRIBUTE_VALUE, PAGE.getPath().length()), cookie::getPath);
        io.wharf.http.HttpCookie written;
        try {
            written = io.wharf.http.HttpCookie.build(cookie.getName(), cookie.getValue()).domain(cookie.getDomain())
                .path(cookie.getPath()).maxAge(cookie.getMaxAge()).secure(cookie.getSecure()).httpOnly(cookie.isHttpOnly()).build();
        } catch (IllegalArgumentException notForAServer) {
            return;
        }
        String text = written.asSetCookieValue(Instant.ofEpochMilli(NOW));
        HttpCookie again = SetCookieParser.parse(text, PAGE, NOW);
        assertNotNull(again, () -> "dropped when written back as " + text);
        assertEquals(describe(cookie), describe(again), () -> "written back as " + text);
    }

    private static List<Object> describe(HttpCookie cookie) {
        return List.of(cookie.getName(), cookie.getValue(), String.valueOf(cookie.getDomain()), cookie.getPath(), cookie.getMaxAge(),
            cookie.getSecure(), cookie.isHttpOnly());
    }
}
