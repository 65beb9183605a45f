package io.wharf.tests.servlet;

import java.util.List;

/**
 * How a test application's users log in ({@code <login-config>}, Servlet 6.1 section 13.6) and
 * who they are: the method (BASIC or FORM), the realm named in a BASIC challenge, the FORM
 * login and error pages, and the users with their passwords and roles. The Servlet API has no
 * way to set any of it from code, so each {@link ServletPeer} sets it its own container's way.
 *
 * @param method {@code BASIC} or {@code FORM}
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
        if (!method.equals("BASIC") && !method.equals("FORM")) {
            throw new IllegalArgumentException("BASIC or FORM, not " + method);
        }
        users = List.copyOf(users);
    }

    static Login basic(String realm, List<User> users) {
        return new Login("BASIC", realm, null, null, users);
    }

    static Login form(String realm, String loginPage, String errorPage, List<User> users) {
        return new Login("FORM", realm, loginPage, errorPage, users);
    }

    boolean isForm() {
        return method.equals("FORM");
    }
}
