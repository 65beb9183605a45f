package io.wharf.io.internal;

import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * INSECURE: a trust manager that accepts every certificate chain and checks no host name.
 * Used only when a client explicitly opts in (tests, development against self-signed servers);
 * it gives up all protection against an active attacker.
 */
public final class TrustAllTrustManager extends X509ExtendedTrustManager {

    private static final X509Certificate[] NONE = new X509Certificate[0];

    /** @return a new TLS context that trusts every server (no client certificate) */
    public static SSLContext newInsecureContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new TrustAllTrustManager()}, null);
            return context;
        } catch (GeneralSecurityException x) {
            throw new IllegalStateException("Cannot make a trust-all TLS context", x);
        }
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
    }

    @Override
    public void checkClientTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public void checkServerTrusted(X509Certificate[] chain, String authType) {
    }

    @Override
    public X509Certificate[] getAcceptedIssuers() {
        return NONE;
    }
}
