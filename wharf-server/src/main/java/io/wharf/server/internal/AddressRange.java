package io.wharf.server.internal;

import java.net.InetAddress;

/**
 * A block of IP addresses written as an address or in CIDR notation ({@code 10.0.0.0/8},
 * {@code fd00::/8}, {@code 192.0.2.7}), to tell whether a peer is a trusted proxy. IPv4 and
 * IPv6 blocks never match each other's addresses (an IPv4-mapped IPv6 address is already an
 * IPv4 address in Java). Immutable; made when configuring, read on request threads.
 *
 * @param network the first address of the block, as bytes (4 or 16)
 * @param prefixLength how many leading bits must match
 */
public record AddressRange(byte[] network, int prefixLength) {

    /**
     * @param text an IP literal, optionally followed by {@code /prefix}
     * @throws IllegalArgumentException naming what is malformed
     */
    public static AddressRange parse(String text) {
        int slash = text.indexOf('/');
        String address = slash < 0 ? text : text.substring(0, slash);
        if (address.startsWith("[") && address.endsWith("]")) {
            address = address.substring(1, address.length() - 1);
        }
        InetAddress ip = IpAddressLiteral.parse(address);
        if (ip == null) {
            throw new IllegalArgumentException("not an IP address or CIDR block: '" + text + "'");
        }
        byte[] bytes = ip.getAddress();
        int bits = bytes.length * 8;
        int prefix = bits;
        if (slash >= 0) {
            String digits = text.substring(slash + 1);
            if (digits.isEmpty() || digits.length() > 3 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
                throw new IllegalArgumentException("malformed CIDR prefix length in '" + text + "'");
            }
            prefix = Integer.parseInt(digits);
            if (prefix > bits) {
                throw new IllegalArgumentException("CIDR prefix length above " + bits + " in '" + text + "'");
            }
        }
        return new AddressRange(bytes, prefix);
    }

    public AddressRange {
        network = network.clone();
    }

    /** @return whether {@code address} is in this block */
    public boolean contains(InetAddress address) {
        byte[] candidate = address.getAddress();
        if (candidate.length != network.length) {
            return false;
        }
        int full = prefixLength / 8;
        for (int i = 0; i < full; i++) {
            if (candidate[i] != network[i]) {
                return false;
            }
        }
        int rest = prefixLength % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xFF << (8 - rest)) & 0xFF;
        return (candidate[full] & mask) == (network[full] & mask);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AddressRange range && range.prefixLength == prefixLength && java.util.Arrays.equals(range.network, network);
    }

    @Override
    public int hashCode() {
        return 31 * prefixLength + java.util.Arrays.hashCode(network);
    }

    @Override
    public String toString() {
        try {
            return InetAddress.getByAddress(network).getHostAddress() + "/" + prefixLength;
        } catch (java.net.UnknownHostException x) {
            return "?/" + prefixLength;
        }
    }
}
