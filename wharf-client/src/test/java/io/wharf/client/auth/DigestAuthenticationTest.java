package io.wharf.client.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;

import io.wharf.client.Authentication;
import io.wharf.client.Challenge;
import io.wharf.client.HttpClient;
import io.wharf.client.Request;

import org.junit.jupiter.api.Test;

/** Digest answers checked against the worked examples of RFC 7616 section 3.9.1, and Basic against RFC 7617. */
class DigestAuthenticationTest {

    private static final URI SITE = URI.create("http://www.example.org/");
    private static final String NONCE = "7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v";
    private static final String OPAQUE = "FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS";
    private static final String CNONCE = "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ";

    private final HttpClient client = new HttpClient();

    private static Challenge challenge(String algorithm) {
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("realm", "http-auth@example.org");
        parameters.put("qop", "auth, auth-int");
        parameters.put("algorithm", algorithm);
        parameters.put("nonce", NONCE);
        parameters.put("opaque", OPAQUE);
        return new Challenge("Digest", null, parameters);
    }

    private String answer(String algorithm) {
        DigestAuthentication digest = new DigestAuthentication(SITE, null, "Mufasa", "Circle of Life", () -> CNONCE);
        Request request = client.newRequest("http://www.example.org/dir/index.html");
        Authentication.Result result = digest.authenticate(request, null, challenge(algorithm));
        result.apply(request);
        return request.getHeaders().get("Authorization");
    }

    @Test
    void sha256AnswerOfTheRfc() {
        assertEquals("Digest username=\"Mufasa\", realm=\"http-auth@example.org\", nonce=\"" + NONCE + "\", "
                + "uri=\"/dir/index.html\", algorithm=SHA-256, "
                + "response=\"753927fa0e85d155564e2e272a28d1802ca10daf4496794697cf8db5856cb6c1\", "
                + "qop=auth, nc=00000001, cnonce=\"" + CNONCE + "\", opaque=\"" + OPAQUE + "\"", answer("SHA-256"));
    }

    @Test
    void md5AnswerOfTheRfc() {
        assertTrue(answer("MD5").contains("response=\"8ca523f5e9506fed4657c9700eebdbec\""), answer("MD5"));
    }

    @Test
    void eachUseCountsTheNonce() {
        DigestAuthentication digest = new DigestAuthentication(SITE, null, "Mufasa", "Circle of Life", () -> CNONCE);
        Authentication.Result result = digest.authenticate(null, null, challenge("SHA-256"));
        for (int i = 1; i <= 3; i++) {
            Request request = client.newRequest("http://www.example.org/a?b=c");
            result.apply(request);
            String value = request.getHeaders().get("Authorization");
            assertTrue(value.contains("nc=0000000" + i), value);
            assertTrue(value.contains("uri=\"/a?b=c\""), value);
        }
    }

    @Test
    void challengesItCannotAnswerGetNoResult() {
        DigestAuthentication digest = new DigestAuthentication(SITE, null, "u", "p");
        assertNull(digest.authenticate(null, null, new Challenge("Digest", null, Map.of("realm", "r"))), "no nonce");
        assertNull(digest.authenticate(null, null, new Challenge("Digest", null,
                Map.of("realm", "r", "nonce", "n", "algorithm", "SHA-1"))), "unknown algorithm");
        assertNull(digest.authenticate(null, null, new Challenge("Digest", null,
                Map.of("realm", "r", "nonce", "n", "qop", "auth-int"))), "auth-int only");
        assertNull(digest.authenticate(null, null, new Challenge("Digest", null,
                Map.of("realm", "r", "nonce", "n\r\nX-Injected: 1"))), "a nonce that would break the head");
        assertNotNull(digest.authenticate(null, null, new Challenge("Digest", null, Map.of("realm", "r", "nonce", "n"))),
                "RFC 2069: no qop, MD5");
    }

    @Test
    void userNamesBeyondAsciiAreEncodedAndUserhashHidesThem() {
        Request request = client.newRequest("http://www.example.org/");
        new DigestAuthentication(SITE, null, "Jäsøn Doe", "Secret, or not?")
                .authenticate(null, null, challenge("SHA-256")).apply(request);
        assertTrue(request.getHeaders().get("Authorization").startsWith("Digest username*=UTF-8''J%C3%A4s%C3%B8n%20Doe, "));

        Map<String, String> parameters = new LinkedHashMap<>(challenge("SHA-256").parameters());
        parameters.put("userhash", "true");
        Request hashed = client.newRequest("http://www.example.org/");
        new DigestAuthentication(SITE, null, "Mufasa", "Circle of Life")
                .authenticate(null, null, new Challenge("Digest", null, parameters)).apply(hashed);
        String value = hashed.getHeaders().get("Authorization");
        assertFalse(value.contains("Mufasa"), value);
        assertTrue(value.contains("userhash=true"), value);
    }

    @Test
    void basicIsUtf8Base64() {
        Request request = client.newRequest("http://www.example.org/");
        new BasicAuthentication(SITE, "WallyWorld", "test", "123\u00A3").authenticate(null, null, null).apply(request);
        assertEquals("Basic dGVzdDoxMjPCow==", request.getHeaders().get("Authorization"));
    }

    @Test
    void matchingTakesSchemeRealmAndPrefix() {
        BasicAuthentication basic = new BasicAuthentication(URI.create("http://h.example:8080/api"), "r", "u", "p");
        assertTrue(basic.matches("basic", URI.create("http://h.example:8080/api/x"), "r"));
        assertTrue(basic.matches("Basic", URI.create("http://H.example:8080/api"), "r"));
        assertFalse(basic.matches("Basic", URI.create("http://h.example:8080/apix"), "r"));
        assertFalse(basic.matches("Basic", URI.create("http://h.example:8081/api/x"), "r"));
        assertFalse(basic.matches("Basic", URI.create("http://h.example:8080/api/x"), "other"));
        assertFalse(basic.matches("Digest", URI.create("http://h.example:8080/api/x"), "r"));
        assertTrue(new BasicAuthentication(URI.create("http://h.example"), null, "u", "p")
                .matches("Basic", URI.create("http://h.example:80/any/where"), "any realm"));
    }
}
