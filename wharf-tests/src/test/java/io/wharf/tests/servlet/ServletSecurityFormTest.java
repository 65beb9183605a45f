package io.wharf.tests.servlet;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Security with FORM login (Servlet 6.1 section 13.6.3) compared between the containers, step
 * by step in one session per peer: the protected page answered with the login page, a wrong
 * password at {@code j_security_check}, the right one and the redirect back, the page again as
 * the logged-in user (at the Location the login redirected to). Without {@code <deny-uncovered-http-methods/>}, so that a method a
 * constraint leaves out passes.
 */
class ServletSecurityFormTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new SecurityApplication(), Deployment.NONE
        .withLogin(Login.form(SecurityApplication.REALM, "/login.html", "/error.html", SecurityApplication.USERS), SecurityApplication.CONSTRAINTS));

    private static String login(String target, String user, String password) {
        String body = "j_username=" + user + "&j_password=" + password;
        return Differential.request("POST", target, "Content-Type: application/x-www-form-urlencoded",
            "Content-Length: " + body.length()) + body;
    }

    @Test
    void formLogin() {
        containers.sequence(Compared.ALL,
            Differential.request("GET", "/ctx/admin/x?form"),
            login("/ctx/j_security_check?wrong", "ann", "wrong"),
            login("/ctx/j_security_check?right", "ann", "secret"),
            Differential.request("GET", "{previous:Location}"),
            Differential.request("GET", "/ctx/user/x?after-login"));
    }

    @Test
    void aUserWithoutTheRole() {
        containers.sequence(Compared.ALL,
            Differential.request("GET", "/ctx/admin/x?bob"),
            login("/ctx/j_security_check?bob", "bob", "hunter2"),
            Differential.request("GET", "{previous:Location}"),
            Differential.request("GET", "/ctx/user/x?bob"));
    }

    /** Section 13.6.3: after the login, at the Location it redirected to, the request that asked for it is served. */
    @Test
    void aPostSavedForTheLogin() {
        String post = Differential.request("POST", "/ctx/admin/x?saved", "Content-Type: application/x-www-form-urlencoded",
            "Content-Length: 7") + "p=saved";
        containers.sequence(Compared.ALL,
            post,
            login("/ctx/j_security_check?saved", "ann", "secret"),
            Differential.request("GET", "/ctx/admin/x?saved"),
            Differential.request("GET", "/ctx/admin/x?saved-then"));
    }

    @Test
    void uncoveredMethodsPass() {
        containers.check(Differential.request("GET", "/ctx/post-admin/x?uncovered"));
        containers.check(Differential.request("GET", "/ctx/omit-get/x?omitted"));
    }

    @Test
    void theLoginPageItself() {
        containers.check(Differential.request("GET", "/ctx/login.html"));
    }
}
