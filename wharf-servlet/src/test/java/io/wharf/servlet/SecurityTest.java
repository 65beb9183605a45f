package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.header;
import static io.wharf.servlet.ServletTester.headers;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import jakarta.servlet.ServletException;
import jakarta.servlet.annotation.HttpConstraint;
import jakarta.servlet.annotation.HttpMethodConstraint;
import jakarta.servlet.annotation.ServletSecurity;
import jakarta.servlet.annotation.ServletSecurity.TransportGuarantee;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.servlet.security.SecurityConstraint;

import org.junit.jupiter.api.Test;

/** Security (Servlet 6.1 chapter 13): constraints, BASIC, DIGEST and FORM login, programmatic login, roles. */
class SecurityTest extends ServletTestCase {

    /** Prints who the request's user is. */
    public static final class WhoAmI extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().print(request.getMethod() + " user=" + request.getRemoteUser() + " type=" + request.getAuthType()
                + " admin=" + request.isUserInRole("admin") + " boss=" + request.isUserInRole("boss")
                + " any=" + request.isUserInRole("**") + " p=" + request.getParameter("p"));
        }
    }

    private ServletTester start(LoginConfig login) throws Exception {
        tester("/ctx");
        tester.context.setLoginService(new MemoryLoginService("Wharf Realm")
            .addUser("ann", "secret", "admin", "user")
            .addUser("bob", "hunter2", "user"));
        tester.context.setLoginConfig(login);
        tester.context.getServletContext().addServlet("who", new WhoAmI()).addMapping("/admin/*", "/user/*", "/open/*", "/none/*",
            "/tls/*");
        tester.context.addRoleLink("who", "boss", "admin");
        tester.context.getServletContext().declareRoles("admin", "user");
        tester.context.addSecurityConstraint(SecurityConstraint.roles(List.of("/admin/*"), "admin"));
        tester.context.addSecurityConstraint(SecurityConstraint.roles(List.of("/user/*"), "**"));
        tester.context.addSecurityConstraint(SecurityConstraint.deny(List.of("/none/*")));
        tester.context.addSecurityConstraint(new SecurityConstraint(List.of("/tls/*"), Set.of(), Set.of(), null,
            TransportGuarantee.CONFIDENTIAL));
        return tester;
    }

    private String get(String target, String... headerLines) throws Exception {
        StringBuilder request = new StringBuilder("GET " + target + " HTTP/1.1\nHost: test\n");
        for (String line : headerLines) {
            request.append(line).append('\n');
        }
        return tester.request(request.append("Connection: close\n\n").toString());
    }

    private static String basic(String user, String password) {
        return "Authorization: Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void basicChallengesChecksPasswordsAndRoles() throws Exception {
        start(LoginConfig.basic("Wharf Realm")).start();
        String challenge = get("/ctx/admin/x");
        assertEquals(401, status(challenge));
        assertEquals("Basic realm=\"Wharf Realm\", charset=\"UTF-8\"", header(challenge, "WWW-Authenticate"));
        assertEquals(401, status(get("/ctx/admin/x", basic("ann", "wrong"))));
        assertEquals("GET user=ann type=BASIC admin=true boss=true any=true p=null", content(get("/ctx/admin/x", basic("ann", "secret"))));
        assertEquals(403, status(get("/ctx/admin/x", basic("bob", "hunter2"))));
        assertEquals("GET user=bob type=BASIC admin=false boss=false any=true p=null", content(get("/ctx/user/x", basic("bob", "hunter2"))));
        assertEquals("GET user=null type=null admin=false boss=false any=false p=null", content(get("/ctx/open/x")));
        assertEquals("GET user=bob type=BASIC admin=false boss=false any=true p=null", content(get("/ctx/open/x", basic("bob", "hunter2"))),
            "credentials sent to an open resource still name the user");
        assertEquals(403, status(get("/ctx/none/x", basic("ann", "secret"))), "an empty auth constraint denies everyone");
    }

    @Test
    void confidentialRedirectsToTheSecurePortOrRefuses() throws Exception {
        start(LoginConfig.basic("Wharf Realm")).start();
        assertEquals(403, status(get("/ctx/tls/x?q=1")), "no secure port is known");
        tester.configuration.setSecurePort(8443);
        String redirect = get("/ctx/tls/x?q=1");
        assertEquals(302, status(redirect));
        assertEquals("https://test:8443/ctx/tls/x?q=1", header(redirect, "Location"));
    }

    @Test
    void digestLoginWithSha256AndMd5AndNoReplay() throws Exception {
        start(LoginConfig.digest("Wharf Realm")).start();
        String challenge = get("/ctx/admin/x");
        assertEquals(401, status(challenge));
        List<String> offers = headers(challenge, "WWW-Authenticate");
        assertEquals(2, offers.size(), offers.toString());
        assertTrue(offers.get(0).contains("algorithm=SHA-256") && offers.get(1).contains("algorithm=MD5"), offers.toString());
        String nonce = offers.get(0).replaceAll(".*nonce=\"([^\"]+)\".*", "$1");
        for (String algorithm : new String[] {"SHA-256", "MD5"}) {
            String count = algorithm.equals("SHA-256") ? "00000001" : "00000002";
            String authorization = digest(algorithm, "ann", "secret", nonce, count, "GET", "/ctx/admin/x");
            assertEquals("GET user=ann type=DIGEST admin=true boss=true any=true p=null", content(get("/ctx/admin/x", authorization)));
            assertEquals(401, status(get("/ctx/admin/x", authorization)), "the same count again is a replay");
        }
        assertEquals(401, status(get("/ctx/admin/x", digest("MD5", "ann", "wrong", nonce, "00000009", "GET", "/ctx/admin/x"))));
        assertEquals(401, status(get("/ctx/admin/x", digest("MD5", "ann", "secret", "made-up", "00000001", "GET", "/ctx/admin/x"))));
        // A wrong answer takes no count: one who learned the nonce cannot spend the client's counts with it.
        assertEquals(401, status(get("/ctx/admin/x", digest("SHA-256", "ann", "guess", nonce, "ffffffff", "GET", "/ctx/admin/x"))));
        assertEquals(200, status(get("/ctx/admin/x", digest("SHA-256", "ann", "secret", nonce, "00000003", "GET", "/ctx/admin/x"))),
            "the client's next count still counts");
    }

    @Test
    void anExpiredNonceAnsweredRightIsChallengedAsStale() throws Exception {
        start(LoginConfig.digest("Wharf Realm"));
        tester.context.setDigestNonceLifetime(Duration.ofMillis(200));
        assertThrows(IllegalArgumentException.class, () -> tester.context.setDigestNonceLifetime(Duration.ZERO));
        tester.start();
        String nonce = headers(get("/ctx/admin/x"), "WWW-Authenticate").get(0).replaceAll(".*nonce=\"([^\"]+)\".*", "$1");
        assertEquals(200, status(get("/ctx/admin/x", digest("SHA-256", "ann", "secret", nonce, "00000001", "GET", "/ctx/admin/x"))));
        Thread.sleep(400);
        String stale = get("/ctx/admin/x", digest("SHA-256", "ann", "secret", nonce, "00000002", "GET", "/ctx/admin/x"));
        assertEquals(401, status(stale), "the nonce expired");
        List<String> offers = headers(stale, "WWW-Authenticate");
        assertTrue(offers.stream().allMatch(offer -> offer.endsWith(", stale=true")), offers.toString());
        String fresh = offers.get(0).replaceAll(".*nonce=\"([^\"]+)\".*", "$1");
        assertEquals(200, status(get("/ctx/admin/x", digest("SHA-256", "ann", "secret", fresh, "00000001", "GET", "/ctx/admin/x"))),
            "the client retries with the new nonce, without its user");
        Thread.sleep(400);
        String wrong = get("/ctx/admin/x", digest("SHA-256", "ann", "wrong", fresh, "00000002", "GET", "/ctx/admin/x"));
        assertFalse(headers(wrong, "WWW-Authenticate").get(0).contains("stale"), "a wrong password is not stale: the user is asked");
        String made = get("/ctx/admin/x", digest("SHA-256", "ann", "secret", "made-up", "00000001", "GET", "/ctx/admin/x"));
        assertFalse(headers(made, "WWW-Authenticate").get(0).contains("stale"), "a nonce we never made is not stale");
    }

    private static String digest(String algorithm, String user, String password, String nonce, String count, String method,
                                 String uri) throws Exception {
        String cnonce = "c" + count;
        String ha1 = hash(algorithm, user + ":Wharf Realm:" + password);
        String ha2 = hash(algorithm, method + ":" + uri);
        String response = hash(algorithm, ha1 + ":" + nonce + ":" + count + ":" + cnonce + ":auth:" + ha2);
        return "Authorization: Digest username=\"" + user + "\", realm=\"Wharf Realm\", nonce=\"" + nonce + "\", uri=\"" + uri
            + "\", qop=auth, nc=" + count + ", cnonce=\"" + cnonce + "\", response=\"" + response + "\", algorithm=" + algorithm;
    }

    private static String hash(String algorithm, String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void formLoginShowsTheLoginPageChangesTheSessionIdAndRestoresAPost() throws Exception {
        start(LoginConfig.form("/login.html", "/error.html"));
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
                response.getWriter().print((request.getServletPath().equals("/login.html") ? "login page" : "error page")
                    + " for " + request.getAttribute("jakarta.servlet.forward.request_uri"));
            }
        }, "/login.html", "/error.html");
        tester.start();

        String page = tester.request("POST /ctx/admin/x HTTP/1.1\nHost: test\nContent-Type: application/x-www-form-urlencoded\n"
            + "Content-Length: 7\nConnection: close\n\np=saved");
        assertEquals(200, status(page));
        assertEquals("login page for /ctx/admin/x", content(page));
        String firstSession = cookie(page);

        String failed = tester.request(post("/ctx/j_security_check", firstSession, "j_username=ann&j_password=wrong"));
        assertEquals("error page for /ctx/j_security_check", content(failed));

        String loggedIn = tester.request(post("/ctx/j_security_check", firstSession, "j_username=ann&j_password=secret"));
        assertEquals(303, status(loggedIn));
        assertEquals("/ctx/admin/x", header(loggedIn, "Location"));
        String secondSession = cookie(loggedIn);
        assertNotEquals(firstSession, secondSession, "the session id changes on login");

        assertEquals("POST user=ann type=FORM admin=true boss=true any=true p=saved", content(get("/ctx/admin/x", "Cookie: " + secondSession)),
            "the saved POST comes back with its parameters");
        assertEquals("GET user=ann type=FORM admin=true boss=true any=true p=null", content(get("/ctx/admin/x", "Cookie: " + secondSession)));
        assertEquals(200, status(get("/ctx/login.html", "Cookie: " + firstSession)));
        assertEquals("login page for /ctx/admin/x", content(get("/ctx/admin/x", "Cookie: " + firstSession)),
            "the old session id no longer logs in");
    }

    private static String post(String target, String cookie, String body) {
        return "POST " + target + " HTTP/1.1\nHost: test\nCookie: " + cookie + "\nContent-Type: application/x-www-form-urlencoded\n"
            + "Content-Length: " + body.length() + "\nConnection: close\n\n" + body;
    }

    private static String cookie(String response) {
        String setCookie = header(response, "Set-Cookie");
        return setCookie.substring(0, setCookie.indexOf(';'));
    }

    /** A servlet secured by annotation: GET for users, DELETE denied, others for admins, TLS not asked. */
    @ServletSecurity(value = @HttpConstraint(rolesAllowed = "admin"), httpMethodConstraints = {
        @HttpMethodConstraint(value = "GET", rolesAllowed = "user"),
        @HttpMethodConstraint(value = "DELETE", emptyRoleSemantic = ServletSecurity.EmptyRoleSemantic.DENY)})
    public static final class Annotated extends HttpServlet {
        @Override
        protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().print(request.getMethod() + " by " + request.getRemoteUser());
        }
    }

    @Test
    void servletSecurityFromTheAnnotationAndUncoveredMethods() throws Exception {
        start(LoginConfig.basic("Wharf Realm"));
        tester.context.addServlet(Annotated.class, "/annotated").setServletSecurity(
            new jakarta.servlet.ServletSecurityElement(Annotated.class.getAnnotation(ServletSecurity.class)));
        tester.context.addSecurityConstraint(new SecurityConstraint(List.of("/open/*"), Set.of("POST"), Set.of(), Set.of("admin"), null));
        tester.context.setDenyUncoveredHttpMethods(true);
        tester.start();
        assertEquals("GET by bob", content(get("/ctx/annotated", basic("bob", "hunter2"))));
        assertEquals(403, status(tester.request("PUT /ctx/annotated HTTP/1.1\nHost: t\n" + basic("bob", "hunter2")
            + "\nContent-Length: 0\nConnection: close\n\n")));
        assertEquals(200, status(tester.request("PUT /ctx/annotated HTTP/1.1\nHost: t\n" + basic("ann", "secret")
            + "\nContent-Length: 0\nConnection: close\n\n")));
        assertEquals(403, status(tester.request("DELETE /ctx/annotated HTTP/1.1\nHost: t\n" + basic("ann", "secret")
            + "\nConnection: close\n\n")));
        assertEquals(403, status(get("/ctx/open/x")), "GET is uncovered where POST is constrained, and uncovered methods are denied");
    }

    @Test
    void programmaticLoginLogoutAndAuthenticate() throws Exception {
        tester("/");
        tester.context.setLoginService(new MemoryLoginService("Realm").addUser("ann", "secret", "admin"));
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                if (request.getParameter("challenge") != null) {
                    if (!request.authenticate(response)) {
                        return;
                    }
                }
                String before = request.getRemoteUser();
                String failure = null;
                try {
                    request.login("ann", "wrong");
                } catch (ServletException expected) {
                    failure = expected.getMessage();
                }
                request.login("ann", "secret");
                String during = request.getRemoteUser() + "/" + request.isUserInRole("admin");
                request.logout();
                response.getWriter().print(before + " " + failure + " " + during + " " + request.getRemoteUser());
            }
        }, "/*");
        tester.start();
        assertEquals("null login failed for user ann ann/true null", content(tester.get("/p")));
        String challenged = tester.get("/p?challenge=1");
        assertEquals(401, status(challenged));
        assertNull(header(challenged, "Set-Cookie"));
    }

    @Test
    void theCommonNameOfACertificateSubjectIsReadWithItsEscapes() {
        assertEquals("Lee, Ann", io.wharf.servlet.security.LoginService.commonName("CN=Lee\\, Ann,O=Example,C=DK"));
        assertEquals("ann", io.wharf.servlet.security.LoginService.commonName("CN=ann"));
        assertEquals("leaf", io.wharf.servlet.security.LoginService.commonName("CN=leaf,OU=unit,CN=outer"));
        assertNull(io.wharf.servlet.security.LoginService.commonName("O=Example"));
        assertNull(io.wharf.servlet.security.LoginService.commonName("not a name"));
    }

    @Test
    void constraintsWithoutALoginServiceFailTheStart() {
        tester("/");
        tester.context.addSecurityConstraint(SecurityConstraint.roles(List.of("/*"), "admin"));
        Exception failure = org.junit.jupiter.api.Assertions.assertThrows(Exception.class, () -> tester.start());
        assertTrue(String.valueOf(failure.getMessage()).contains("no LoginService") || String.valueOf(failure.getCause()).contains("no LoginService"),
            String.valueOf(failure));
    }
}
