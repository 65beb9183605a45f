package io.wharf.tests.servlet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Security with DIGEST login (Servlet 6.1 §13.6.2, RFC 7616 with {@code qop=auth}) compared
 * between the containers, on the constraints of {@link SecurityApplication}: the challenge (its
 * realm, and which parameters each container sends, without their random values), then
 * responses the test computes for each peer's own nonce — SHA-256, which all three offer, and
 * MD5, which Jetty does not, in one test of its own — the right password,
 * a wrong one, a user without the role, a replayed nonce count, a nonce the server never made,
 * a digest of another URI — and who the servlet sees ({@code getAuthType},
 * {@code getRemoteUser}, {@code isUserInRole}).
 */
class ServletSecurityDigestTest {

    @RegisterExtension
    static final Differential containers = Differential.of("/ctx", new SecurityApplication(), Deployment.NONE
        .withLogin(Login.digest(SecurityApplication.REALM, SecurityApplication.USERS), SecurityApplication.CONSTRAINTS));

    /** Also compared: the challenges by scheme and realm, and the parameters they carry. */
    private static final Compared COMPARED = Compared.ALL.andHeaders("WWW-Authenticate")
        .andDerived("Digest parameters", ServletSecurityDigestTest::parameters);

    private static final String CNONCE = "0a4f113b";

    /** A challenge's parameter, its value quoted or a token. */
    private static final Pattern PARAMETER = Pattern.compile("([A-Za-z0-9_-]+)\\s*=\\s*(\"(?:[^\"\\\\]|\\\\.)*\"|[^,\\s]*)");

    /** Parameters whose value is the same on every request, so compared; the others (nonce, opaque, domain) are compared by name. */
    private static final List<String> FIXED = List.of("algorithm", "qop", "stale", "charset", "userhash");

    @Test
    void challenge() {
        containers.check(Differential.request("GET", "/ctx/user/x?challenge"), COMPARED);
    }

    @Test
    void md5() {
        containers.steps(COMPARED, challenge("/ctx/admin/x?challenge"),
            digest("GET", "/ctx/admin/x?md5", "MD5", "ann", "secret", 1));
    }

    @Test
    void sha256() {
        containers.steps(COMPARED, challenge("/ctx/admin/x?challenge"),
            digest("GET", "/ctx/admin/x?sha-256", "SHA-256", "ann", "secret", 1));
    }

    @Test
    void wrongPasswordUnknownUserAndAUserWithoutTheRole() {
        containers.steps(COMPARED, challenge("/ctx/admin/x?challenge"),
            digest("GET", "/ctx/admin/x?wrong", "SHA-256", "ann", "wrong", 1),
            digest("GET", "/ctx/admin/x?unknown", "SHA-256", "eve", "secret", 2),
            digest("GET", "/ctx/admin/x?bob", "SHA-256", "bob", "hunter2", 3),
            digest("GET", "/ctx/user/x?bob", "SHA-256", "bob", "hunter2", 4));
    }

    @Test
    void aReplayedNonceCountIsRefused() {
        containers.steps(COMPARED, challenge("/ctx/user/x?challenge"),
            digest("GET", "/ctx/user/x?first", "SHA-256", "cid", "plain", 1),
            digest("GET", "/ctx/user/x?replayed", "SHA-256", "cid", "plain", 1),
            digest("GET", "/ctx/user/x?next", "SHA-256", "cid", "plain", 2));
    }

    @Test
    void aNonceTheServerNeverMadeIsRefused() {
        containers.steps(COMPARED, challenge("/ctx/user/x?challenge"), earlier -> {
            Map<String, String> challenge = new LinkedHashMap<>(challenges(earlier.getFirst(), "SHA-256"));
            challenge.put("nonce", "bm90IGEgbm9uY2Ugb2YgdGhpcyBzZXJ2ZXI");
            return authorized("GET", "/ctx/user/x?unknown-nonce", "/ctx/user/x?unknown-nonce", challenge, "SHA-256", "ann", "secret", 1);
        });
    }

    @Test
    void aDigestOfAnotherUriIsRefused() {
        containers.steps(COMPARED, challenge("/ctx/user/x?challenge"), earlier -> authorized("GET", "/ctx/user/x?wrong-uri",
            "/ctx/user/other", challenges(earlier.getFirst(), "SHA-256"), "SHA-256", "ann", "secret", 1));
    }

