package io.wharf.client.auth;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

import io.wharf.client.Authentication;
import io.wharf.client.Challenge;
import io.wharf.client.Request;
import io.wharf.client.Response;
import io.wharf.http.HttpHeader;

/**
 * Digest authentication (RFC 7616): answers a challenge with a hash of the credentials, the
 * server's nonce, a fresh client nonce (cnonce) and a nonce count (nc), so that the password
 * never travels. Algorithms {@code MD5}, {@code SHA-256} and {@code SHA-512-256}, each also
 * in its {@code -sess} form; quality of protection {@code auth} (a challenge offering only
 * {@code auth-int} is not answered), or none for an RFC 2069 server; {@code userhash};
 * {@code username*} for user names beyond ASCII. A challenge with {@code stale=true} (the
 * nonce expired, the credentials were right) is answered once more with its new nonce.
 *
 * <p>A result kept for preemptive use keeps its nonce and counts it: each request it is
 * applied to gets the next nc and a new cnonce. When the server no longer accepts the nonce
 * it answers 401 (usually {@code stale=true}) and the client answers that challenge.
 *
 * <p><b>Threads.</b> Immutable; a result may be applied from several threads at once (the
 * nonce count is atomic). Hashing allocates a {@link MessageDigest} per call.
 */
public final class DigestAuthentication extends AbstractAuthentication {

    private static final SecureRandom RANDOM = new SecureRandom();

    /** The algorithms of RFC 7616 section 6.1. */
    private enum Algorithm {
        MD5("MD5", "MD5", false),
        MD5_SESS("MD5-sess", "MD5", true),
        SHA_256("SHA-256", "SHA-256", false),
        SHA_256_SESS("SHA-256-sess", "SHA-256", true),
        SHA_512_256("SHA-512-256", "SHA-512/256", false),
        SHA_512_256_SESS("SHA-512-256-sess", "SHA-512/256", true);

        private final String token;
        private final String javaName;
        private final boolean session;

        Algorithm(String token, String javaName, boolean session) {
            this.token = token;
            this.javaName = javaName;
            this.session = session;
        }

        /** @return the algorithm a challenge names (MD5 when it names none), or null when unknown */
        static Algorithm of(String name) {
            if (name == null) {
                return MD5;
            }
            for (Algorithm algorithm : values()) {
                if (algorithm.token.equalsIgnoreCase(name)) {
                    return algorithm;
                }
            }
            return null;
        }

        String hash(String text) {
            try {
                MessageDigest digest = MessageDigest.getInstance(javaName);
                return HexFormat.of().formatHex(digest.digest(text.getBytes(StandardCharsets.UTF_8)));
            } catch (NoSuchAlgorithmException x) {
                throw new IllegalStateException("the JDK has no " + javaName, x);
            }
        }
    }

    private final String user;
    private final String password;
    private final Supplier<String> cnonces;

    /**
     * @param uri the URI prefix the credentials are for
     * @param realm the realm, or {@link #ANY_REALM}
     * @param user the user name
     * @param password the password
     */
    public DigestAuthentication(URI uri, String realm, String user, String password) {
        this(uri, realm, user, password, DigestAuthentication::randomNonce);
    }

    /** @param cnonces where client nonces come from: random ones, or fixed ones for tests */
    DigestAuthentication(URI uri, String realm, String user, String password, Supplier<String> cnonces) {
        super("Digest", uri, realm);
        this.user = Objects.requireNonNull(user, "user");
        this.password = Objects.requireNonNull(password, "password");
        this.cnonces = cnonces;
    }

    private static String randomNonce() {
        byte[] random = new byte[16];
        RANDOM.nextBytes(random);
        return HexFormat.of().formatHex(random);
    }

