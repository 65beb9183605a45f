package io.wharf.tests.servlet;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Security with CLIENT-CERT login (Servlet 6.1 §13.6.4) compared between the containers: TLS
 * connectors that want a client certificate signed by the test authority ({@link Certificates}),
 * users known by their certificate's CN, and {@link SecurityApplication}'s constraints. Raw
 * requests go over TLS with ann's certificate (an admin), bob's (a user), mallory's (trusted, but
 * no user of the realm) and none; compared are the status, who the servlet sees
 * ({@code getRemoteUser}, {@code getAuthType}, {@code isUserInRole}) and the certificate in
 * {@code jakarta.servlet.request.X509Certificate}.
 */
class ServletSecurityClientCertTest {

    private static final List<Login.User> USERS = List.of(Login.User.of("ann", "", "admin", "user"), Login.User.of("bob", "", "user"));

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new SecurityApplication(), Deployment.NONE
        .withLogin(Login.clientCert(SecurityApplication.REALM, USERS), SecurityApplication.CONSTRAINTS)
        .withTls(new Tls(true, false, null)));

    /** As {@code user} (no certificate when empty). */
    @ParameterizedTest(name = "{0} {1} with the certificate of {2}")
    @CsvSource({
        "GET, /ctx/admin/x?none,",
        "GET, /ctx/admin/x?ann, ann",
        "GET, /ctx/admin/x?bob, bob",
        "GET, /ctx/admin/x?mallory, mallory",
        "GET, /ctx/user/x?none,",
        "GET, /ctx/user/x?ann, ann",
        "GET, /ctx/user/x?bob, bob",
        "GET, /ctx/user/x?mallory, mallory",
        "GET, /ctx/none/x?ann, ann",
        "GET, /ctx/open/x?none,",
        "GET, /ctx/open/x?ann, ann",
        "GET, /ctx/open/x?mallory, mallory",
        "GET, /ctx/tls/x?none,",
        "GET, /ctx/tls/x?bob, bob",
        "GET, /ctx/annotated?bob, bob",
        "POST, /ctx/annotated?bob, bob",
        "POST, /ctx/annotated?ann, ann",
    })
    void constraints(String method, String target, String user) throws Exception {
        Differential withCertificate = containers.over(new RawHttpClient(Differential.TIMEOUT, containers.certificates().client(user)));
        withCertificate.check(Differential.request(method, target, method.equals("POST") ? new String[] {"Content-Length: 0"} : new String[0]),
            Compared.ALL);
    }
}