    @Test
    void aPostWithItsBodyAndAnOpenPath() {
        containers.steps(COMPARED, challenge("/ctx/user/x?challenge"),
            earlier -> authorized("POST", "/ctx/post-admin/x?p=1", "/ctx/post-admin/x?p=1", challenges(earlier.getFirst(), "SHA-256"), "SHA-256",
                "ann", "secret", 1).replace("\n\n", "\nContent-Length: 0\n\n"),
            digest("GET", "/ctx/open/x?digest", "SHA-256", "ann", "secret", 2));
    }

    private static Differential.Step challenge(String target) {
        return earlier -> Differential.request("GET", target);
    }

    /** @return a step that answers the first step's challenge for {@code algorithm} with {@code user}'s digest, nonce count {@code count} */
    private static Differential.Step digest(String method, String target, String algorithm, String user, String password, int count) {
        return earlier -> authorized(method, target, target, challenges(earlier.getFirst(), algorithm), algorithm, user, password, count);
    }

    /**
     * @return a request of {@code target} with an Authorization field for {@code challenge}:
     *     RFC 7616 §3.4.1's response for {@code qop=auth}, the digest of {@code digestUri}, the
     *     opaque value returned when there is one (§3.3)
     */
    private static String authorized(String method, String target, String digestUri, Map<String, String> challenge, String algorithm,
            String user, String password, int count) {
        if (challenge.isEmpty()) {
            return Differential.request(method, target); // no challenge came: the request goes without credentials
        }
        String nc = String.format("%08x", count);
        String realm = challenge.get("realm");
        String nonce = challenge.get("nonce");
        String ha1 = hash(algorithm, user + ":" + realm + ":" + password);
        String ha2 = hash(algorithm, method + ":" + digestUri);
        String response = hash(algorithm, ha1 + ":" + nonce + ":" + nc + ":" + CNONCE + ":auth:" + ha2);
        StringBuilder field = new StringBuilder("Authorization: Digest username=\"" + user + "\", realm=\"" + realm + "\", nonce=\"" + nonce
            + "\", uri=\"" + digestUri + "\", algorithm=" + algorithm + ", response=\"" + response + "\", qop=auth, nc=" + nc
            + ", cnonce=\"" + CNONCE + "\"");
        if (challenge.containsKey("opaque")) {
            field.append(", opaque=\"").append(challenge.get("opaque")).append('"');
        }
        return Differential.request(method, target, field.toString());
    }

    private static String hash(String algorithm, String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException missing) {
            throw new IllegalStateException(missing);
        }
    }

    /**
     * @return the parameters of the Digest challenge of {@code response} for {@code algorithm}
     *     (none named is MD5, RFC 7616 §3.3), or of its first Digest challenge when none is for
     *     that algorithm; empty when there is no response or no Digest challenge
     */
    private static Map<String, String> challenges(RawResponse response, String algorithm) {
        List<Map<String, String>> all = digestChallenges(response);
        return all.stream().filter(challenge -> challenge.getOrDefault("algorithm", "MD5").equalsIgnoreCase(algorithm)).findFirst()
            .orElse(all.isEmpty() ? Map.of() : all.getFirst());
    }

    /** @return the parameters of each Digest challenge of {@code response}'s WWW-Authenticate fields, in order, values unquoted */
    private static List<Map<String, String>> digestChallenges(RawResponse response) {
        List<Map<String, String>> challenges = new ArrayList<>();
        if (response == null) {
            return challenges;
        }
        for (String value : response.headers().all("WWW-Authenticate")) {
            for (String challenge : value.split("(?i)(?:^|,)\\s*(?=digest\\s)")) {
                if (!challenge.regionMatches(true, 0, "digest ", 0, 7)) {
                    continue;
                }
                Map<String, String> parameters = new LinkedHashMap<>();
                Matcher parameter = PARAMETER.matcher(challenge.substring(7));
                while (parameter.find()) {
                    String text = parameter.group(2);
                    parameters.put(parameter.group(1).toLowerCase(Locale.ROOT),
                        text.startsWith("\"") ? text.substring(1, text.length() - 1).replaceAll("\\\\(.)", "$1") : text);
                }
                challenges.add(parameters);
            }
        }
        return challenges;
    }

    /**
     * @return what the Digest challenges of {@code response} say, one after another: the
     *     parameters in name order, with their values for those that do not change between
     *     requests ({@link #FIXED}), by name alone for the others
     */
    static String parameters(RawResponse response) {
        List<String> described = new ArrayList<>();
        for (Map<String, String> challenge : digestChallenges(response)) {
            List<String> parts = new ArrayList<>();
            new TreeMap<>(challenge).forEach((name, value) -> parts.add(FIXED.contains(name) ? name + "=" + value : name));
            described.add(String.join(" ", parts));
        }
        return described.isEmpty() ? Answer.NONE : String.join(" || ", described);
    }
}
