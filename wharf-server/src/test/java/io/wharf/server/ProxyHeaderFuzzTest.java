package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import io.wharf.server.proxy.internal.ProxyHeaderException;
import io.wharf.server.proxy.internal.ProxyHeaderParser;

import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target for the PROXY protocol parser, versions 1 and 2 (docs/fuzzing.md). An input is
 * what a balancer sends first on a connection: the header, then whatever follows it. What each
 * input must keep:
 * <ul>
 * <li>only {@link ProxyHeaderException} escapes;</li>
 * <li>bounded: the parser takes the header's bytes and no more — at most 107 for version 1, at
 *     most its limit for version 2 — and leaves what follows;</li>
 * <li>the same header, or the same failure, whether the bytes come whole or one at a time;</li>
 * <li>round trip: the header written again (a version 1 line, or version 2 bytes through
 *     {@link ProxyV2Bytes}, its CRC32C computed anew) parses to the same header.</li>
 * </ul>
 * The parser copies into its own bounded array and takes no pool: there is no buffer to leak.
 * The target sits outside the parser's package, so that moving the parser changes its imports only.
 * Seeds: {@code src/test/resources/io/wharf/server/ProxyHeaderFuzzTestInputs/headers/}.
 */
class ProxyHeaderFuzzTest {

    private static final int V2_LIMIT = 512;

    @FuzzTest
    void headers(byte[] input) throws Exception {
        Outcome whole = parse(input, Math.max(1, input.length));
        assertEquals(whole, parse(input, 1), "the outcome depends on how the bytes were split");
        if (whole.header() == null) {
            return;
        }
        ProxyHeader header = whole.header();
        assertTrue(whole.taken() <= (header.version() == 1 ? ProxyHeaderParser.V1_MAX_LENGTH : V2_LIMIT),
            () -> "took " + whole.taken() + " bytes for " + header);
        byte[] written = write(header);
        Outcome again = parse(written, written.length);
        assertEquals(written.length, again.taken(), () -> "the header written again was not read whole: " + again);
        assertEquals(key(header), key(again.header()), "the header written again reads differently");
    }

    /** What one parse came to: the header and how many bytes it took, or the failure's message. */
    private record Outcome(ProxyHeader header, int taken, String failure) {
        @Override
        public boolean equals(Object other) {
            return other instanceof Outcome that && taken == that.taken && String.valueOf(failure).equals(String.valueOf(that.failure))
                && (header == null ? that.header == null : that.header != null && key(header).equals(key(that.header)));
        }

        @Override
        public int hashCode() {
            return taken;
        }
    }

    private static Outcome parse(byte[] input, int piece) {
        ProxyHeaderParser parser = new ProxyHeaderParser(V2_LIMIT);
        int taken = 0;
        try {
            for (int from = 0; from < input.length; from += piece) {
                ByteBuffer buffer = ByteBuffer.wrap(input, from, Math.min(piece, input.length - from));
                ProxyHeader header = parser.parse(buffer);
                taken += buffer.position() - from;
                if (header != null) {
                    assertTrue(parser.isComplete());
                    return new Outcome(header, taken, null);
                }
                assertEquals(buffer.limit(), buffer.position(), "an incomplete header left bytes");
            }
            return new Outcome(null, taken, "incomplete");
        } catch (ProxyHeaderException failure) {
            return new Outcome(null, 0, failure.getMessage());
        }
    }

    private static List<Object> key(ProxyHeader header) {
        // A CRC32C extension is checked by the parser and made anew when written: its value is no part of the header's meaning.
        return List.of(header.version(), header.command(), String.valueOf(header.source().orElse(null)),
            String.valueOf(header.destination().orElse(null)),
            header.tlvs().stream().filter(tlv -> tlv.type() != ProxyHeader.TLV_CRC32C).toList());
    }

    /** @return {@code header} as a balancer would send it */
    private static byte[] write(ProxyHeader header) throws Exception {
        SocketAddress source = header.source().orElse(null);
        SocketAddress destination = header.destination().orElse(null);
        if (header.version() == 1) {
            if (source == null) {
                return "PROXY UNKNOWN\r\n".getBytes(StandardCharsets.US_ASCII);
            }
            InetSocketAddress from = (InetSocketAddress) source;
            InetSocketAddress to = (InetSocketAddress) destination;
            boolean v4 = bothIpv4(from, to);
            String line = "PROXY " + (v4 ? "TCP4 " : "TCP6 ") + text(from, v4) + " " + text(to, v4) + " " + from.getPort() + " "
                + to.getPort() + "\r\n";
            return line.getBytes(StandardCharsets.US_ASCII);
        }
        ProxyV2Bytes bytes;
        if (header.command() == ProxyHeader.Command.LOCAL) {
            bytes = ProxyV2Bytes.local();
        } else if (source == null && header.tlvs().isEmpty()) {
            bytes = new ProxyV2Bytes().family(0x00);
        } else if (source == null) {
            // UNSPEC would drop the TLVs with the block: Unix paths Java cannot name (abstract ones) keep them.
            bytes = new ProxyV2Bytes().family(0x31).unix("\0", "\0");
        } else if (source instanceof UnixDomainSocketAddress from) {
            bytes = new ProxyV2Bytes().family(0x31).unix(from.getPath().toString(), ((UnixDomainSocketAddress) destination).getPath().toString());
        } else {
            InetSocketAddress from = (InetSocketAddress) source;
            InetSocketAddress to = (InetSocketAddress) destination;
            boolean v4 = bothIpv4(from, to);
            bytes = new ProxyV2Bytes().family(v4 ? 0x11 : 0x21).raw(octets(from, v4)).raw(octets(to, v4))
                .raw((byte) (from.getPort() >> 8), (byte) from.getPort(), (byte) (to.getPort() >> 8), (byte) to.getPort());
        }
        boolean crc = false;
        for (ProxyHeader.Tlv tlv : header.tlvs()) {
            if (tlv.type() == ProxyHeader.TLV_CRC32C) {
                crc = true;
            } else {
                bytes.tlv(tlv.type(), tlv.value());
            }
        }
        return (crc ? bytes.withCrc() : bytes).build();
    }

    /**
     * Java reads an IPv4-mapped IPv6 address (::ffff:a.b.c.d) as an {@link Inet4Address}: a
     * TCP6 header may hold one, beside an IPv6 address or not. Two IPv4 addresses are written
     * as TCP4, anything else as TCP6 with the IPv4 ones mapped.
     */
    private static boolean bothIpv4(InetSocketAddress from, InetSocketAddress to) {
        return from.getAddress() instanceof Inet4Address && to.getAddress() instanceof Inet4Address;
    }

    private static String text(InetSocketAddress address, boolean v4) {
        String text = address.getAddress().getHostAddress();
        return v4 || !(address.getAddress() instanceof Inet4Address) ? text : "::ffff:" + text;
    }

    private static byte[] octets(InetSocketAddress address, boolean v4) {
        byte[] raw = address.getAddress().getAddress();
        if (v4 || raw.length == 16) {
            return raw;
        }
        byte[] mapped = new byte[16];
        mapped[10] = (byte) 0xFF;
        mapped[11] = (byte) 0xFF;
        System.arraycopy(raw, 0, mapped, 12, 4);
        return mapped;
    }
}
