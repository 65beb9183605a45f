package io.wharf.servlet.internal;

import java.io.IOException;
import java.security.cert.X509Certificate;

import jakarta.servlet.http.HttpServletResponse;

import io.wharf.servlet.security.AuthenticatedUser;
import io.wharf.servlet.security.LoginService;

/**
 * CLIENT-CERT login (section 13.6.4): the user is the one the TLS client certificate, verified
 * by the connection's trust store, stands for. Without a certificate there is no way to ask for
 * one over the same connection, so the challenge is 403. Immutable.
 */
final class CertificateLogin implements Authenticator {

    private final LoginService users;

    CertificateLogin(LoginService users) {
        this.users = users;
    }

    @Override
    public String authType() {
        return "CLIENT_CERT";
    }

    @Override
    public AuthenticatedUser authenticate(ServletExchange exchange) {
        Object chain = exchange.request().getAttribute(TlsAttributes.CERTIFICATES);
        return chain instanceof X509Certificate[] certificates ? users.login(certificates) : null;
    }

    @Override
    public void challenge(ServletExchange exchange) throws IOException {
        exchange.response().sendError(HttpServletResponse.SC_FORBIDDEN, "A client certificate of a known user is needed");
    }
}
