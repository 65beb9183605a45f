package io.wharf.servlet.internal;

import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

import io.wharf.server.Request;

/**
 * The request attributes that describe the TLS connection a request came on (Servlet 6.1
 * section 3.10): the cipher suite, the key size, the session id and the client's certificates.
 * Computed when asked; absent on a connection without TLS. Stateless.
 */
final class TlsAttributes {

    static final String CERTIFICATES = "jakarta.servlet.request.X509Certificate";
    static final String CIPHER_SUITE = "jakarta.servlet.request.cipher_suite";
    static final String KEY_SIZE = "jakarta.servlet.request.key_size";
    static final String SESSION_ID = "jakarta.servlet.request.ssl_session_id";

    private static final List<String> NAMES = List.of(CIPHER_SUITE, KEY_SIZE, SESSION_ID, CERTIFICATES);

    private TlsAttributes() {
    }

    /** @return the names present for this request's connection */
    static List<String> names(Request request) {
        return request.getConnectionMetaData().getSslSession().isPresent() ? NAMES : List.of();
    }

    /** @return the value of a TLS attribute, or null when {@code name} is not one or there is no TLS */
    static Object get(Request request, String name) {
        if (!name.startsWith("jakarta.servlet.request.")) {
            return null;
        }
        Optional<SSLSession> tls = request.getConnectionMetaData().getSslSession();
        if (tls.isEmpty()) {
            return null;
        }
        SSLSession session = tls.get();
        return switch (name) {
            case CIPHER_SUITE -> session.getCipherSuite();
            case KEY_SIZE -> keySize(session.getCipherSuite());
            case SESSION_ID -> HexFormat.of().formatHex(session.getId());
            case CERTIFICATES -> certificates(session);
            default -> null;
        };
    }

    /** @return the bits of the bulk cipher's key, read from the suite's name */
    static Integer keySize(String cipherSuite) {
        if (cipherSuite.contains("_256_") || cipherSuite.contains("CHACHA20")) {
            return 256;
        }
        if (cipherSuite.contains("_128_")) {
            return 128;
        }
        return null;
    }

    private static X509Certificate[] certificates(SSLSession session) {
        try {
            Certificate[] chain = session.getPeerCertificates();
            X509Certificate[] certificates = new X509Certificate[chain.length];
            for (int i = 0; i < chain.length; i++) {
                if (!(chain[i] instanceof X509Certificate x509)) {
                    return null;
                }
                certificates[i] = x509;
            }
            return certificates;
        } catch (SSLPeerUnverifiedException x) {
            return null;
        }
    }
}
