package io.wharf.servlet.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.http.HttpServletResponse;

import io.wharf.http.AuthField;
import io.wharf.http.HttpHeader;
import io.wharf.servlet.security.AuthenticatedUser;
import io.wharf.servlet.security.LoginService;

/**
 * DIGEST login (RFC 7616, {@code qop=auth}, SHA-256 or MD5): the client proves it knows the
 * password without sending it, against a nonce this server made. Nonces live
 * {@link #NONCE_MILLIS} and at most {@link #MAX_NONCES} are kept (the oldest go first); each
 * nonce's count must grow, so a captured request cannot be replayed. The login service must be
 * able to give the digest secret ({@link LoginService#digestSecret}).
 *
 * <p><b>Threads.</b> Any request thread; the nonce table is synchronized.
 */
final class DigestLogin implements Authenticator {

    static final long NONCE_MILLIS = 60_000;
    static final int MAX_NONCES = 10_000;

    private final LoginService users;
    private final String realm;
    private final SecureRandom random = new SecureRandom();
    private final String opaque;
    private final Map<String, long[]> nonces = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, long[]> eldest) {
            return size() > MAX_NONCES;
        }
    };

    DigestLogin(LoginService users, String realm) {
        this.users = users;
        this.realm = realm;
        this.opaque = newToken();
    }

    @Override
    public String authType() {
        return "DIGEST";
    }

    @Override
    public AuthenticatedUser authenticate(ServletExchange exchange) {
        AuthField credentials = AuthField.first(exchange.request().core().getHeaders().getValuesList(HttpHeader.AUTHORIZATION), "Digest");
        if (credentials == null) {
            return null;
        }
        Map<String, String> fields = credentials.parameters();
        String username = fields.get("username");
        String nonce = fields.get("nonce");
        String algorithm = fields.getOrDefault("algorithm", "MD5");
        String javaAlgorithm = switch (algorithm) {
            case "MD5" -> "MD5";
            case "SHA-256" -> "SHA-256";
            default -> null;
        };
        String target = exchange.request().core().getHttpURI().getPathQuery();
        if (username == null || nonce == null || javaAlgorithm == null || !realm.equals(fields.get("realm"))
                || !"auth".equals(fields.get("qop")) || !target.equals(fields.get("uri")) || !freshCount(nonce, fields.get("nc"))) {
            return null;
        }
        String secret = users.digestSecret(username, realm, javaAlgorithm);
        if (secret == null) {
            return null;
        }
        String method = exchange.request().getMethod();
        String expected = hash(javaAlgorithm, secret + ":" + nonce + ":" + fields.get("nc") + ":" + fields.get("cnonce") + ":auth:"
            + hash(javaAlgorithm, method + ":" + fields.get("uri")));
        String given = fields.get("response");
        if (given == null || !MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
                given.toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII))) {
            return null;
        }
        return users.user(username);
    }

    /** @return whether the nonce is ours, alive, and {@code count} is above every count used with it before */
    private boolean freshCount(String nonce, String count) {
        long value;
        try {
            value = Long.parseLong(count, 16);
        } catch (NumberFormatException | NullPointerException x) {
            return false;
        }
        synchronized (nonces) {
            long[] entry = nonces.get(nonce);
            if (entry == null || System.currentTimeMillis() - entry[0] > NONCE_MILLIS || value <= entry[1]) {
                return false;
            }
            entry[1] = value;
            return true;
        }
    }

    @Override
    public void challenge(ServletExchange exchange) throws IOException {
        String nonce = newToken();
        synchronized (nonces) {
            nonces.put(nonce, new long[] {System.currentTimeMillis(), 0});
        }
        HttpServletResponse response = exchange.response();
        for (String algorithm : new String[] {"SHA-256", "MD5"}) {
            response.addHeader(HttpHeader.WWW_AUTHENTICATE.asString(), "Digest realm=\"" + BasicLogin.quoted(realm)
                + "\", qop=\"auth\", algorithm=" + algorithm + ", nonce=\"" + nonce + "\", opaque=\"" + opaque + "\"");
        }
        response.sendError(HttpServletResponse.SC_UNAUTHORIZED);
    }

    private String newToken() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }

    private static String hash(String algorithm, String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance(algorithm).digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException x) {
            throw new IllegalStateException(algorithm + " is missing from this JVM", x);
        }
    }
}
