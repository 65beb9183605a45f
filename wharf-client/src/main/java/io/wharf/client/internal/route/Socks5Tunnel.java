package io.wharf.client.internal.route;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

import io.wharf.client.ProxyException;
import io.wharf.io.EndPoint;

/**
 * A tunnel through a SOCKS5 proxy (RFC 1928), with the username/password method of RFC 1929
 * when the proxy has credentials:
 * <pre>
 *  METHODS: offer no-auth (and username/password) ──► the proxy picks one
 *     └─ username/password ──► AUTHENTICATE: status 0 or refused
 *  CONNECT to the origin (host name unresolved, or the IP literal) ──► reply 0: tunnel open; 1-8: refused
 * </pre>
 * Every answer is checked: a wrong version, a method that was not offered, a failure code or
 * an unknown address type fails the opening with a {@link ProxyException} naming the proxy
 * and the answer (the RFC's words for the reply codes).
 *
 * <p>Threads and buffers: see {@link TunnelConnection}. Partial answers are kept in a heap
 * buffer of 262 bytes (the longest reply) owned by the reading thread.
 */
final class Socks5Tunnel extends TunnelConnection {

    private static final int VERSION = 5;
    private static final int NO_AUTHENTICATION = 0x00;
    private static final int USERNAME_PASSWORD = 0x02;
    private static final int NO_ACCEPTABLE_METHOD = 0xFF;
    private static final int AUTHENTICATION_VERSION = 1;
    private static final int CONNECT = 1;
    private static final int IPV4 = 1;
    private static final int DOMAIN = 3;
    private static final int IPV6 = 4;
    private static final Pattern IPV4_LITERAL = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");
    private static final String[] REPLIES = {
        "succeeded",
        "general SOCKS server failure",
        "connection not allowed by ruleset",
        "network unreachable",
        "host unreachable",
        "connection refused",
        "TTL expired",
        "command not supported",
        "address type not supported",
    };

    /** Which answer is awaited. */
    private enum Step {
        METHOD, AUTHENTICATION, CONNECT
    }

    private final ByteBuffer answer = ByteBuffer.allocate(4 + 1 + 255 + 2);
    private final String host;
    private final int port;
    private Step step = Step.METHOD;

    Socks5Tunnel(EndPoint endPoint, RouteOpening<?> opening) {
        super(endPoint, opening);
        String originHost = opening.origin().host();
        this.host = originHost.startsWith("[") ? originHost.substring(1, originHost.length() - 1) : originHost;
        this.port = opening.origin().port();
    }

    @Override
    protected void start() {
        byte[] greeting = proxy.hasCredentials()
                ? new byte[] {VERSION, 2, NO_AUTHENTICATION, USERNAME_PASSWORD}
                : new byte[] {VERSION, 1, NO_AUTHENTICATION};
        send(greeting);
    }

    @Override
    protected String asked() {
        return "SOCKS5 CONNECT " + opening.origin().host() + ":" + port;
    }

    @Override
    protected boolean parse(ByteBuffer bytes) throws ProxyException {
        int room = answer.remaining();
        if (bytes.remaining() > room) {
            throw refused("answered with more bytes than a SOCKS5 reply holds");
        }
        answer.put(bytes);
        return switch (step) {
            case METHOD -> method();
            case AUTHENTICATION -> authentication();
            case CONNECT -> connected();
        };
    }

