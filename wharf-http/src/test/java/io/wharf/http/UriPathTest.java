package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class UriPathTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # encoded                    | decoded
            /a/b                         | /a/b
            /a%20b                       | /a b
            /a+b                         | /a+b
            /caf%C3%A9                   | /café
            /caf%c3%a9                   | /café
            /%E2%82%AC                   | /€
            /%F0%9F%98%80                | /😀
            /%2e%2e/x                    | /../x
            /a%2Fb                       | /a/b
            /100%25                      | /100%
            /p;x=%41                     | /p;x=A
            /café                        | /café
            ''                           | ''
            """)
    void decodesPaths(String encoded, String decoded) {
        assertEquals(decoded, UriPath.decodePath(encoded));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # encoded          | reason
            /%G1               | Bad percent encoding in URI
            /%2                | Bad percent encoding in URI
            /%                 | Bad percent encoding in URI
            /%u002e            | Bad percent encoding in URI
            /%C0%AE            | Bad UTF-8 encoding in URI
            /%C1%BF            | Bad UTF-8 encoding in URI
            /%E0%80%AE         | Bad UTF-8 encoding in URI
            /%ED%A0%80         | Bad UTF-8 encoding in URI
            /%F4%90%80%80      | Bad UTF-8 encoding in URI
            /%F8%88%80%80%80   | Bad UTF-8 encoding in URI
            /%80               | Bad UTF-8 encoding in URI
            /%C3               | Bad UTF-8 encoding in URI
            /%C3/              | Bad UTF-8 encoding in URI
            /%C3a              | Bad UTF-8 encoding in URI
            /%E2%82            | Bad UTF-8 encoding in URI
            /.%00/             | NUL character in URI path
            """)
    void refusesBadEncodings(String encoded, String reason) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> UriPath.decodePath(encoded));
        assertEquals(reason, refused.getMessage());
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            # path               | canonical
            /                    | /
            /a/b                 | /a/b
            /a/./b               | /a/b
            /a/../b              | /b
            /a/b/..              | /a/
            /a/b/.               | /a/b/
            /a/b/../../c         | /c
            /./                  | /
            /.                   | /
            /a/..                | /
            /a//../b             | /a/b
            /a/.../b             | /a/.../b
            /a/..b/.c            | /a/..b/.c
            /a;x/../b            | /b
            /%2e/b               | /%2e/b
            /..                  | NULL
            /../                 | NULL
            /a/../..             | NULL
            /a/../../b           | NULL
            a/../b               | b
            ./a                  | a
            ../a                 | NULL
            ''                   | ''
            """)
    void removesDotSegments(String path, String canonical) {
        assertEquals(canonical, UriPath.canonicalPath(path));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # decoded            | encoded
            /a/b                 | /a/b
            /a b                 | /a%20b
            /100%                | /100%25
            /a;b                 | /a%3Bb
            /a?b#c               | /a%3Fb%23c
            /a\\b                | /a%5Cb
            /café                | /caf%C3%A9
            /😀                  | /%F0%9F%98%80
            /a:b@c!$&'()*+,=~_.- | /a:b@c!$&'()*+,=~_.-
            /<"{}>^`             | /%3C%22%7B%7D%3E%5E%60
            """)
    void encodesPaths(String decoded, String encoded) {
        assertEquals(encoded, UriPath.encodePath(decoded));
        assertEquals(decoded, UriPath.decodePath(encoded));
    }

    @Test
    void encodesControlsAndRefusesUnpairedSurrogates() {
        assertEquals("/%00%0A%7F%7C", UriPath.encodePath("/\0\n\u007f|"));
        assertThrows(IllegalArgumentException.class, () -> UriPath.encodePath("/\uD83D"));
        assertThrows(IllegalArgumentException.class, () -> UriPath.encodePath("/\uDE00x"));
    }

    @Test
    void returnsTheArgumentWhenNothingChanges() {
        String path = "/a/b/c.html";
        assertSame(path, UriPath.decodePath(path));
        assertSame(path, UriPath.encodePath(path));
        assertSame(path, UriPath.canonicalPath(path));
    }

    @ParameterizedTest(name = "[{index}] {0} + {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", textBlock = """
            # base      | path      | joined
            /a          | b         | /a/b
            /a/         | b         | /a/b
            /a          | /b        | /a/b
            /a/         | /b        | /a/b
            /           | /         | /
            ''          | /b        | /b
            NULL        | /b        | /b
            /a          | ''        | /a
            /a          | NULL      | /a
            """)
    void addsPaths(String base, String path, String joined) {
        assertEquals(joined, UriPath.addPaths(base, path));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # component          | decoded
            a+b                  | a b
            a%2Bb                | a+b
            caf%C3%A9+%26+co     | café & co
            %00                  | '\u0000'
            plain                | plain
            """)
    void decodesQueryComponents(String component, String decoded) {
        assertEquals(decoded, UriPath.decodeQueryComponent(component));
    }

    @Test
    void refusesBadQueryComponents() {
        assertThrows(IllegalArgumentException.class, () -> UriPath.decodeQueryComponent("a=%G1"));
        assertThrows(IllegalArgumentException.class, () -> UriPath.decodeQueryComponent("%C0%AE"));
    }

    @Test
    void longHostileInputIsHandledInLinearTime() {
        LinearTime.assertLinear("paths of 100,000 segments", 100_000, segments -> {
            String climbing = "/a".repeat(segments) + "/..".repeat(segments);
            String escapes = "/%C3%A9".repeat(segments / 2);
            return () -> {
                assertEquals("/", UriPath.canonicalPath(climbing));
                assertEquals(segments, UriPath.decodePath(escapes).length());
            };
        });
    }
}
