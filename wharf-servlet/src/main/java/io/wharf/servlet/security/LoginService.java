package io.wharf.servlet.security;

import java.security.cert.X509Certificate;

/**
 * Checks credentials and knows users' roles: what a servlet context's login methods ask. The
 * context calls it from request threads, concurrently; implementations are thread-safe.
 * Only {@link #login(String, String)} is required; a store that can do more says so by
 * overriding the other methods.
 */
public interface LoginService {

    /** @return the realm's name, for BASIC and DIGEST challenges and for logs */
    String getName();

    /**
     * Checks a user name and password (BASIC, FORM, {@code HttpServletRequest.login}).
     *
     * @return the user, or null when the name is unknown or the password wrong
     */
    AuthenticatedUser login(String username, String password);

    /**
     * For DIGEST login (RFC 7616): the secret {@code H(username:realm:password)} of a user, in
     * lower-case hex of the named algorithm ({@code MD5} or {@code SHA-256}). A store that keeps
     * only one-way password hashes cannot answer and returns null (the default), and DIGEST
     * login then fails for its users.
     *
     * @return the secret, or null when the user is unknown or the store cannot tell it
     */
    default String digestSecret(String username, String realm, String algorithm) {
        return null;
    }

    /** @return the user of this name with their roles, without checking a credential, or null (DIGEST, CLIENT-CERT) */
    default AuthenticatedUser user(String username) {
        return null;
    }

    /**
     * For CLIENT-CERT login: the user a verified TLS client certificate chain stands for; by
     * default the user named by the subject's {@code CN}, through {@link #user(String)}.
     *
     * @return the user, or null when the certificate names no known user
     */
    default AuthenticatedUser login(X509Certificate[] chain) {
        if (chain == null || chain.length == 0) {
            return null;
        }
        String subject = chain[0].getSubjectX500Principal().getName();
        for (String part : subject.split(",")) {
            String trimmed = part.trim();
            if (trimmed.regionMatches(true, 0, "CN=", 0, 3)) {
                return user(trimmed.substring(3));
            }
        }
        return null;
    }
}
