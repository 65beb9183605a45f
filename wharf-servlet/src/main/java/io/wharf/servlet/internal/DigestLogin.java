package io.wharf.servlet.internal;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
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
 * password without sending it, against a nonce this server made. Nonces live a set time
 * ({@link #DEFAULT_NONCE_LIFETIME} by default) and at most {@link #MAX_NONCES} are kept (the
 * oldest go first); each nonce's count must grow, so a captured request cannot be replayed. A
 * right answer to one of our nonces that has expired is challenged again with {@code stale=true}
 * (section 3.3), so the client retries with the new nonce without asking its user again. The
 * login service must be able to give the digest secret ({@link LoginService#digestSecret}).
 *
 * <p><b>Threads.</b> Any request thread; the nonce table is synchronized.
 */
final class DigestLogin implements Authenticator {

    static final Duration DEFAULT_NONCE_LIFETIME = Duration.ofSeconds(60);
    static final int MAX_NONCES = 10_000;

    private final LoginService users;
    private final String realm;
    private final SecureRandom random = new SecureRandom();
    private final String opaque;
    private final long nonceMillis;
    private final Map<String, long[]> nonces = new LinkedHashMap<>(16, 0.75f, false) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, long[]> eldest) {
            return size() > MAX_NONCES;
        }
    };

    /** What an answer's nonce is. */
    private enum NonceState {
        /** Ours, alive, and its count grew: counted now. */
        FRESH,
        /** Ours, but expired: a right answer to it is challenged with {@code stale=true}. */
        STALE,
        /** Not ours (or forgotten), or a count used before. */
        REFUSED
    }

    DigestLogin(LoginService users, String realm, Duration nonceLifetime) {
        this.users = users;
        this.realm = realm;
        this.opaque = newToken();
        this.nonceMillis = nonceLifetime.toMillis();
    }

    @Override
    public String authType() {
        return "DIGEST";
    }

    @Override
    public AuthenticatedUser authenticate(ServletExchange exchange) {
        Map<String, String> fields = credentials(exchange);
        // The count is taken only for a right answer (then again under the table's lock, so two
        // requests with one count cannot both pass): a wrong one, from whoever learned the nonce,
        // must not use up the counts of the client it was made for.
        if (fields == null || nonceState(fields.get("nonce"), fields.get("nc"), false) != NonceState.FRESH || !rightAnswer(exchange, fields)
                || nonceState(fields.get("nonce"), fields.get("nc"), true) != NonceState.FRESH) {
            return null;
        }
        return users.user(fields.get("username"));
    }

    /**
     * @return the fields of the request's Digest credentials when they are well formed for this
     *     realm and this request's target, or null
     */
    private Map<String, String> credentials(ServletExchange exchange) {
        AuthField credentials = AuthField.first(exchange.request().core().getHeaders().getValuesList(HttpHeader.AUTHORIZATION), "Digest");
        if (credentials == null) {
            return null;
        }
        Map<String, String> fields = credentials.parameters();
        String target = exchange.request().core().getHttpURI().getPathQuery();
        if (fields.get("username") == null || fields.get("nonce") == null || javaAlgorithm(fields) == null
                || !realm.equals(fields.get("realm")) || !"auth".equals(fields.get("qop")) || !target.equals(fields.get("uri"))) {
            return null;
        }
        return fields;
    }

    private static String javaAlgorithm(Map<String, String> fields) {
        return switch (fields.getOrDefault("algorithm", "MD5")) {
            case "MD5" -> "MD5";
            case "SHA-256" -> "SHA-256";
            default -> null;
        };
    }

    /** @return whether the response field is the digest of the user's secret with the nonce, count and request */
    private boolean rightAnswer(ServletExchange exchange, Map<String, String> fields) {
        String javaAlgorithm = javaAlgorithm(fields);
        String secret = users.digestSecret(fields.get("username"), realm, javaAlgorithm);
        if (secret == null) {
            return false;
        }
        String method = exchange.request().getMethod();
        String expected = hash(javaAlgorithm, secret + ":" + fields.get("nonce") + ":" + fields.get("nc") + ":" + fields.get("cnonce")
            + ":auth:" + hash(javaAlgorithm, method + ":" + fields.get("uri")));
        String given = fields.get("response");
        return given != null && MessageDigest.isEqual(expected.getBytes(StandardCharsets.US_ASCII),
            given.toLowerCase(java.util.Locale.ROOT).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * @param count the answer's nonce count, in hex
     * @param use   whether a fresh nonce's count is taken now (authentication) or only looked at (the challenge)
     */
    private NonceState nonceState(String nonce, String count, boolean use) {
        long value;
        try {
            value = Long.parseLong(count, 16);
        } catch (NumberFormatException | NullPointerException x) {
            return NonceState.REFUSED;
        }
        synchronized (nonces) {
            long[] entry = nonces.get(nonce);
            if (entry == null) {
                return NonceState.REFUSED;
            }
            if (System.currentTimeMillis() - entry[0] > nonceMillis) {
                return NonceState.STALE;
            }
            if (value <= entry[1]) {
                return NonceState.REFUSED;
            }
            if (use) {
                entry[1] = value;
            }
            return NonceState.FRESH;
        }
    }

    @Override
    public void challenge(ServletExchange exchange) throws IOException {
        Map<String, String> fields = credentials(exchange);
        // Section 3.3: stale only for a right answer to an expired nonce of ours, so a wrong password is asked again.
        boolean stale = fields != null && nonceState(fields.get("nonce"), fields.get("nc"), false) == NonceState.STALE
            && rightAnswer(exchange, fields);
        String nonce = newToken();
        synchronized (nonces) {
            nonces.put(nonce, new long[] {System.currentTimeMillis(), 0});
        }
        HttpServletResponse response = exchange.response();
        for (String algorithm : new String[] {"SHA-256", "MD5"}) {
            response.addHeader(HttpHeader.WWW_AUTHENTICATE.asString(), "Digest realm=\"" + BasicLogin.quoted(realm)
                + "\", qop=\"auth\", algorithm=" + algorithm + ", nonce=\"" + nonce + "\", opaque=\"" + opaque + "\""
                + (stale ? ", stale=true" : ""));
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
