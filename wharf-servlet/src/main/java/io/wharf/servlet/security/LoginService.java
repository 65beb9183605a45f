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
        String name = commonName(chain[0].getSubjectX500Principal().getName());
        return name == null ? null : user(name);
    }

    /**
     * @return the value of the most specific {@code CN} of an RFC 4514 distinguished name, its
     *     escapes undone ({@code CN=Lee\, Ann} is {@code Lee, Ann}); null when it has none or is malformed
     */
    static String commonName(String distinguishedName) {
        try {
            java.util.List<javax.naming.ldap.Rdn> rdns = new javax.naming.ldap.LdapName(distinguishedName).getRdns();
            // LdapName lists the RDNs right to left: the last is the leftmost, the most specific.
            for (int i = rdns.size() - 1; i >= 0; i--) {
                if (rdns.get(i).getType().equalsIgnoreCase("CN")) {
                    return String.valueOf(rdns.get(i).getValue());
                }
            }
            return null;
        } catch (javax.naming.InvalidNameException x) {
            return null;
        }
    }
}
