package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target for {@link HttpURI} (docs/fuzzing.md). An input is a request-target as a
 * request line carries it (its bytes read as ISO-8859-1, as the HTTP/1 parser reads them);
 * it is read by {@link HttpURI#parse(String)} and, as a CONNECT target, by
 * {@link HttpURI#parseAuthority}. What each input must keep:
 * <ul>
 * <li>only {@link BadMessageException} 400 escapes;</li>
 * <li>bounded: no component, decoded or canonical path longer than the target;</li>
 * <li>round trip: the URI's text ({@link HttpURI#asString()}) parses again to the same
 *     components, decoded and canonical paths, violations and verdict.</li>
 * </ul>
 * Strings only: there is no buffer to leak.
 * Seeds: {@code src/test/resources/io/wharf/http/HttpURIFuzzTestInputs/targets/}.
 */
class HttpURIFuzzTest {

    @FuzzTest
    void targets(byte[] input) {
        String target = new String(input, StandardCharsets.ISO_8859_1);
        HttpURI uri = parse(target, false);
        if (uri != null) {
            checkBounds(uri, target);
            assertEquals(components(uri), components(parse(uri.asString(), false)), "parse(asString()) differs for " + target);
        }
        HttpURI authority = parse(target, true);
        if (authority != null) {
            checkBounds(authority, target);
            assertEquals(components(authority), components(parse(authority.asString(), true)), "parseAuthority(asString()) differs");
        }
    }

    /** @return the URI, or null when it was refused with a 400 */
    private static HttpURI parse(String target, boolean authorityForm) {
        try {
            return authorityForm ? HttpURI.parseAuthority(target) : HttpURI.parse(target);
        } catch (BadMessageException refused) {
            assertEquals(400, refused.getStatus(), refused::toString);
            return null;
        }
    }

    private static void checkBounds(HttpURI uri, String target) {
        for (String component : Arrays.asList(uri.getScheme(), uri.getUser(), uri.getHost(), uri.getPath(), uri.getParam(),
                uri.getQuery(), uri.getFragment(), uri.getDecodedPath(), uri.getCanonicalPath())) {
            // An absolute URI with an empty path has "/" for its decoded and canonical paths.
            assertTrue(component == null || component.length() <= Math.max(1, target.length()),
                () -> "a component longer than the target: " + component);
        }
    }

    private static List<String> components(HttpURI uri) {
        return List.of(String.valueOf(uri.getScheme()), String.valueOf(uri.getUser()), String.valueOf(uri.getHost()),
            String.valueOf(uri.getPort()), String.valueOf(uri.getPath()), String.valueOf(uri.getParam()),
            String.valueOf(uri.getQuery()), String.valueOf(uri.getFragment()), String.valueOf(uri.getDecodedPath()),
            String.valueOf(uri.getCanonicalPath()), String.valueOf(uri.getViolations()), String.valueOf(uri.isBad()),
            String.valueOf(uri.isAbsolute()));
    }
}
