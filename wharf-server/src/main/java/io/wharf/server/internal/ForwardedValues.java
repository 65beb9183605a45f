package io.wharf.server.internal;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Strict readers for the values of the {@code Forwarded} header (RFC 7239) and of the de-facto
 * {@code X-Forwarded-*} headers, for {@code ForwardedRequestCustomizer}. Each returns null
 * for a malformed value rather than throwing, so that the caller can ignore the header. Called
 * on the thread handling the request; stateless; linear in the length of the values, which
 * the HTTP parser already bounds.
 */
public final class ForwardedValues {

    /** A node as in RFC 7239 section 6: an address (or name when obfuscated or unknown) and a port (0 when none). */
    public record Node(InetAddress address, String name, int port) {
        /** @return an {@link InetSocketAddress}: resolved for an IP, unresolved for "unknown" or an obfuscated name */
        public InetSocketAddress toSocketAddress() {
            return address != null ? new InetSocketAddress(address, port) : InetSocketAddress.createUnresolved(name, port);
        }
    }

    private ForwardedValues() {
    }

    /**
     * Reads {@code Forwarded} field values into their elements, in order (several fields form
     * one list), each a map of lower-cased parameter names to unquoted values.
     *
     * @return the elements, or null when any value is malformed: a bad token or quoted string,
     *     an empty element, a parameter without {@code '='}, or a parameter twice in an element
     */
    public static List<Map<String, String>> forwardedElements(List<String> fieldValues) {
        List<Map<String, String>> elements = new ArrayList<>();
        for (String value : fieldValues) {
            if (!readElements(value, elements)) {
                return null;
            }
        }
        return elements;
    }

    private static boolean readElements(String value, List<Map<String, String>> elements) {
        int at = 0;
        int length = value.length();
        Map<String, String> element = new HashMap<>();
        while (true) {
            at = skipSpaces(value, at);
            int nameStart = at;
            while (at < length && isTokenChar(value.charAt(at))) {
                at++;
            }
            if (at == nameStart || at >= length || value.charAt(at) != '=') {
                return false;
            }
            String name = value.substring(nameStart, at).toLowerCase(Locale.ROOT);
            at++;
            String parameter;
            if (at < length && value.charAt(at) == '"') {
                StringBuilder text = new StringBuilder();
                at = readQuoted(value, at + 1, text);
                if (at < 0) {
                    return false;
                }
                parameter = text.toString();
            } else {
                int valueStart = at;
                while (at < length && isTokenChar(value.charAt(at))) {
                    at++;
                }
                if (at == valueStart) {
                    return false;
                }
                parameter = value.substring(valueStart, at);
            }
            if (element.put(name, parameter) != null) {
                return false;
            }
            at = skipSpaces(value, at);
            if (at == length) {
                elements.add(element);
                return true;
            }
            char separator = value.charAt(at++);
            if (separator == ',') {
                elements.add(element);
                element = new HashMap<>();
            } else if (separator != ';') {
                return false;
            }
        }
    }

    /** @return the index after the closing quote, or -1 when the quoted string is malformed */
    private static int readQuoted(String value, int at, StringBuilder text) {
        while (at < value.length()) {
            char c = value.charAt(at++);
            if (c == '"') {
                return at;
            }
            if (c == '\\') {
                if (at == value.length()) {
                    return -1;
                }
                c = value.charAt(at++);
                if (c != '\t' && (c < 0x20 || c == 0x7F || c > 0xFF)) {
                    return -1;
                }
            } else if (c != '\t' && (c < 0x20 || c == 0x7F || c > 0xFF)) {
                return -1;
            }
            text.append(c);
        }
        return -1;
    }

    /**
     * Splits {@code X-Forwarded-*} field values on commas, trimming spaces; several fields form one list.
     *
     * @return the elements, or null when one is empty
     */
    public static List<String> commaList(List<String> fieldValues) {
        List<String> elements = new ArrayList<>();
        for (String value : fieldValues) {
            for (String element : value.split(",", -1)) {
                String trimmed = element.strip();
                if (trimmed.isEmpty()) {
                    return null;
                }
                elements.add(trimmed);
            }
        }
        return elements;
    }

    /**
     * Reads a {@code for=} or {@code by=} node: {@code unknown}, an obfuscated {@code _name},
     * an IPv4 address or a bracketed IPv6 address, each optionally with {@code :port} (a
     * number, or an obfuscated {@code _port} which counts as 0).
     *
     * @return the node, or null when malformed
     */
    public static Node forwardedNode(String text) {
        String host;
        String port = null;
        if (text.startsWith("[")) {
            int close = text.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = text.substring(1, close);
            if (close + 1 < text.length()) {
                if (text.charAt(close + 1) != ':') {
                    return null;
                }
                port = text.substring(close + 2);
            }
            InetAddress address = IpAddressLiteral.ipv6(host);
            return address == null ? null : withPort(address, host, port);
        }
        int colon = text.indexOf(':');
        host = colon < 0 ? text : text.substring(0, colon);
        port = colon < 0 ? null : text.substring(colon + 1);
        if (host.equalsIgnoreCase("unknown")) {
            return withPort(null, "unknown", port);
        }
        if (isObfuscated(host)) {
            return withPort(null, host, port);
        }
        InetAddress address = IpAddressLiteral.ipv4(host);
        return address == null ? null : withPort(address, host, port);
    }

    /**
     * Reads an {@code X-Forwarded-For} element: an IPv4 address, an IPv6 address bare or in
     * brackets, the latter two forms with {@code :port} allowed after IPv4 and brackets.
     *
     * @return the node, or null when malformed
     */
    public static Node forwardedForNode(String text) {
        if (!text.startsWith("[") && text.indexOf(':') != text.lastIndexOf(':')) {
            InetAddress address = IpAddressLiteral.ipv6(text);
            return address == null ? null : new Node(address, text, 0);
        }
        Node node = forwardedNode(text);
        return node == null || node.address() == null ? null : node;
    }

    /** @return 1-65535 from its decimal text, or -1 when malformed */
    public static int port(String text) {
        if (text.isEmpty() || text.length() > 5 || text.charAt(0) == '0') {
            return -1;
        }
        int value = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value > 0xFFFF ? -1 : value;
    }

    private static Node withPort(InetAddress address, String name, String port) {
        if (port == null) {
            return new Node(address, name, 0);
        }
        if (isObfuscated(port)) {
            return new Node(address, name, 0);
        }
        int number = port(port);
        return number < 0 ? null : new Node(address, name, number);
    }

    /** An obfuscated identifier: {@code "_"} then letters, digits, {@code '.'}, {@code '_'} or {@code '-'}. */
    private static boolean isObfuscated(String text) {
        if (text.length() < 2 || text.charAt(0) != '_') {
            return false;
        }
        for (int i = 1; i < text.length(); i++) {
            char c = text.charAt(i);
            boolean allowed = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
            if (!allowed) {
                return false;
            }
        }
        return true;
    }

    private static int skipSpaces(String value, int at) {
        while (at < value.length() && (value.charAt(at) == ' ' || value.charAt(at) == '\t')) {
            at++;
        }
        return at;
    }

    /** RFC 9110 tchar. */
    private static boolean isTokenChar(char c) {
        if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
            return true;
        }
        return "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
    }
}