    @Override
    public Authentication.Result authenticate(Request request, Response response, Challenge challenge) {
        String nonce = challenge.parameter("nonce");
        String realm = challenge.realm();
        String opaque = challenge.parameter("opaque");
        Algorithm algorithm = Algorithm.of(challenge.parameter("algorithm"));
        if (nonce == null || realm == null || algorithm == null) {
            return null;
        }
        if (hasControl(nonce) || hasControl(realm) || opaque != null && hasControl(opaque)) {
            // Echoed back in the request head: a hostile challenge must not inject a line.
            return null;
        }
        String qop = null;
        String offered = challenge.parameter("qop");
        if (offered != null) {
            for (String option : offered.split(",")) {
                if (option.strip().equalsIgnoreCase("auth")) {
                    qop = "auth";
                }
            }
            if (qop == null) {
                return null;
            }
        }
        boolean userhash = "true".equalsIgnoreCase(challenge.parameter("userhash"));
        String credentialsHash = algorithm.hash(user + ":" + realm + ":" + password);
        return new DigestResult(getURI(), algorithm, realm, nonce, opaque, qop, identity(algorithm, realm, userhash),
                credentialsHash, cnonces);
    }

    /** @return the username parameter(s): hashed, quoted, or RFC 8187 encoded */
    private String identity(Algorithm algorithm, String realm, boolean userhash) {
        if (userhash) {
            return "username=" + quote(algorithm.hash(user + ":" + realm)) + ", userhash=true";
        }
        for (int i = 0; i < user.length(); i++) {
            if (user.charAt(i) >= 0x7F || user.charAt(i) < 0x20) {
                return "username*=UTF-8''" + encodeExtended(user);
            }
        }
        return "username=" + quote(user);
    }

    private static boolean hasControl(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7F) {
                return true;
            }
        }
        return false;
    }

    private static String quote(String text) {
        StringBuilder quoted = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '"' || c == '\\') {
                quoted.append('\\');
            }
            quoted.append(c);
        }
        return quoted.append('"').toString();
    }

    /** RFC 8187 ext-value bytes: attr-char kept, everything else percent-encoded. */
    private static String encodeExtended(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || "!#$&+-.^_`|~".indexOf(c) >= 0) {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(HexFormat.of().withUpperCase().toHexDigits((byte) c));
            }
        }
        return encoded.toString();
    }

    /** A nonce and what it takes to answer requests with it; counts its uses. */
    private static final class DigestResult implements Authentication.Result {
        private final URI uri;
        private final Algorithm algorithm;
        private final String realm;
        private final String nonce;
        private final String opaque;
        private final String qop;
        private final String identity;
        private final String credentialsHash;
        private final Supplier<String> cnonces;
        private final AtomicInteger count = new AtomicInteger();

        DigestResult(URI uri, Algorithm algorithm, String realm, String nonce, String opaque, String qop,
                String identity, String credentialsHash, Supplier<String> cnonces) {
            this.uri = uri;
            this.algorithm = algorithm;
            this.realm = realm;
            this.nonce = nonce;
            this.opaque = opaque;
            this.qop = qop;
            this.identity = identity;
            this.credentialsHash = credentialsHash;
            this.cnonces = cnonces;
        }

        @Override
        public URI getURI() {
            return uri;
        }

        @Override
        public void apply(Request request) {
            String target = request.getPath() + (request.getQuery() == null ? "" : "?" + request.getQuery());
            String nc = String.format(Locale.ROOT, "%08x", count.incrementAndGet());
            String cnonce = cnonces.get();
            String ha1 = algorithm.session ? algorithm.hash(credentialsHash + ":" + nonce + ":" + cnonce) : credentialsHash;
            String ha2 = algorithm.hash(request.getMethod() + ":" + target);
            String digest = qop == null
                    ? algorithm.hash(ha1 + ":" + nonce + ":" + ha2)
                    : algorithm.hash(ha1 + ":" + nonce + ":" + nc + ":" + cnonce + ":" + qop + ":" + ha2);
            StringBuilder value = new StringBuilder(256).append("Digest ").append(identity)
                    .append(", realm=").append(quote(realm))
                    .append(", nonce=").append(quote(nonce))
                    .append(", uri=").append(quote(target))
                    .append(", algorithm=").append(algorithm.token)
                    .append(", response=").append(quote(digest));
            if (qop != null) {
                value.append(", qop=").append(qop).append(", nc=").append(nc).append(", cnonce=").append(quote(cnonce));
            }
            if (opaque != null) {
                value.append(", opaque=").append(quote(opaque));
            }
            request.putHeader(HttpHeader.AUTHORIZATION.asString(), value.toString());
        }

        @Override
        public String toString() {
            return "DigestResult[" + uri + ", " + algorithm.token + ", realm=" + realm + ", nc=" + count.get() + "]";
        }
    }
}
