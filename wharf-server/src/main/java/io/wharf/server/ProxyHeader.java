package io.wharf.server;

import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The PROXY protocol header (HAProxy's protocol, version 1 text or version 2 binary) that a
 * load balancer sent before the client's first byte: the client's and the balancer's
 * addresses as the balancer saw them, and, in version 2, type-length-value extensions (the
 * negotiated ALPN protocol, the TLS server name, TLS details, a unique id...).
 *
 * <p>The {@link io.wharf.server.proxy.ProxyConnectionFactory}'s connection parses it on a
 * selector thread; a handler reaches it, on any thread, through
 * {@link ConnectionMetaData#getProxyHeader()}. Immutable and safe to share; it holds no buffers
 * (TLV values are copied out of the network buffer).
 *
 * <p>{@link #source()} and {@link #destination()} are empty for the {@code LOCAL} command
 * (a balancer's health check), for version 1 {@code UNKNOWN}, for version 2 {@code UNSPEC}
 * and for Unix socket paths Java cannot name (abstract ones): the connection then keeps the
 * real socket addresses.
 */
public final class ProxyHeader {

    /** TLV type: the application protocol negotiated with the client (ALPN), US-ASCII. */
    public static final int TLV_ALPN = 0x01;
    /** TLV type: the host name the client asked for (TLS SNI or Host), UTF-8. */
    public static final int TLV_AUTHORITY = 0x02;
    /** TLV type: a CRC32C of the whole header; the parser verifies it. */
    public static final int TLV_CRC32C = 0x03;
    /** TLV type: padding, to be ignored. */
    public static final int TLV_NOOP = 0x04;
    /** TLV type: an opaque id of the connection, up to 128 bytes. */
    public static final int TLV_UNIQUE_ID = 0x05;
    /** TLV type: TLS details, see {@link Ssl}. */
    public static final int TLV_SSL = 0x20;
    /** TLV type: the network namespace the balancer accepted on, US-ASCII. */
    public static final int TLV_NETNS = 0x30;

    /** What the header asks of the receiver. */
    public enum Command {
        /** The balancer speaks for itself (a health check): keep the real addresses. */
        LOCAL,
        /** The balancer relays a client: use the addresses of the header. */
        PROXY
    }

    private final int version;
    private final Command command;
    private final SocketAddress source;
    private final SocketAddress destination;
    private final List<Tlv> tlvs;

    /**
     * @param version 1 or 2
     * @param command LOCAL or PROXY
     * @param source the client's address as the balancer saw it, or null when the header has none
     * @param destination the address the client connected to, or null when the header has none
     * @param tlvs the version 2 extensions, in order (empty for version 1)
     */
    public ProxyHeader(int version, Command command, SocketAddress source, SocketAddress destination, List<Tlv> tlvs) {
        if (version != 1 && version != 2) {
            throw new IllegalArgumentException("PROXY protocol version must be 1 or 2: " + version);
        }
        if ((source == null) != (destination == null)) {
            throw new IllegalArgumentException("a PROXY header has both addresses or neither");
        }
        this.version = version;
        this.command = Objects.requireNonNull(command, "command");
        this.source = source;
        this.destination = destination;
        this.tlvs = List.copyOf(tlvs);
    }

    /** @return 1 (text) or 2 (binary) */
    public int version() {
        return version;
    }

    /** @return LOCAL (keep the real addresses) or PROXY */
    public Command command() {
        return command;
    }

    /** @return the client's address as the balancer saw it, when the header names one */
    public Optional<SocketAddress> source() {
        return Optional.ofNullable(source);
    }

    /** @return the address the client connected to (the balancer's), when the header names one */
    public Optional<SocketAddress> destination() {
        return Optional.ofNullable(destination);
    }

    /** @return every extension, in the order received */
    public List<Tlv> tlvs() {
        return tlvs;
    }

    /** @return the first extension of {@code type} */
    public Optional<Tlv> tlv(int type) {
        for (Tlv tlv : tlvs) {
            if (tlv.type() == type) {
                return Optional.of(tlv);
            }
        }
        return Optional.empty();
    }

    /** @return the ALPN protocol the balancer negotiated with the client, e.g. {@code "h2"} */
    public Optional<String> alpn() {
        return tlv(TLV_ALPN).map(tlv -> tlv.asString(StandardCharsets.US_ASCII));
    }

    /** @return the host name the client asked for (TLS SNI) */
    public Optional<String> authority() {
        return tlv(TLV_AUTHORITY).map(tlv -> tlv.asString(StandardCharsets.UTF_8));
    }

    /** @return the TLS details of the client's connection to the balancer */
    public Optional<Ssl> ssl() {
        return tlv(TLV_SSL).map(tlv -> Ssl.decode(tlv.value()));
    }

    @Override
    public String toString() {
        return "ProxyHeader{v" + version + "," + command + "," + source + "->" + destination + ",tlvs=" + tlvs.size() + "}";
    }

    /**
     * One version 2 extension: a type (0-255) and its value bytes.
     *
     * @param type the type, one of the {@code TLV_*} constants or another, 0-255
     * @param value the value; copied in and out, so the record is immutable
     */
    public record Tlv(int type, byte[] value) {
        public Tlv {
            if (type < 0 || type > 0xFF) {
                throw new IllegalArgumentException("TLV type must be 0-255: " + type);
            }
            if (value.length > 0xFFFF) {
                throw new IllegalArgumentException("TLV value longer than 65535 bytes: " + value.length);
            }
            value = value.clone();
        }

        /** @return a copy of the value bytes */
        @Override
        public byte[] value() {
            return value.clone();
        }

        /** @return the value decoded as text */
        public String asString(java.nio.charset.Charset charset) {
            return new String(value, charset);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Tlv tlv && tlv.type == type && Arrays.equals(tlv.value, value);
        }

        @Override
        public int hashCode() {
            return 31 * type + Arrays.hashCode(value);
        }

        @Override
        public String toString() {
            return "Tlv{0x" + Integer.toHexString(type) + "," + value.length + " bytes}";
        }
    }

    /**
     * The {@link #TLV_SSL} extension: how the client reached the balancer over TLS.
     *
     * @param client bit flags: {@link #CLIENT_SSL}, {@link #CLIENT_CERT_CONN}, {@link #CLIENT_CERT_SESS}
     * @param verify 0 when the client presented a certificate that was verified, else non-zero
     * @param tlvs the nested extensions (version, common name, cipher, algorithms)
     */
    public record Ssl(int client, long verify, List<Tlv> tlvs) {
        /** Client flag: the client connected over TLS. */
        public static final int CLIENT_SSL = 0x01;
        /** Client flag: the client sent a certificate on this connection. */
        public static final int CLIENT_CERT_CONN = 0x02;
        /** Client flag: the client sent a certificate on this TLS session. */
        public static final int CLIENT_CERT_SESS = 0x04;
        /** Nested type: the TLS version, e.g. {@code "TLSv1.3"}. */
        public static final int SUBTYPE_VERSION = 0x21;
        /** Nested type: the common name of the client certificate's subject. */
        public static final int SUBTYPE_CN = 0x22;
        /** Nested type: the cipher suite, e.g. {@code "TLS_AES_128_GCM_SHA256"}. */
        public static final int SUBTYPE_CIPHER = 0x23;
        /** Nested type: the certificate's signature algorithm. */
        public static final int SUBTYPE_SIG_ALG = 0x24;
        /** Nested type: the certificate's key algorithm. */
        public static final int SUBTYPE_KEY_ALG = 0x25;

        public Ssl {
            tlvs = List.copyOf(tlvs);
        }

        /**
         * Reads the value of a {@link #TLV_SSL} extension: a client byte, a 32-bit verify
         * result, then nested type-length-values that must exactly fill the rest.
         *
         * @throws IllegalArgumentException naming what is malformed
         */
        public static Ssl decode(byte[] value) {
            if (value.length < 5) {
                throw new IllegalArgumentException("SSL TLV shorter than its 5 fixed bytes: " + value.length);
            }
            int client = value[0] & 0xFF;
            long verify = ((long) (value[1] & 0xFF) << 24) | ((value[2] & 0xFF) << 16) | ((value[3] & 0xFF) << 8) | (value[4] & 0xFF);
            List<Tlv> nested = new ArrayList<>();
            int at = 5;
            while (at < value.length) {
                if (value.length - at < 3) {
                    throw new IllegalArgumentException("SSL TLV ends inside a nested TLV header");
                }
                int type = value[at] & 0xFF;
                int length = ((value[at + 1] & 0xFF) << 8) | (value[at + 2] & 0xFF);
                at += 3;
                if (value.length - at < length) {
                    throw new IllegalArgumentException("nested SSL TLV 0x" + Integer.toHexString(type) + " runs past the SSL TLV");
                }
                nested.add(new Tlv(type, Arrays.copyOfRange(value, at, at + length)));
                at += length;
            }
            return new Ssl(client, verify, nested);
        }

        /** @return whether the client connected to the balancer over TLS */
        public boolean isSecure() {
            return (client & CLIENT_SSL) != 0;
        }

        /** @return the value of the first nested extension of {@code subtype}, as US-ASCII text */
        public Optional<String> text(int subtype) {
            for (Tlv tlv : tlvs) {
                if (tlv.type() == subtype) {
                    return Optional.of(tlv.asString(StandardCharsets.US_ASCII));
                }
            }
            return Optional.empty();
        }

        /** @return the TLS version, e.g. {@code "TLSv1.3"} */
        public Optional<String> version() {
            return text(SUBTYPE_VERSION);
        }

        /** @return the common name of the client certificate's subject, UTF-8 */
        public Optional<String> commonName() {
            for (Tlv tlv : tlvs) {
                if (tlv.type() == SUBTYPE_CN) {
                    return Optional.of(tlv.asString(StandardCharsets.UTF_8));
                }
            }
            return Optional.empty();
        }

        /** @return the cipher suite */
        public Optional<String> cipher() {
            return text(SUBTYPE_CIPHER);
        }
    }
}
