package io.wharf.server;

import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * Test fixture: builds PROXY protocol version 2 headers byte by byte, good and deliberately
 * bad, for the parser and connection tests. One builder per header, on the test thread.
 */
public final class ProxyV2Bytes {

    public static final byte[] SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private int versionCommand = 0x21;
    private int familyTransport = 0x11;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    private Integer lengthOverride;
    private boolean crc;

    /** A PROXY command over TCP/IPv4 with the given addresses. */
    public static ProxyV2Bytes tcp4(String source, int sourcePort, String destination, int destinationPort) throws Exception {
        return new ProxyV2Bytes().family(0x11).addresses(source, sourcePort, destination, destinationPort);
    }

    /** A PROXY command over TCP/IPv6 with the given addresses. */
    public static ProxyV2Bytes tcp6(String source, int sourcePort, String destination, int destinationPort) throws Exception {
        return new ProxyV2Bytes().family(0x21).addresses(source, sourcePort, destination, destinationPort);
    }

    /** A LOCAL command with no addresses. */
    public static ProxyV2Bytes local() {
        return new ProxyV2Bytes().versionCommand(0x20).family(0x00);
    }

    public ProxyV2Bytes versionCommand(int value) {
        versionCommand = value;
        return this;
    }

    public ProxyV2Bytes family(int value) {
        familyTransport = value;
        return this;
    }

    /** Writes the two addresses (literals only) and ports in network order. */
    public ProxyV2Bytes addresses(String source, int sourcePort, String destination, int destinationPort) throws Exception {
        body.write(InetAddress.getByName(source).getAddress());
        body.write(InetAddress.getByName(destination).getAddress());
        u16(sourcePort);
        u16(destinationPort);
        return this;
    }

    /** Writes two Unix paths, each NUL-padded to 108 bytes. */
    public ProxyV2Bytes unix(String source, String destination) {
        for (String path : new String[] {source, destination}) {
            byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
            body.write(bytes, 0, bytes.length);
            body.write(new byte[108 - bytes.length], 0, 108 - bytes.length);
        }
        return this;
    }

    public ProxyV2Bytes tlv(int type, byte[] value) {
        body.write(type);
        u16(value.length);
        body.write(value, 0, value.length);
        return this;
    }

    public ProxyV2Bytes tlv(int type, String value) {
        return tlv(type, value.getBytes(StandardCharsets.UTF_8));
    }

    /** Appends raw bytes to the body, e.g. a broken TLV. */
    public ProxyV2Bytes raw(byte... bytes) {
        body.write(bytes, 0, bytes.length);
        return this;
    }

    /** Sets the length field to {@code length} whatever the body's size. */
    public ProxyV2Bytes length(int length) {
        lengthOverride = length;
        return this;
    }

    /** Ends the body with a CRC32C TLV computed over the whole header. */
    public ProxyV2Bytes withCrc() {
        crc = true;
        return this;
    }

    public byte[] build() {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(SIGNATURE, 0, SIGNATURE.length);
        out.write(versionCommand);
        out.write(familyTransport);
        byte[] content = body.toByteArray();
        int crcAt = -1;
        if (crc) {
            crcAt = 16 + content.length + 3;
            ByteArrayOutputStream withCrc = new ByteArrayOutputStream();
            withCrc.write(content, 0, content.length);
            withCrc.write(0x03);
            withCrc.write(0);
            withCrc.write(4);
            withCrc.write(new byte[4], 0, 4);
            content = withCrc.toByteArray();
        }
        int length = lengthOverride != null ? lengthOverride : content.length;
        out.write(length >> 8);
        out.write(length);
        out.write(content, 0, content.length);
        byte[] header = out.toByteArray();
        if (crcAt >= 0) {
            CRC32C checksum = new CRC32C();
            checksum.update(header, 0, header.length);
            long value = checksum.getValue();
            header[crcAt] = (byte) (value >> 24);
            header[crcAt + 1] = (byte) (value >> 16);
            header[crcAt + 2] = (byte) (value >> 8);
            header[crcAt + 3] = (byte) value;
        }
        return header;
    }

    private void u16(int value) {
        body.write(value >> 8);
        body.write(value);
    }
}
