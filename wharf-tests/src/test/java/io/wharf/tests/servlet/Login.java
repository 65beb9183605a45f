package io.wharf.tests.servlet;

import java.util.List;

/**
 * How a test application's users log in ({@code <login-config>}, Servlet 6.1 section 13.6) and
 * who they are: the method (BASIC, DIGEST, FORM or CLIENT-CERT), the realm named in a BASIC or
 * DIGEST challenge, the FORM login and error pages, and the users with their passwords and
 * roles. Under CLIENT-CERT a user's name is the CN of their certificate's subject, and the
 * password is not used. The Servlet API has no
 * way to set any of it from code, so each {@link ServletPeer} sets it its own container's way.
 *
 * @param method {@code BASIC}, {@code DIGEST}, {@code FORM} or {@code CLIENT-CERT}, as {@code web.xml} spells them
 * @param realm the realm's name
 * @param loginPage FORM only: the login page's path in the context, else null
 * @param errorPage FORM only: the page shown after a failed login, else null
 * @param users the users
 */
record Login(String method, String realm, String loginPage, String errorPage, List<User> users) {

    /** One user: the name, the password in clear and the roles. */
    record User(String name, String password, List<String> roles) {

        static User of(String name, String password, String... roles) {
            return new User(name, password, List.of(roles));
        }

        String[] roleArray() {
            return roles.toArray(String[]::new);
        }
    }

    Login {
        if (!List.of("BASIC", "DIGEST", "FORM", "CLIENT-CERT").contains(method)) {
            throw new IllegalArgumentException("BASIC, DIGEST, FORM or CLIENT-CERT, not " + method);
        }
        users = List.copyOf(users);
    }

    static Login basic(String realm, List<User> users) {
        return new Login("BASIC", realm, null, null, users);
    }

    static Login digest(String realm, List<User> users) {
        return new Login("DIGEST", realm, null, null, users);
    }

    static Login clientCert(String realm, List<User> users) {
        return new Login("CLIENT-CERT", realm, null, null, users);
    }

    static Login form(String realm, String loginPage, String errorPage, List<User> users) {
        return new Login("FORM", realm, loginPage, errorPage, users);
    }
}
