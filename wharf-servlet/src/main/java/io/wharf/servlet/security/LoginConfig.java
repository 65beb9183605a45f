package io.wharf.servlet.security;

import java.util.Objects;

/**
 * How a context's users log in ({@code <login-config>}, Servlet 6.1 section 13.6): the method,
 * the realm named in BASIC and DIGEST challenges, and for FORM the login and error pages.
 *
 * @param method    the authentication method
 * @param realm     the realm's name; null for the login service's
 * @param loginPage FORM only: the path in the context of the login page
 * @param errorPage FORM only: the path in the context of the page shown after a failed login
 */
public record LoginConfig(Method method, String realm, String loginPage, String errorPage) {

    /** The authentication methods of section 13.6. */
    public enum Method {
        BASIC("BASIC"), DIGEST("DIGEST"), FORM("FORM"), CLIENT_CERT("CLIENT_CERT");

        private final String authType;

        Method(String authType) {
            this.authType = authType;
        }

        /** @return the value of {@code getAuthType()}, as {@code HttpServletRequest} names them */
        public String authType() {
            return authType;
        }
    }

    /** Checks that FORM has both pages and that they are paths in the context. */
    public LoginConfig {
        Objects.requireNonNull(method, "method");
        if (method == Method.FORM) {
            if (loginPage == null || !loginPage.startsWith("/") || errorPage == null || !errorPage.startsWith("/")) {
                throw new IllegalArgumentException("FORM login needs a login page and an error page, paths starting with '/': "
                    + loginPage + ", " + errorPage);
            }
        }
    }

    /** @return BASIC login in {@code realm} */
    public static LoginConfig basic(String realm) {
        return new LoginConfig(Method.BASIC, realm, null, null);
    }

    /** @return DIGEST login in {@code realm} */
    public static LoginConfig digest(String realm) {
        return new LoginConfig(Method.DIGEST, realm, null, null);
    }

    /** @return FORM login with these pages */
    public static LoginConfig form(String loginPage, String errorPage) {
        return new LoginConfig(Method.FORM, null, loginPage, errorPage);
    }

    /** @return CLIENT-CERT login: the TLS client certificate names the user */
    public static LoginConfig clientCert() {
        return new LoginConfig(Method.CLIENT_CERT, null, null, null);
    }
}
