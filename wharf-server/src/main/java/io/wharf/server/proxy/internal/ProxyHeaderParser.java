package io.wharf.server.proxy.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnixDomainSocketAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.InvalidPathException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

import io.wharf.server.ProxyHeader;
import io.wharf.server.internal.IpAddressLiteral;

/**
 * A strict, incremental parser of one PROXY protocol header, version 1 (a text line such as
 * {@code PROXY TCP4 192.0.2.1 198.51.100.2 51000 443\r\n}, at most 107 bytes) or version 2
 * (a 12-byte signature, version and command, family and transport, a 16-bit length, the
 * addresses and type-length-value extensions), as HAProxy's {@code proxy-protocol.txt} defines.
 *
 * <p>The connection feeds it each buffer it reads, on its selector thread, until
 * {@link #parse(ByteBuffer)} returns the header; the parser takes only the header's bytes,
 * leaving whatever follows (the client's first request) in the buffer for the next protocol.
 * It copies what it needs into its own bounded array and keeps no reference to the caller's
 * buffer. One parser per connection, used by one thread at a time.
 *
 * <p>Anything else fails with a {@link ProxyHeaderException} as soon as the offending byte
 * arrives: a first byte that starts neither signature, a v1 line over 107 bytes or with a
 * control byte, a CR without LF, an unknown v1 protocol, a malformed address or port
 * (IPv4 with leading zeros included), a v2 version other than 2, an unknown command, family
 * or transport, a datagram transport, a v2 length over the limit or shorter than its
 * addresses, a TLV running past the header, a CRC32C TLV that does not match, a malformed SSL
 * TLV, or a unique id over 128 bytes. A header cut short is simply incomplete: the caller
 * bounds the wait with a timeout and treats the end of input as a failure.
 */
public final class ProxyHeaderParser {

    /** The longest version 1 header, CRLF included. */
    public static final int V1_MAX_LENGTH = 107;
    /** The fixed part of a version 2 header: signature, version/command, family/transport, length. */
    public static final int V2_FIXED_LENGTH = 16;
    /** The least a version 2 limit may be: the fixed part and the largest (Unix) address block. */
    public static final int V2_MIN_LIMIT = V2_FIXED_LENGTH + 216;
    /** The largest version 2 header the protocol can express. */
    public static final int V2_MAX_LIMIT = V2_FIXED_LENGTH + 0xFFFF;

