package io.wharf.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.stream.Stream;

import io.wharf.testing.LinearTime;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class HostPortTest {

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', textBlock = """
            # authority                 | host                      | port
            example.com                 | example.com               | -1
            example.com:8080            | example.com               | 8080
            Example.COM:80              | Example.COM               | 80
            127.0.0.1                   | 127.0.0.1                 | -1
            127.0.0.1:65535             | 127.0.0.1                 | 65535
            localhost:0                 | localhost                 | 0
            host:                       | host                      | -1
            [::1]                       | [::1]                     | -1
            [::1]:8080                  | [::1]                     | 8080
            [::]:1                      | [::]                      | 1
            [2001:db8::ff00:42:8329]:443 | [2001:db8::ff00:42:8329] | 443
            [1:2:3:4:5:6:7:8]           | [1:2:3:4:5:6:7:8]         | -1
            [::ffff:192.0.2.1]          | [::ffff:192.0.2.1]        | -1
            [fe80::1%25eth0]:80         | [fe80::1%25eth0]          | 80
            [v1.fe:x]                   | [v1.fe:x]                 | -1
            my-host_1.example~:9        | my-host_1.example~        | 9
            caf%C3%A9.example           | caf%C3%A9.example         | -1
            """)
    void parsesHostAndPort(String authority, String host, int port) {
        HostPort hostPort = HostPort.parse(authority);
        assertEquals(host, hostPort.getHost());
        assertEquals(port, hostPort.getPort());
        assertEquals(port < 0 ? 80 : port, hostPort.getPort(80));
        assertEquals(port >= 0, hostPort.hasPort());
        assertEquals(port < 0 ? host : host + ":" + port, hostPort.toString());
    }

    static Stream<Arguments> refused() {
        return Stream.of(
                Arguments.of("127.0.0.1:65536", "port out of range"),
                Arguments.of("host:99999999999999999999", "port out of range"),
                Arguments.of("host:80a", "non-digit character 'a' in port"),
                Arguments.of("host:-1", "non-digit character '-' in port"),
                Arguments.of("host:8 0", "non-digit character 0x20 in port"),
                Arguments.of("host::80", "non-digit character ':' in port"),
                Arguments.of("", "empty host"),
                Arguments.of(":80", "empty host"),
                Arguments.of("a b", "illegal character 0x20 in host"),
                Arguments.of("user@host", "illegal character '@' in host"),
                Arguments.of("host/path", "illegal character '/' in host"),
                Arguments.of("evil\\good", "illegal character '\\' in host"),
                Arguments.of("host\r\nX: y", "illegal character 0x0D in host"),
                Arguments.of("ho\0st", "illegal character 0x00 in host"),
                Arguments.of("caf\u00e9", "illegal character 0xE9 in host"),
                Arguments.of("bad%G1", "bad percent encoding in host"),
                Arguments.of("[::1", "unterminated IPv6 literal"),
                Arguments.of("[::1]x", "unexpected character 'x' after IP literal"),
                Arguments.of("[]", "malformed IP literal"),
                Arguments.of("[::1::2]", "malformed IP literal"),
                Arguments.of("[1:2:3:4:5:6:7:8:9]", "malformed IP literal"),
                Arguments.of("[1:2:3:4:5:6:7]", "malformed IP literal"),
                Arguments.of("[12345::]", "malformed IP literal"),
                Arguments.of("[::1:]", "malformed IP literal"),
                Arguments.of("[:1::]", "malformed IP literal"),
                Arguments.of("[::ffff:256.0.0.1]", "malformed IP literal"),
                Arguments.of("[::ffff:01.0.0.1]", "malformed IP literal"),
                Arguments.of("[::g]", "malformed IP literal"),
                Arguments.of("[fe80::1%eth0]", "malformed IP literal"),
                Arguments.of("[127.0.0.1]", "malformed IP literal"),
                Arguments.of("[v1]", "malformed IP literal"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("refused")
    void refusesWithAMessageNamingTheProblem(String authority, String message) {
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> HostPort.parse(authority));
        assertTrue(refused.getMessage().contains(message), refused.getMessage());
        for (char c : refused.getMessage().toCharArray()) {
            assertTrue(c >= 0x20 && c < 0x7F, "message holds a raw peer character: " + refused.getMessage());
        }
    }

    @Test
    void emptyHostOnlyWhenAllowed() {
        HostPort empty = HostPort.parseAllowingEmptyHost("");
        assertEquals("", empty.getHost());
        assertEquals(-1, empty.getPort());
        assertEquals("example.com", HostPort.parseAllowingEmptyHost("example.com:1").getHost());
        assertThrows(IllegalArgumentException.class, () -> HostPort.parseAllowingEmptyHost(":80"));
        assertThrows(IllegalArgumentException.class, () -> HostPort.parse(""));
    }

    @Test
    void ofChecksAndBracketsIpv6() {
        assertEquals("[::1]:8443", HostPort.of("::1", 8443).toString());
        assertEquals("example.com", HostPort.of("example.com", -1).toString());
        assertThrows(IllegalArgumentException.class, () -> HostPort.of("example.com", 65536));
        assertThrows(IllegalArgumentException.class, () -> HostPort.of("example.com:80", 80));
        assertThrows(IllegalArgumentException.class, () -> HostPort.of("a b", 80));
    }

    @Test
    void equalityIgnoresHostCase() {
        assertEquals(HostPort.parse("Example.com:80"), HostPort.parse("example.COM:80"));
        assertEquals(HostPort.parse("Example.com:80").hashCode(), HostPort.parse("example.COM:80").hashCode());
        assertFalse(HostPort.parse("example.com:80").equals(HostPort.parse("example.com")));
    }

    @Test
    void longHostileInputIsReadInLinearTime() {
        LinearTime.assertLinear("authorities of 200,000 colons or digits", 200_000, size -> {
            String colons = "[" + ":".repeat(size) + "]";
            String digits = "h:" + "0".repeat(size);
            return () -> {
                assertThrows(IllegalArgumentException.class, () -> HostPort.parse(colons));
                assertEquals(0, HostPort.parse(digits).getPort());
            };
        });
    }
}
