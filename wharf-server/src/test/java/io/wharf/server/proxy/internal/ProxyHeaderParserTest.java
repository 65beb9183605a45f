package io.wharf.server.proxy.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import io.wharf.server.ProxyHeader;
import io.wharf.server.ProxyV2Bytes;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class ProxyHeaderParserTest {

    private static final int LIMIT = 1024;
    private static final byte[] NEXT = "GET / HTTP/1.1\r\n".getBytes(StandardCharsets.US_ASCII);

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** @return {@code path} NUL-padded to the 108 bytes of a v2 UNIX address */
    private static byte[] unixPath(byte[] path) {
        return Arrays.copyOf(path, 108);
    }

    private static InetSocketAddress inet(String ip, int port) {
        return new InetSocketAddress(ip, port);
    }

    /** A good header and what it must parse to. */
    record Good(String name, byte[] header, int version, ProxyHeader.Command command, SocketAddress source,
                SocketAddress destination, List<ProxyHeader.Tlv> tlvs) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Good> goodHeaders() throws Exception {
        byte[] ssl = new ProxyV2Bytes().tlv(0x21, "TLSv1.3").tlv(0x23, "TLS_AES_128_GCM_SHA256").build();
        byte[] sslValue = new byte[5 + (ssl.length - 16)];
        sslValue[0] = 0x01;
        System.arraycopy(ssl, 16, sslValue, 5, ssl.length - 16);
        String longUnknown = "PROXY UNKNOWN " + "x".repeat(107 - 16) + "\r\n";
        String longestTcp6 = "PROXY TCP6 ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff 65535 65535\r\n";
        return Stream.of(
                new Good("v1 TCP4", ascii("PROXY TCP4 192.0.2.1 198.51.100.2 51000 443\r\n"), 1, ProxyHeader.Command.PROXY,
                        inet("192.0.2.1", 51000), inet("198.51.100.2", 443), List.of()),
                new Good("v1 TCP4 edge values", ascii("PROXY TCP4 0.0.0.0 255.255.255.255 0 65535\r\n"), 1, ProxyHeader.Command.PROXY,
                        inet("0.0.0.0", 0), inet("255.255.255.255", 65535), List.of()),
                new Good("v1 TCP6", ascii("PROXY TCP6 2001:db8::1 ::1 1 8080\r\n"), 1, ProxyHeader.Command.PROXY,
                        inet("2001:db8::1", 1), inet("::1", 8080), List.of()),
                new Good("v1 longest TCP6", ascii(longestTcp6), 1, ProxyHeader.Command.PROXY,
                        inet("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535), inet("ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", 65535), List.of()),
                new Good("v1 UNKNOWN", ascii("PROXY UNKNOWN\r\n"), 1, ProxyHeader.Command.PROXY, null, null, List.of()),
                new Good("v1 UNKNOWN of 107 bytes", ascii(longUnknown), 1, ProxyHeader.Command.PROXY, null, null, List.of()),
                new Good("v2 TCP4", ProxyV2Bytes.tcp4("192.0.2.1", 51000, "198.51.100.2", 443).build(), 2, ProxyHeader.Command.PROXY,
                        inet("192.0.2.1", 51000), inet("198.51.100.2", 443), List.of()),
                new Good("v2 TCP6", ProxyV2Bytes.tcp6("2001:db8::7", 65535, "::1", 80).build(), 2, ProxyHeader.Command.PROXY,
                        inet("2001:db8::7", 65535), inet("::1", 80), List.of()),
                new Good("v2 UNIX stream", new ProxyV2Bytes().family(0x31).unix("/run/client.sock", "/run/lb.sock").build(), 2,
                        ProxyHeader.Command.PROXY, UnixDomainSocketAddress.of("/run/client.sock"), UnixDomainSocketAddress.of("/run/lb.sock"), List.of()),
                new Good("v2 UNIX abstract keeps the real addresses", new ProxyV2Bytes().family(0x31).unix("\0abstract", "\0lb").build(), 2,
                        ProxyHeader.Command.PROXY, null, null, List.of()),
                // Found by ProxyHeaderFuzzTest: such a path was decoded with U+FFFD in place of its bad bytes, naming another socket.
                new Good("v2 UNIX path that is not UTF-8 keeps the real addresses", new ProxyV2Bytes().family(0x31)
                        .raw(unixPath("/run/\u00ff.sock".getBytes(StandardCharsets.ISO_8859_1))).raw(unixPath(ascii("/run/lb.sock"))).build(), 2,
                        ProxyHeader.Command.PROXY, null, null, List.of()),
                new Good("v2 LOCAL", ProxyV2Bytes.local().build(), 2, ProxyHeader.Command.LOCAL, null, null, List.of()),
                new Good("v2 LOCAL ignores its block", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).versionCommand(0x20).build(), 2,
                        ProxyHeader.Command.LOCAL, null, null, List.of()),
                new Good("v2 UNSPEC", new ProxyV2Bytes().family(0x00).raw((byte) 1, (byte) 2, (byte) 3).build(), 2,
                        ProxyHeader.Command.PROXY, null, null, List.of()),
                new Good("v2 TLVs", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2)
                        .tlv(0x01, "h2").tlv(0x02, "example.com").tlv(0x04, new byte[3]).tlv(0x05, new byte[128])
                        .tlv(0x20, sslValue).tlv(0xE0, new byte[0]).build(), 2, ProxyHeader.Command.PROXY,
                        inet("192.0.2.1", 1), inet("192.0.2.2", 2), List.of(
                                new ProxyHeader.Tlv(0x01, ascii("h2")), new ProxyHeader.Tlv(0x02, ascii("example.com")),
                                new ProxyHeader.Tlv(0x05, new byte[128]), new ProxyHeader.Tlv(0x20, sslValue),
                                new ProxyHeader.Tlv(0xE0, new byte[0]))),
                new Good("v2 with a good CRC32C", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).tlv(0x01, "http/1.1").withCrc().build(), 2,
                        ProxyHeader.Command.PROXY, inet("192.0.2.1", 1), inet("192.0.2.2", 2), null));
    }

    private static void check(Good good, ProxyHeader header) {
        assertNotNull(header, good.name());
        assertEquals(good.version(), header.version(), good.name());
        assertEquals(good.command(), header.command(), good.name());
        assertEquals(Optional.ofNullable(good.source()), header.source(), good.name());
        assertEquals(Optional.ofNullable(good.destination()), header.destination(), good.name());
        if (good.tlvs() != null) {
            assertEquals(good.tlvs(), header.tlvs(), good.name());
        }
    }

    @ParameterizedTest
    @MethodSource("goodHeaders")
    void parsesAGoodHeaderInOneBufferLeavingWhatFollows(Good good) {
        ByteBuffer buffer = ByteBuffer.allocate(good.header().length + NEXT.length).put(good.header()).put(NEXT).flip();
        ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
        check(good, parser.parse(buffer));
        assertTrue(parser.isComplete());
        assertEquals(NEXT.length, buffer.remaining(), "only the header's bytes are taken");
        assertEquals(NEXT[0], buffer.get(buffer.position()));
    }

    @ParameterizedTest
    @MethodSource("goodHeaders")
    void parsesAGoodHeaderSplitAtEveryByte(Good good) {
        byte[] bytes = good.header();
        for (int split = 1; split < bytes.length; split++) {
            ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
            ByteBuffer first = ByteBuffer.wrap(bytes, 0, split);
            assertNull(parser.parse(first), good.name() + " split at " + split);
            assertFalse(first.hasRemaining());
            ByteBuffer second = ByteBuffer.allocate(bytes.length - split + NEXT.length).put(bytes, split, bytes.length - split).put(NEXT).flip();
            check(good, parser.parse(second));
            assertEquals(NEXT.length, second.remaining(), good.name() + " split at " + split);
        }
    }

    @ParameterizedTest
    @MethodSource("goodHeaders")
    void parsesAGoodHeaderOneByteAtATime(Good good) {
        byte[] bytes = good.header();
        ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
        for (int i = 0; i < bytes.length - 1; i++) {
            assertNull(parser.parse(ByteBuffer.wrap(bytes, i, 1)), good.name() + " at byte " + i);
        }
        check(good, parser.parse(ByteBuffer.wrap(bytes, bytes.length - 1, 1)));
    }

    @Test
    void exposesAlpnAuthorityAndSslDetails() throws Exception {
        byte[] nested = new ProxyV2Bytes().tlv(0x21, "TLSv1.3").tlv(0x22, "client-é").tlv(0x23, "TLS_AES_128_GCM_SHA256").build();
        byte[] sslValue = new byte[5 + nested.length - 16];
        sslValue[0] = 0x07;
        sslValue[4] = 0x00;
        System.arraycopy(nested, 16, sslValue, 5, nested.length - 16);
        byte[] bytes = ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).tlv(0x01, "h2").tlv(0x02, "example.com").tlv(0x20, sslValue).build();
        ProxyHeader header = new ProxyHeaderParser(LIMIT).parse(ByteBuffer.wrap(bytes));
        assertEquals(Optional.of("h2"), header.alpn());
        assertEquals(Optional.of("example.com"), header.authority());
        ProxyHeader.Ssl ssl = header.ssl().orElseThrow();
        assertTrue(ssl.isSecure());
        assertEquals(0x07, ssl.client());
        assertEquals(0, ssl.verify());
        assertEquals(Optional.of("TLSv1.3"), ssl.version());
        assertEquals(Optional.of("TLS_AES_128_GCM_SHA256"), ssl.cipher());
        assertEquals(Optional.of("client-é"), ssl.commonName());
    }

    /** A bad header, and the prefix of its message. */
    record Bad(String name, byte[] bytes, String message) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Bad> badHeaders() throws Exception {
        byte[] goodV2 = ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).build();
        byte[] badSignature = goodV2.clone();
        badSignature[6] = 0x0B;
        byte[] badCrc = ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).withCrc().build();
        badCrc[17] ^= 1;
        return Stream.of(
                new Bad("an HTTP request", ascii("GET / HTTP/1.1\r\n"), "the connection does not start"),
                new Bad("garbage", new byte[] {0x16, 0x03, 0x01}, "the connection does not start"),
                new Bad("v1 bad signature", ascii("PROXZ TCP4"), "bad PROXY v1 signature"),
                new Bad("v1 lower case", ascii("proxy TCP4"), "the connection does not start"),
                new Bad("v1 too long", ascii("PROXY UNKNOWN " + "x".repeat(107 - 15) + "\r\n"), "PROXY v1 line longer"),
                new Bad("v1 endless", ascii("PROXY TCP4 " + "1".repeat(200)), "PROXY v1 line longer"),
                new Bad("v1 bare LF", ascii("PROXY UNKNOWN\n"), "PROXY v1 line holds a control"),
                new Bad("v1 CR without LF", ascii("PROXY UNKNOWN\rX"), "PROXY v1 line has a CR without LF"),
                new Bad("v1 control byte", ascii("PROXY TCP4 1.2.3.4\t"), "PROXY v1 line holds a control"),
                new Bad("v1 non-ASCII", new byte[] {'P', 'R', 'O', 'X', 'Y', ' ', (byte) 0xC3}, "PROXY v1 line holds a control"),
                new Bad("v1 empty protocol", ascii("PROXY \r\n"), "PROXY v1 line with an unknown protocol"),
                new Bad("v1 bad family", ascii("PROXY TCP5 1.2.3.4 5.6.7.8 1 2\r\n"), "PROXY v1 line with an unknown protocol"),
                new Bad("v1 UDP4", ascii("PROXY UDP4 1.2.3.4 5.6.7.8 1 2\r\n"), "PROXY v1 line with an unknown protocol"),
                new Bad("v1 missing port", ascii("PROXY TCP4 1.2.3.4 5.6.7.8 1\r\n"), "PROXY v1 TCP4 line needs 4 fields"),
                new Bad("v1 extra field", ascii("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 3\r\n"), "PROXY v1 TCP4 line needs 4 fields"),
                new Bad("v1 double space", ascii("PROXY TCP4 1.2.3.4  5.6.7.8 1 2\r\n"), "PROXY v1 TCP4 line needs 4 fields"),
                new Bad("v1 trailing space", ascii("PROXY TCP4 1.2.3.4 5.6.7.8 1 2 \r\n"), "PROXY v1 TCP4 line needs 4 fields"),
                new Bad("v1 leading zero", ascii("PROXY TCP4 01.2.3.4 5.6.7.8 1 2\r\n"), "malformed IPv4"),
                new Bad("v1 octet above 255", ascii("PROXY TCP4 1.2.3.256 5.6.7.8 1 2\r\n"), "malformed IPv4"),
                new Bad("v1 three octets", ascii("PROXY TCP4 1.2.3 5.6.7.8 1 2\r\n"), "malformed IPv4"),
                new Bad("v1 five octets", ascii("PROXY TCP4 1.2.3.4.5 5.6.7.8 1 2\r\n"), "malformed IPv4"),
                new Bad("v1 empty octet", ascii("PROXY TCP4 1..3.4 5.6.7.8 1 2\r\n"), "malformed IPv4"),
                new Bad("v1 IPv6 in TCP4", ascii("PROXY TCP4 ::1 5.6.7.8 1 2\r\n"), "malformed IPv4"),
                new Bad("v1 IPv4 in TCP6", ascii("PROXY TCP6 1.2.3.4 ::1 1 2\r\n"), "malformed IPv6"),
                new Bad("v1 host name in TCP6", ascii("PROXY TCP6 localhost ::1 1 2\r\n"), "malformed IPv6"),
                new Bad("v1 bad IPv6", ascii("PROXY TCP6 1:::2 ::1 1 2\r\n"), "malformed IPv6"),
                new Bad("v1 IPv6 zone", ascii("PROXY TCP6 fe80::1%eth0 ::1 1 2\r\n"), "malformed IPv6"),
                new Bad("v1 port above 65535", ascii("PROXY TCP4 1.2.3.4 5.6.7.8 65536 2\r\n"), "port above 65535"),
                new Bad("v1 port with leading zero", ascii("PROXY TCP4 1.2.3.4 5.6.7.8 080 2\r\n"), "malformed port"),
                new Bad("v1 negative port", ascii("PROXY TCP4 1.2.3.4 5.6.7.8 -1 2\r\n"), "malformed port"),
                new Bad("v2 bad signature", badSignature, "bad PROXY v2 signature"),
                new Bad("v2 version 1", ProxyV2Bytes.local().versionCommand(0x10).build(), "PROXY v2 header with version 1"),
                new Bad("v2 version 3", ProxyV2Bytes.local().versionCommand(0x31).build(), "PROXY v2 header with version 3"),
                new Bad("v2 unknown command", ProxyV2Bytes.local().versionCommand(0x22).build(), "PROXY v2 header with unknown command"),
                new Bad("v2 bad family", ProxyV2Bytes.local().family(0x41).build(), "PROXY v2 header with unknown address family"),
                new Bad("v2 bad transport", ProxyV2Bytes.local().family(0x13).build(), "PROXY v2 header with unknown transport"),
                new Bad("v2 datagram", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).family(0x12).build(), "PROXY v2 header for a datagram"),
                new Bad("v2 family without transport", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).family(0x10).build(), "PROXY v2 header with an address family but no transport"),
                new Bad("v2 too long", new ProxyV2Bytes().family(0x00).length(LIMIT - 15).build(), "PROXY v2 header of 1025 bytes is over the limit"),
                new Bad("v2 shorter than its addresses", ProxyV2Bytes.tcp6("::1", 1, "::2", 2).length(35).build(), "PROXY v2 length is shorter"),
                new Bad("v2 truncated TLV header", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).raw((byte) 1, (byte) 0).build(), "PROXY v2 header ends inside a TLV"),
                new Bad("v2 TLV past the header", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).raw((byte) 1, (byte) 0, (byte) 5, (byte) 'h').build(), "PROXY v2 TLV 0x1 runs past"),
                new Bad("v2 bad CRC32C", badCrc, "PROXY v2 CRC32C does not match"),
                new Bad("v2 short CRC32C", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).tlv(0x03, new byte[3]).build(), "PROXY v2 CRC32C TLV of 3 bytes"),
                new Bad("v2 long unique id", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).tlv(0x05, new byte[129]).build(), "PROXY v2 unique id longer"),
                new Bad("v2 short SSL TLV", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).tlv(0x20, new byte[4]).build(), "malformed PROXY v2 SSL TLV"),
                new Bad("v2 SSL nested TLV past its end", ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2)
                        .tlv(0x20, new byte[] {1, 0, 0, 0, 0, 0x21, 0, 9, 'T'}).build(), "malformed PROXY v2 SSL TLV"));
    }

    @ParameterizedTest
    @MethodSource("badHeaders")
    void rejectsABadHeader(Bad bad) {
        ProxyHeaderException failure = assertThrows(ProxyHeaderException.class,
                () -> new ProxyHeaderParser(LIMIT).parse(ByteBuffer.wrap(bad.bytes())), bad.name());
        assertTrue(failure.getMessage().startsWith(bad.message()), bad.name() + ": " + failure.getMessage());
    }

    @ParameterizedTest
    @MethodSource("badHeaders")
    void rejectsABadHeaderFedOneByteAtATime(Bad bad) {
        ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
        ProxyHeaderException failure = assertThrows(ProxyHeaderException.class, () -> {
            for (int i = 0; i < bad.bytes().length; i++) {
                assertNull(parser.parse(ByteBuffer.wrap(bad.bytes(), i, 1)), bad.name());
            }
        }, bad.name());
        assertTrue(failure.getMessage().startsWith(bad.message()), bad.name() + ": " + failure.getMessage());
    }

    @Test
    void rejectsAnOverLongV1LineAsSoonAsItIsTooLong() {
        ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
        byte[] line = ascii("PROXY UNKNOWN " + "x".repeat(200));
        ByteBuffer buffer = ByteBuffer.wrap(line);
        assertThrows(ProxyHeaderException.class, () -> parser.parse(buffer));
        assertEquals(106, buffer.position(), "the 106th byte is the last that may precede CR LF");
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 15, 16, 27})
    void aTruncatedHeaderIsIncompleteNotParsed(int length) throws Exception {
        byte[] bytes = ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).build();
        ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
        assertNull(parser.parse(ByteBuffer.wrap(Arrays.copyOf(bytes, length))));
        assertFalse(parser.isComplete());
    }

    @Test
    void aTruncatedV1LineIsIncomplete() {
        ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
        assertNull(parser.parse(ByteBuffer.wrap(ascii("PROXY TCP4 1.2.3.4 5.6.7.8 1 2\r"))));
        assertFalse(parser.isComplete());
    }

    @Test
    void refusesALimitOutsideTheProtocolsBounds() {
        assertThrows(IllegalArgumentException.class, () -> new ProxyHeaderParser(231));
        assertThrows(IllegalArgumentException.class, () -> new ProxyHeaderParser(16 + 65536));
        assertEquals(65551, ProxyHeaderParser.V2_MAX_LIMIT);
    }

    @Test
    void acceptsTheLargestHeaderWithinTheLimit() throws Exception {
        byte[] bytes = ProxyV2Bytes.tcp4("192.0.2.1", 1, "192.0.2.2", 2).tlv(0xE1, new byte[LIMIT - 16 - 12 - 3]).build();
        assertEquals(LIMIT, bytes.length);
        ProxyHeader header = new ProxyHeaderParser(LIMIT).parse(ByteBuffer.wrap(bytes));
        assertEquals(LIMIT - 16 - 12 - 3, header.tlv(0xE1).orElseThrow().value().length);
    }

    @Test
    void refusesToParseTwice() throws Exception {
        ProxyHeaderParser parser = new ProxyHeaderParser(LIMIT);
        ByteBuffer buffer = ByteBuffer.wrap(ProxyV2Bytes.local().build());
        assertNotNull(parser.parse(buffer));
        assertThrows(IllegalStateException.class, () -> parser.parse(ByteBuffer.wrap(NEXT)));
    }
}