    private boolean method() throws ProxyException {
        if (answer.position() < 2) {
            return true;
        }
        int version = answer.get(0) & 0xFF;
        int method = answer.get(1) & 0xFF;
        if (version != VERSION) {
            throw refused("is not a SOCKS5 proxy: it answered version " + version);
        }
        checkLength(2);
        answer.clear();
        if (method == NO_AUTHENTICATION) {
            sendConnect();
        } else if (method == USERNAME_PASSWORD && proxy.hasCredentials()) {
            step = Step.AUTHENTICATION;
            byte[] user = proxy.getUsername().getBytes(StandardCharsets.UTF_8);
            byte[] password = proxy.getPassword().getBytes(StandardCharsets.UTF_8);
            ByteBuffer request = ByteBuffer.allocate(3 + user.length + password.length);
            request.put((byte) AUTHENTICATION_VERSION).put((byte) user.length).put(user)
                    .put((byte) password.length).put(password);
            send(request.array());
        } else if (method == NO_ACCEPTABLE_METHOD) {
            throw refused("accepts none of the offered authentication methods (no authentication"
                    + (proxy.hasCredentials() ? ", username/password)" : "; set credentials with Proxy.withCredentials)"));
        } else {
            throw refused("chose authentication method " + method + ", which was not offered");
        }
        return false;
    }

    private boolean authentication() throws ProxyException {
        if (answer.position() < 2) {
            return true;
        }
        int version = answer.get(0) & 0xFF;
        int status = answer.get(1) & 0xFF;
        if (version != AUTHENTICATION_VERSION) {
            throw refused("answered the username/password authentication with version " + version);
        }
        checkLength(2);
        if (status != 0) {
            throw refused("refused the credentials of " + proxy.getUsername() + " (status " + status + ")");
        }
        answer.clear();
        sendConnect();
        return false;
    }

    private void sendConnect() throws ProxyException {
        step = Step.CONNECT;
        ByteBuffer request = ByteBuffer.allocate(4 + 1 + 255 + 2);
        request.put((byte) VERSION).put((byte) CONNECT).put((byte) 0);
        InetAddress literal = literal(host);
        if (literal == null) {
            byte[] name = host.getBytes(StandardCharsets.US_ASCII);
            if (name.length > 255) {
                throw new ProxyException(proxy, "host name too long for SOCKS5 (" + name.length + " bytes): " + host);
            }
            request.put((byte) DOMAIN).put((byte) name.length).put(name);
        } else {
            byte[] address = literal.getAddress();
            request.put((byte) (address.length == 4 ? IPV4 : IPV6)).put(address);
        }
        request.putShort((short) port).flip();
        byte[] bytes = new byte[request.remaining()];
        request.get(bytes);
        send(bytes);
    }

    /** @return the address of an IP literal (no lookup), or null for a host name */
    private static InetAddress literal(String host) {
        if (host.indexOf(':') < 0 && !IPV4_LITERAL.matcher(host).matches()) {
            return null;
        }
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException x) {
            return null;
        }
    }

    private boolean connected() throws ProxyException {
        if (answer.position() < 2) {
            return true;
        }
        int version = answer.get(0) & 0xFF;
        int reply = answer.get(1) & 0xFF;
        if (version != VERSION) {
            throw refused("answered CONNECT with version " + version);
        }
        if (reply != 0) {
            String meaning = reply < REPLIES.length ? REPLIES[reply] : "unassigned code";
            throw refused("refused to connect to " + opening.origin().host() + ":" + port + ": reply " + reply + " ("
                    + meaning + ")");
        }
        if (answer.position() < 5) {
            return true;
        }
        int addressType = answer.get(3) & 0xFF;
        int length = switch (addressType) {
            case IPV4 -> 4 + 4 + 2;
            case IPV6 -> 4 + 16 + 2;
            case DOMAIN -> 4 + 1 + (answer.get(4) & 0xFF) + 2;
            default -> throw refused("answered CONNECT with unknown address type " + addressType);
        };
        if (answer.position() < length) {
            return true;
        }
        // Bytes past the reply were given to the buffer too: they would be the origin's, which cannot speak first.
        answer.flip().position(length);
        established(answer);
        return false;
    }

    /** An answer to a request that is not the last must be whole and alone: the proxy waits for our next request. */
    private void checkLength(int length) throws ProxyException {
        if (answer.position() > length) {
            throw refused("answered with " + answer.position() + " bytes where SOCKS5 has " + length);
        }
    }

    private ProxyException refused(String what) {
        return new ProxyException(proxy, "proxy " + proxy + " " + what);
    }
}
