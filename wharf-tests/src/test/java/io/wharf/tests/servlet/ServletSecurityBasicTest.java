package io.wharf.tests.servlet;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Security with BASIC login (Servlet 6.1 chapter 13, RFC 7617) compared between the containers:
 * the challenge without credentials, a wrong password, a user without the role, the right user;
 * role constraints, {@code **}, an empty auth constraint, a constraint for one method and one
 * with an omission under {@code <deny-uncovered-http-methods/>}, {@code @ServletSecurity}
 * through {@code setServletSecurity}, and CONFIDENTIAL over plain HTTP. Each peer gets the
 * users and constraints of {@link SecurityApplication} its own way.
 */
class ServletSecurityBasicTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new SecurityApplication(), Deployment.NONE
        .withLogin(Login.basic(SecurityApplication.REALM, SecurityApplication.USERS), SecurityApplication.CONSTRAINTS)
        .denyingUncoveredHttpMethods());

    /** Also compared: the challenge, by scheme and realm. */
    private static final Compared COMPARED = Compared.ALL.andHeaders("WWW-Authenticate");

    static String basic(String user, String password) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    /** As {@code user} (none when empty) with its password, or with {@code password} when one is given. */
    @ParameterizedTest(name = "{0} {1} as {2}")
    @CsvSource({
        "GET, /ctx/admin/x?nobody, ,",
        "GET, /ctx/admin/x?wrong, ann, wrong",
        "GET, /ctx/admin/x?unknown, eve, secret",
        "GET, /ctx/admin/x?bob, bob,",
        "GET, /ctx/admin/x?ann, ann,",
        "GET, /ctx/user/x?nobody, ,",
        "GET, /ctx/user/x?bob, bob,",
        "GET, /ctx/user/x?cid, cid,",
        "GET, /ctx/none/x?ann, ann,",
        "GET, /ctx/none/x?nobody, ,",
        "GET, /ctx/open/x?nobody, ,",
        "GET, /ctx/open/x?ann, ann,",
        "GET, /ctx/open/x?wrong, ann, wrong",
        "POST, /ctx/post-admin/x?nobody, ,",
        "POST, /ctx/post-admin/x?bob, bob,",
        "POST, /ctx/post-admin/x?ann, ann,",
        "GET, /ctx/post-admin/x?ann, ann,",
        "GET, /ctx/omit-get/x?ann, ann,",
        "PUT, /ctx/omit-get/x?nobody, ,",
        "PUT, /ctx/omit-get/x?ann, ann,",
        "GET, /ctx/annotated?nobody, ,",
        "GET, /ctx/annotated?bob, bob,",
        "POST, /ctx/annotated?bob, bob,",
        "POST, /ctx/annotated?ann, ann,",
        "DELETE, /ctx/annotated?ann, ann,",
    })
    void constraints(String method, String target, String user, String password) {
        List<String> lines = new ArrayList<>();
        if (user != null) {
            lines.add(basic(user, password != null ? password : SecurityApplication.USERS.stream()
                .filter(known -> known.name().equals(user)).findFirst().orElseThrow().password()));
        }
        if (!method.equals("GET") && !method.equals("DELETE")) {
            lines.add("Content-Length: 0");
        }
        containers.check(Differential.request(method, target, lines.toArray(String[]::new)), COMPARED);
    }

    @Test
    void confidentialOverPlainHttp() {
        containers.check(Differential.request("GET", "/ctx/tls/x?q=1"), COMPARED);
    }
}