    private static final byte[] V1_PREFIX = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};
    private static final int MAX_UNIQUE_ID = 128;
    private static final int UNIX_PATH_LENGTH = 108;

    /** Where in the header the next byte falls. */
    private enum State {
        START, V1_PREFIX, V1_LINE, V1_LF, V2_SIGNATURE, V2_FIXED, V2_BODY, DONE
    }

    private final int maxV2Length;
    private byte[] bytes = new byte[V1_MAX_LENGTH];
    private int count;
    private int v2Length;
    private State state = State.START;

    /**
     * @param maxV2Length the most bytes a version 2 header may take, fixed part included,
     *     from {@link #V2_MIN_LIMIT} to {@link #V2_MAX_LIMIT}
     */
    public ProxyHeaderParser(int maxV2Length) {
        if (maxV2Length < V2_MIN_LIMIT || maxV2Length > V2_MAX_LIMIT) {
            throw new IllegalArgumentException("PROXY v2 header limit must be " + V2_MIN_LIMIT + "-" + V2_MAX_LIMIT + ": " + maxV2Length);
        }
        this.maxV2Length = maxV2Length;
    }

    /**
     * Takes header bytes from {@code buffer}, stopping right after the header's last byte.
     *
     * @param buffer bytes read from the connection, in flush mode; its position advances
     * @return the header once complete, else null (all of {@code buffer} was taken)
     * @throws ProxyHeaderException when the bytes cannot be a PROXY header
     * @throws IllegalStateException when called again after the header was returned
     */
    public ProxyHeader parse(ByteBuffer buffer) {
        while (buffer.hasRemaining()) {
            switch (state) {
                case DONE -> throw new IllegalStateException("the PROXY header was already parsed");
                case V2_BODY -> {
                    int take = Math.min(buffer.remaining(), v2Length - count);
                    buffer.get(bytes, count, take);
                    count += take;
                    if (count == v2Length) {
                        return finish(decodeV2());
                    }
                }
                default -> {
                    ProxyHeader header = step(buffer.get());
                    if (header != null) {
                        return finish(header);
                    }
                }
            }
        }
        return null;
    }

    /** @return whether the header was parsed */
    public boolean isComplete() {
        return state == State.DONE;
    }

    private ProxyHeader finish(ProxyHeader header) {
        state = State.DONE;
        bytes = null;
        return header;
    }

    private ProxyHeader step(byte b) {
        switch (state) {
            case START -> {
                if (b == V1_PREFIX[0]) {
                    state = State.V1_PREFIX;
                } else if (b == V2_SIGNATURE[0]) {
                    state = State.V2_SIGNATURE;
                } else {
                    throw new ProxyHeaderException("the connection does not start with a PROXY protocol signature");
                }
                bytes[count++] = b;
            }
            case V1_PREFIX -> {
                if (b != V1_PREFIX[count]) {
                    throw new ProxyHeaderException("bad PROXY v1 signature");
                }
                bytes[count++] = b;
                if (count == V1_PREFIX.length) {
                    state = State.V1_LINE;
                }
            }
            case V1_LINE -> {
                if (count >= V1_MAX_LENGTH - 2 && b != '\r') {
                    throw new ProxyHeaderException("PROXY v1 line longer than " + V1_MAX_LENGTH + " bytes");
                }
                if (b == '\r') {
                    state = State.V1_LF;
                } else if (b < 0x20 || b > 0x7E) {
                    throw new ProxyHeaderException("PROXY v1 line holds a control or non-ASCII byte");
                }
                bytes[count++] = b;
            }
            case V1_LF -> {
                if (b != '\n') {
                    throw new ProxyHeaderException("PROXY v1 line has a CR without LF");
                }
                bytes[count++] = b;
                return decodeV1();
            }
            case V2_SIGNATURE -> {
                if (b != V2_SIGNATURE[count]) {
                    throw new ProxyHeaderException("bad PROXY v2 signature");
                }
                bytes[count++] = b;
                if (count == V2_SIGNATURE.length) {
                    state = State.V2_FIXED;
                }
            }
            case V2_FIXED -> {
                bytes[count++] = b;
                return fixedByte(b);
            }
            default -> throw new IllegalStateException("unexpected parser state " + state);
        }
        return null;
    }

    /** Checks one byte of the v2 fixed part as it arrives. */
    private ProxyHeader fixedByte(byte b) {
        switch (count) {
            case 13 -> {
                int version = (b >> 4) & 0x0F;
                if (version != 2) {
                    throw new ProxyHeaderException("PROXY v2 header with version " + version);
                }
                if ((b & 0x0F) > 1) {
                    throw new ProxyHeaderException("PROXY v2 header with unknown command " + (b & 0x0F));
                }
            }
            case 14 -> {
                if (((b >> 4) & 0x0F) > 3) {
                    throw new ProxyHeaderException("PROXY v2 header with unknown address family " + ((b >> 4) & 0x0F));
                }
                if ((b & 0x0F) > 2) {
                    throw new ProxyHeaderException("PROXY v2 header with unknown transport " + (b & 0x0F));
                }
            }
            case V2_FIXED_LENGTH -> {
                int length = ((bytes[14] & 0xFF) << 8) | (bytes[15] & 0xFF);
                v2Length = V2_FIXED_LENGTH + length;
                if (v2Length > maxV2Length) {
                    throw new ProxyHeaderException("PROXY v2 header of " + v2Length + " bytes is over the limit of " + maxV2Length);
                }
                if (length == 0) {
                    return decodeV2();
                }
                bytes = Arrays.copyOf(bytes, v2Length);
                state = State.V2_BODY;
            }
            default -> {
                // byte 15, the first of the length: checked with the second
            }
        }
        return null;
    }

    // ---- version 1 ----

    private ProxyHeader decodeV1() {
        // Between "PROXY " and CRLF.
        String line = new String(bytes, V1_PREFIX.length, count - V1_PREFIX.length - 2, StandardCharsets.US_ASCII);
        int space = line.indexOf(' ');
        String protocol = space < 0 ? line : line.substring(0, space);
        switch (protocol) {
            case "UNKNOWN" -> {
                // The balancer does not know the addresses; whatever follows is ignored.
                return new ProxyHeader(1, ProxyHeader.Command.PROXY, null, null, List.of());
            }
            case "TCP4", "TCP6" -> {
                String[] fields = line.split(" ", -1);
                if (fields.length != 5) {
                    throw new ProxyHeaderException("PROXY v1 " + protocol + " line needs 4 fields after the protocol, single-space separated");
                }
                boolean v6 = protocol.equals("TCP6");
                InetAddress source = v6 ? ipv6(fields[1]) : ipv4(fields[1]);
                InetAddress destination = v6 ? ipv6(fields[2]) : ipv4(fields[2]);
                int sourcePort = port(fields[3]);
                int destinationPort = port(fields[4]);
                return new ProxyHeader(1, ProxyHeader.Command.PROXY,
                        new InetSocketAddress(source, sourcePort), new InetSocketAddress(destination, destinationPort), List.of());
            }
            default -> throw new ProxyHeaderException("PROXY v1 line with an unknown protocol (TCP4, TCP6 or UNKNOWN expected)");
        }
    }

    private static InetAddress ipv4(String text) {
        InetAddress address = IpAddressLiteral.ipv4(text);
        if (address == null) {
            throw new ProxyHeaderException("malformed IPv4 address in PROXY v1 line");
        }
        return address;
    }

    private static InetAddress ipv6(String text) {
        InetAddress address = IpAddressLiteral.ipv6(text);
        if (address == null) {
            throw new ProxyHeaderException("malformed IPv6 address in PROXY v1 line");
        }
        return address;
    }

    /** 0-65535 in decimal without leading zeros. */
    private static int port(String text) {
        if (text.isEmpty() || text.length() > 5 || (text.length() > 1 && text.charAt(0) == '0')) {
            throw new ProxyHeaderException("malformed port in PROXY v1 line");
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw new ProxyHeaderException("malformed port in PROXY v1 line");
            }
            value = value * 10 + (c - '0');
        }
        if (value > 0xFFFF) {
            throw new ProxyHeaderException("port above 65535 in PROXY v1 line");
        }
        return value;
    }

    // ---- version 2 ----

    private ProxyHeader decodeV2() {
        int command = bytes[12] & 0x0F;
        int family = (bytes[13] >> 4) & 0x0F;
        int transport = bytes[13] & 0x0F;
        if (command == 0) {
            // LOCAL: the receiver keeps the real addresses and discards the rest of the block.
            return new ProxyHeader(2, ProxyHeader.Command.LOCAL, null, null, List.of());
        }
        if (family == 0) {
            // UNSPEC: unknown addresses; the block is ignored.
            return new ProxyHeader(2, ProxyHeader.Command.PROXY, null, null, List.of());
        }
        if (transport != 1) {
            throw new ProxyHeaderException(transport == 2
                    ? "PROXY v2 header for a datagram transport on a stream connection"
                    : "PROXY v2 header with an address family but no transport");
        }
        int addressLength = switch (family) {
            case 1 -> 12;
            case 2 -> 36;
            default -> 2 * UNIX_PATH_LENGTH;
        };
        if (v2Length - V2_FIXED_LENGTH < addressLength) {
            throw new ProxyHeaderException("PROXY v2 length is shorter than its " + addressLength + " bytes of addresses");
        }
        SocketAddress source;
        SocketAddress destination;
        int at = V2_FIXED_LENGTH;
        if (family == 3) {
            source = unixAddress(at);
            destination = unixAddress(at + UNIX_PATH_LENGTH);
            if (source == null || destination == null) {
                source = null;
                destination = null;
            }
        } else {
            int size = family == 1 ? 4 : 16;
            InetAddress sourceIp = address(Arrays.copyOfRange(bytes, at, at + size));
            InetAddress destinationIp = address(Arrays.copyOfRange(bytes, at + size, at + 2 * size));
            int ports = at + 2 * size;
            source = new InetSocketAddress(sourceIp, unsigned16(ports));
            destination = new InetSocketAddress(destinationIp, unsigned16(ports + 2));
        }
        List<ProxyHeader.Tlv> tlvs = decodeTlvs(V2_FIXED_LENGTH + addressLength);
        return new ProxyHeader(2, ProxyHeader.Command.PROXY, source, destination, tlvs);
    }

    private List<ProxyHeader.Tlv> decodeTlvs(int from) {
        List<ProxyHeader.Tlv> tlvs = new ArrayList<>();
        int at = from;
        while (at < v2Length) {
            if (v2Length - at < 3) {
                throw new ProxyHeaderException("PROXY v2 header ends inside a TLV header");
            }
            int type = bytes[at] & 0xFF;
            int length = unsigned16(at + 1);
            int valueAt = at + 3;
            if (v2Length - valueAt < length) {
                throw new ProxyHeaderException("PROXY v2 TLV 0x" + Integer.toHexString(type) + " runs past the header");
            }
            switch (type) {
                case ProxyHeader.TLV_NOOP -> {
                    // Padding: skipped.
                }
                case ProxyHeader.TLV_CRC32C -> {
                    checkCrc(valueAt, length);
                    tlvs.add(new ProxyHeader.Tlv(type, Arrays.copyOfRange(bytes, valueAt, valueAt + length)));
                }
                case ProxyHeader.TLV_UNIQUE_ID -> {
                    if (length > MAX_UNIQUE_ID) {
                        throw new ProxyHeaderException("PROXY v2 unique id longer than " + MAX_UNIQUE_ID + " bytes");
                    }
                    tlvs.add(new ProxyHeader.Tlv(type, Arrays.copyOfRange(bytes, valueAt, valueAt + length)));
                }
                case ProxyHeader.TLV_SSL -> {
                    byte[] value = Arrays.copyOfRange(bytes, valueAt, valueAt + length);
                    try {
                        ProxyHeader.Ssl.decode(value);
                    } catch (IllegalArgumentException x) {
                        throw new ProxyHeaderException("malformed PROXY v2 SSL TLV: " + x.getMessage());
                    }
                    tlvs.add(new ProxyHeader.Tlv(type, value));
                }
                default -> tlvs.add(new ProxyHeader.Tlv(type, Arrays.copyOfRange(bytes, valueAt, valueAt + length)));
            }
            at = valueAt + length;
        }
        return tlvs;
    }

    /** The CRC32C of the whole header, its own 4 value bytes counted as zeros, must match them. */
    private void checkCrc(int valueAt, int length) {
        if (length != 4) {
            throw new ProxyHeaderException("PROXY v2 CRC32C TLV of " + length + " bytes instead of 4");
        }
        long expected = ((long) unsigned16(valueAt) << 16) | unsigned16(valueAt + 2);
        byte[] zeroed = Arrays.copyOf(bytes, v2Length);
        Arrays.fill(zeroed, valueAt, valueAt + 4, (byte) 0);
        CRC32C crc = new CRC32C();
        crc.update(zeroed, 0, v2Length);
        if (crc.getValue() != expected) {
            throw new ProxyHeaderException("PROXY v2 CRC32C does not match the header");
        }
    }

    /**
     * @return the path up to its first NUL, or null when Java cannot name it: empty, abstract, or
     *     not UTF-8 (decoding it with replacement characters would name another socket)
     */
    private SocketAddress unixAddress(int at) {
        int end = at;
        while (end < at + UNIX_PATH_LENGTH && bytes[end] != 0) {
            end++;
        }
        if (end == at) {
            return null;
        }
        try {
            return UnixDomainSocketAddress.of(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, at, end - at)).toString());
        } catch (CharacterCodingException | InvalidPathException x) {
            return null;
        }
    }

    private int unsigned16(int at) {
        return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
    }

    private static InetAddress address(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException x) {
            throw new IllegalStateException("an address of 4 or 16 bytes was refused", x);
        }
    }
}
