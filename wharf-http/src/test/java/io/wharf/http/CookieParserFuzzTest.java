package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target for the {@code Cookie} header parser (docs/fuzzing.md). An input's first octet
 * picks the named compliance mode (RFC6265, RFC6265_LEGACY or RFC2965); the rest, read as
 * ISO-8859-1 and cut at each line feed, is the values of a request's {@code Cookie} fields.
 * What each input must keep:
 * <ul>
 * <li>nothing throws: the named modes drop and report what they do not accept;</li>
 * <li>bounded: at most {@code maxCookies} cookies and {@code maxReports} reports per call, and
 *     no cookie longer than its header;</li>
 * <li>the same headers again give the very same list (the parser's cache) and the same reports;</li>
 * <li>round trip: cookies whose names are tokens and values cookie-octets, written back as
 *     {@code name=value; ...}, parse to the same names and values.</li>
 * </ul>
 * Strings only: there is no buffer to leak.
 * Seeds: {@code src/test/resources/io/wharf/http/CookieParserFuzzTestInputs/headers/}.
 */
class CookieParserFuzzTest {

    private static final CookieCompliance[] MODES = {CookieCompliance.RFC6265, CookieCompliance.RFC6265_LEGACY, CookieCompliance.RFC2965};
    private static final int MAX_COOKIES = 20;
    private static final int MAX_REPORTS = 10;

    @FuzzTest
    void headers(byte[] input) {
        if (input.length == 0) {
            return;
        }
        CookieCompliance mode = MODES[(input[0] & 0xFF) % MODES.length];
        String text = new String(input, 1, input.length - 1, StandardCharsets.ISO_8859_1);
        List<String> headers = Arrays.asList(text.split("\n", -1));
        List<String> reports = new ArrayList<>();
        CookieParser parser = new CookieParser(mode, (m, violation, details) -> reports.add(violation + " " + details), MAX_COOKIES, MAX_REPORTS);

        List<HttpCookie> cookies = parser.parse(headers);
        assertTrue(cookies.size() <= MAX_COOKIES, "kept " + cookies.size() + " cookies");
        assertTrue(reports.size() <= MAX_REPORTS, "made " + reports.size() + " reports");
        for (HttpCookie cookie : cookies) {
            assertTrue(cookie.getName().length() + cookie.getValue().length() <= text.length(), () -> "a cookie longer than its header: " + cookie);
        }
        List<String> first = List.copyOf(reports);
        reports.clear();
        assertSame(cookies, parser.parse(new ArrayList<>(headers)), "the same headers parsed again");
        assertEquals(first, reports, "the same headers reported differently");

        if (cookies.stream().allMatch(CookieParserFuzzTest::writable)) {
            StringBuilder written = new StringBuilder();
            for (HttpCookie cookie : cookies) {
                written.append(written.isEmpty() ? "" : "; ").append(cookie.getName()).append('=').append(cookie.getValue());
            }
            List<HttpCookie> again = new CookieParser(mode, ComplianceViolation.Listener.NONE, MAX_COOKIES, MAX_REPORTS)
                .parse(List.of(written.toString()));
            assertEquals(pairs(cookies), pairs(again), () -> "written back as " + written);
        }
    }

    /** @return whether the cookie's name is a token and its value cookie-octets, as a {@code Cookie} field writes them */
    private static boolean writable(HttpCookie cookie) {
        try {
            HttpCookie.from(cookie.getName(), cookie.getValue());
            return !cookie.getName().startsWith("$");
        } catch (IllegalArgumentException notWritable) {
            return false;
        }
    }

    private static List<String> pairs(List<HttpCookie> cookies) {
        return cookies.stream().map(cookie -> cookie.getName() + "=" + cookie.getValue()).toList();
    }
}
