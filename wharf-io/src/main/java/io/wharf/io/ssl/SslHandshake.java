package io.wharf.io.ssl;

import java.security.cert.Certificate;
import java.util.List;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/**
 * What a completed TLS handshake negotiated, as told to {@link SslConnection.Listener#handshakeSucceeded}.
 *
 * @param endPoint the decrypted endpoint, on which a listener may {@link SslEndPoint#upgrade upgrade}
 *     to the connection of the negotiated application protocol
 * @param protocol the TLS version, for example {@code TLSv1.3}
 * @param cipherSuite the cipher suite, for example {@code TLS_AES_128_GCM_SHA256}
 * @param applicationProtocol the protocol chosen by ALPN, for example {@code h2}; empty when none was
 * @param peerCertificates the peer's certificate chain, its own first; empty when it sent none
 */
public record SslHandshake(SslEndPoint endPoint, String protocol, String cipherSuite, String applicationProtocol,
                           List<Certificate> peerCertificates) {

    public SslHandshake {
        peerCertificates = List.copyOf(peerCertificates);
    }

    static SslHandshake of(SslEndPoint endPoint, SSLEngine engine) {
        SSLSession session = engine.getSession();
        List<Certificate> peers;
        try {
            peers = List.of(session.getPeerCertificates());
        } catch (SSLPeerUnverifiedException x) {
            peers = List.of();
        }
        String alpn = engine.getApplicationProtocol();
        return new SslHandshake(endPoint, session.getProtocol(), session.getCipherSuite(), alpn == null ? "" : alpn, peers);
    }
}
