package io.wharf.tests.servlet;

import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.List;

import javax.net.ssl.SSLException;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Security with CLIENT-CERT login (Servlet 6.1 §13.6.4) compared between the containers: TLS
 * connectors that want (or, in a second deployment, need) a client certificate signed by the
 * test authority ({@link Certificates}), users known by their certificate's CN, and {@link SecurityApplication}'s constraints. Raw
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
        .withTls(new Tls(Tls.ClientCertificates.WANT, false, null)));

    /** The same application behind a connector that needs a client certificate: the handshake fails without one. */
    @RegisterExtension
    static final Differential needing = Differential.of("/ctx", new SecurityApplication(), Deployment.NONE
        .withLogin(Login.clientCert(SecurityApplication.REALM, USERS), SecurityApplication.CONSTRAINTS)
        .withTls(new Tls(Tls.ClientCertificates.NEED, false, null)));

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
        check(containers.over(new RawHttpClient(Differential.TIMEOUT, containers.certificates().client(user))), method, target);
    }

    /** With a connector that needs a certificate, a certificate is as with one that wants it. */
    @ParameterizedTest(name = "{0} {1} with the certificate of {2}")
    @CsvSource({
        "GET, /ctx/user/x?need-ann, ann",
        "GET, /ctx/admin/x?need-mallory, mallory",
    })
    void aConnectorThatNeedsACertificate(String method, String target, String user) throws Exception {
        check(needing.over(new RawHttpClient(Differential.TIMEOUT, needing.certificates().client(user))), method, target);
    }

    /**
     * Without a certificate, a connector that needs one fails the handshake, on every container;
     * how the client learns it (the server's alert, or a broken pipe when the server has closed
     * while the client still writes) is a race of the network, so only that no response came is
     * compared.
     */
    @Test
    void aConnectorThatNeedsACertificateRefusesAClientWithout() throws Exception {
        RawHttpClient withoutCertificate = new RawHttpClient(Differential.TIMEOUT, needing.certificates().client(null));
        byte[] request = Differential.request("GET", "/ctx/open/x?need-none").replace("\n", "\r\n").getBytes(StandardCharsets.ISO_8859_1);
        needing.forEachPeer((peer, base) -> {
            try {
                RawResponse response = withoutCertificate.exchange(base, request);
                throw new AssertionError(peer + " answered " + response.status() + " without a client certificate");
            } catch (SSLException | SocketException refused) {
                // the handshake failed, as it should
            }
        });
    }

    private static void check(Differential withCertificate, String method, String target) {
        withCertificate.check(Differential.request(method, target, method.equals("POST") ? new String[] {"Content-Length: 0"} : new String[0]),
            Compared.ALL);
    }
}
