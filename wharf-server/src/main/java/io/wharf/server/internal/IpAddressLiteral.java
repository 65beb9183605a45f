package io.wharf.server.internal;

import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Reads IP address literals strictly and without ever asking a name service: dotted-quad
 * IPv4 (four decimal octets 0-255, no leading zeros, which some stacks read as octal) and
 * IPv6 text (hex digits and colons, an embedded IPv4 tail allowed, no zone id). Used by the
 * PROXY header parser and the {@code Forwarded} customizer on whichever thread parses; it
 * holds no state.
 */
public final class IpAddressLiteral {

    private IpAddressLiteral() {
    }

    /** @return the IPv4 or IPv6 address written in {@code text}, or null when it is not a literal */
    public static InetAddress parse(String text) {
        return text.indexOf(':') >= 0 ? ipv6(text) : ipv4(text);
    }

    /** @return the IPv4 address in dotted-quad {@code text}, or null when malformed */
    public static InetAddress ipv4(String text) {
        byte[] address = new byte[4];
        int octet = 0;
        int value = 0;
        int digits = 0;
        for (int i = 0; i <= text.length(); i++) {
            char c = i < text.length() ? text.charAt(i) : '.';
            if (c == '.') {
                if (digits == 0 || octet > 3) {
                    return null;
                }
                address[octet++] = (byte) value;
                value = 0;
                digits = 0;
            } else if (c >= '0' && c <= '9') {
                if (digits > 0 && value == 0) {
                    return null; // a leading zero
                }
                value = value * 10 + (c - '0');
                digits++;
                if (value > 255) {
                    return null;
                }
            } else {
                return null;
            }
        }
        return octet == 4 ? byAddress(address) : null;
    }

    /** @return the address in IPv6 {@code text} (without brackets), or null when malformed */
    public static InetAddress ipv6(String text) {
        if (text.isEmpty() || text.length() > 45 || text.indexOf(':') < 0) {
            return null;
        }
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
            if (!hex && c != ':' && !(c == '.' && i > 0)) {
                return null;
            }
        }
        try {
            // Starts with a hex digit or ':' and holds a ':', so the JDK reads it as a literal
            // and never asks a name service; a malformed literal fails here.
            return InetAddress.getByName(text);
        } catch (UnknownHostException | IllegalArgumentException x) {
            return null;
        }
    }

    private static InetAddress byAddress(byte[] raw) {
        try {
            return InetAddress.getByAddress(raw);
        } catch (UnknownHostException x) {
            throw new IllegalStateException("an address of 4 bytes was refused", x);
        }
    }
}
