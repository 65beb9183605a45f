package io.wharf.http.internal;

/**
 * Checks the text between the brackets of an RFC 3986 IP-literal: an IPv6 address
 * (section 3.2.2, eight groups with at most one {@code "::"}, the last two possibly a
 * dotted IPv4 address), optionally followed by an RFC 6874 zone ({@code %25eth0}), or an
 * IPvFuture ({@code v1.anything}). Linear, allocation-free, callable from any thread.
 */
public final class IpLiteral {

    private IpLiteral() {
    }

    /** @return whether {@code text[from, to)} is a valid IP-literal without its brackets */
    public static boolean isValid(String text, int from, int to) {
        if (from >= to) {
            return false;
        }
        char first = text.charAt(from);
        if (first == 'v' || first == 'V') {
            return isFuture(text, from + 1, to);
        }
        int zone = text.indexOf("%25", from);
        if (zone >= 0 && zone < to) {
            return isIpv6(text, from, zone) && isZone(text, zone + 3, to);
        }
        return isIpv6(text, from, to);
    }

    /** @return whether {@code text[from, to)} is a dotted-decimal IPv4 address without leading zeros */
    public static boolean isIpv4(String text, int from, int to) {
        int octets = 0;
        int i = from;
        while (octets < 4) {
            int start = i;
            int value = 0;
            while (i < to && i - start < 3 && isDigit(text.charAt(i))) {
                value = value * 10 + text.charAt(i) - '0';
                i++;
            }
            int digits = i - start;
            if (digits == 0 || value > 255 || digits > 1 && text.charAt(start) == '0') {
                return false;
            }
            octets++;
            if (octets < 4) {
                if (i >= to || text.charAt(i) != '.') {
                    return false;
                }
                i++;
            }
        }
        return i == to;
    }

    private static boolean isIpv6(String text, int from, int to) {
        int groups = 0;
        boolean compressed = false;
        int i = from;
        if (text.startsWith("::", i) && i + 2 <= to) {
            compressed = true;
            i += 2;
            if (i == to) {
                return true;
            }
        }
        while (true) {
            int start = i;
            while (i < to && PercentEncoding.hexValue(text.charAt(i)) >= 0) {
                i++;
            }
            if (i < to && text.charAt(i) == '.') {
                if (!isIpv4(text, start, to)) {
                    return false;
                }
                groups += 2;
                break;
            }
            int digits = i - start;
            if (digits == 0 || digits > 4) {
                return false;
            }
            groups++;
            if (i == to) {
                break;
            }
            if (text.charAt(i) != ':' || ++i == to) {
                return false;
            }
            if (text.charAt(i) == ':') {
                if (compressed) {
                    return false;
                }
                compressed = true;
                if (++i == to) {
                    break;
                }
            }
        }
        return compressed ? groups <= 7 : groups == 8;
    }

    private static boolean isZone(String text, int from, int to) {
        if (from >= to) {
            return false;
        }
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (c == '%') {
                if (PercentEncoding.byteAt(text, i, to) < 0) {
                    return false;
                }
                i += 2;
            } else if (!UriCharacters.isUnreserved(c)) {
                return false;
            }
        }
        return true;
    }

    private static boolean isFuture(String text, int from, int to) {
        int i = from;
        while (i < to && PercentEncoding.hexValue(text.charAt(i)) >= 0) {
            i++;
        }
        if (i == from || i >= to || text.charAt(i) != '.' || ++i == to) {
            return false;
        }
        for (; i < to; i++) {
            char c = text.charAt(i);
            if (!UriCharacters.isUnreserved(c) && !UriCharacters.isSubDelimiter(c) && c != ':') {
                return false;
            }
        }
        return true;
    }

    private static boolean isDigit(char c) {
        return c >= '0' && c <= '9';
    }
}
