package io.wharf.login;

import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.security.crypto.argon2.Argon2PasswordEncoder;
import org.springframework.security.crypto.bcrypt.BCryptPasswordEncoder;

/**
 * A password kept as a one-way hash: an Argon2id hash in the PHC string format
 * ({@code $argon2id$v=19$m=19456,t=2,p=1$salt$hash}), which {@link #create(String)} makes, or a
 * BCrypt hash ({@code $2a$}, {@code $2b$}, {@code $2y$}) made by another tool ({@code htpasswd
 * -B}, Spring, Python's bcrypt). Spring Security's crypto module does the hashing and the
 * constant-time comparison, on Bouncy Castle's Argon2.
 *
 * <p>{@link #of(String)} refuses a string that is neither, and a hash whose cost is beyond what a
 * server can afford on each login (Argon2id above {@value #MAX_MEMORY_KIB} KiB, {@value #MAX_PASSES}
 * passes or {@value #MAX_LANES} lanes; BCrypt above cost {@value #MAX_BCRYPT_COST}): a line in a
 * file or a row in a table must not be able to make one login take a minute or a gigabyte.
 *
 * <p>Immutable; any thread may check a password. The login services call {@link #matches} on
 * request threads; {@link PasswordLineCommand} calls {@link #create} from the command line.
 */
public final class PasswordHash {

    /** Memory of the Argon2id hashes {@link #create} makes, in KiB: OWASP's first recommended setting (19 MiB, 2 passes, 1 lane). */
    public static final int MEMORY_KIB = 19 * 1024;
    /** Passes of the Argon2id hashes {@link #create} makes. */
    public static final int PASSES = 2;
    /** Lanes of the Argon2id hashes {@link #create} makes. */
    public static final int LANES = 1;

    static final int MAX_MEMORY_KIB = 256 * 1024;
    static final int MAX_PASSES = 16;
    static final int MAX_LANES = 16;
    static final int MAX_BCRYPT_COST = 16;

    private static final int SALT_BYTES = 16;
    private static final int HASH_BYTES = 32;

    /** The PHC string of Argon2id, version 19 (0x13), salt and hash in unpadded standard Base64. */
    private static final Pattern ARGON2ID = Pattern.compile(
        "\\$argon2id\\$v=19\\$m=(\\d{1,10}),t=(\\d{1,10}),p=(\\d{1,10})\\$[A-Za-z0-9+/]{11,88}\\$[A-Za-z0-9+/]{22,88}");
    /** BCrypt's modular crypt format: version, two-digit cost, 22 characters of salt and 31 of hash. */
    private static final Pattern BCRYPT = Pattern.compile("\\$2[aby]\\$(\\d\\d)\\$[./A-Za-z0-9]{53}");

    private static final Argon2PasswordEncoder ARGON2 = new Argon2PasswordEncoder(SALT_BYTES, HASH_BYTES, LANES, MEMORY_KIB, PASSES);
    private static final BCryptPasswordEncoder BCRYPT_ENCODER = new BCryptPasswordEncoder();

    /** The algorithm of a hash. */
    public enum Algorithm {
        /** Argon2id (RFC 9106), the one {@link #create} uses. */
        ARGON2ID,
        /** BCrypt, checked for hashes made elsewhere. */
        BCRYPT
    }

    private final String encoded;
    private final Algorithm algorithm;

    private PasswordHash(String encoded, Algorithm algorithm) {
        this.encoded = encoded;
        this.algorithm = algorithm;
    }

    /**
     * Hashes a password with Argon2id, a new random salt and this class's settings.
     *
     * @return the hash, whose {@link #encoded()} form goes into a password file or a table
     */
    public static PasswordHash create(String password) {
        Objects.requireNonNull(password, "password");
        return new PasswordHash(ARGON2.encode(password), Algorithm.ARGON2ID);
    }

    /** @return the encoded Argon2id hash of {@code password}: {@code create(password).encoded()} */
    public static String hash(String password) {
        return create(password).encoded();
    }

    /**
     * Reads an encoded hash.
     *
     * @throws IllegalArgumentException saying why, when it is neither an Argon2id nor a BCrypt hash,
     *     or its cost is beyond the limits
     */
    public static PasswordHash of(String encoded) {
        Objects.requireNonNull(encoded, "encoded");
        Matcher argon2 = ARGON2ID.matcher(encoded);
        if (argon2.matches()) {
            long memory = Long.parseLong(argon2.group(1));
            long passes = Long.parseLong(argon2.group(2));
            long lanes = Long.parseLong(argon2.group(3));
            if (lanes < 1 || lanes > MAX_LANES || passes < 1 || passes > MAX_PASSES || memory < 8 * lanes || memory > MAX_MEMORY_KIB) {
                throw new IllegalArgumentException("the Argon2id cost m=" + memory + ",t=" + passes + ",p=" + lanes
                    + " is beyond the limits (m from 8 per lane to " + MAX_MEMORY_KIB + " KiB, t up to " + MAX_PASSES
                    + ", p up to " + MAX_LANES + ")");
            }
            return new PasswordHash(encoded, Algorithm.ARGON2ID);
        }
        Matcher bcrypt = BCRYPT.matcher(encoded);
        if (bcrypt.matches()) {
            int cost = Integer.parseInt(bcrypt.group(1));
            if (cost < 4 || cost > MAX_BCRYPT_COST) {
                throw new IllegalArgumentException("the BCrypt cost " + cost + " is beyond the limits (4 to " + MAX_BCRYPT_COST + ")");
            }
            return new PasswordHash(encoded, Algorithm.BCRYPT);
        }
        if (encoded.startsWith("$argon2")) {
            throw new IllegalArgumentException("not an Argon2id hash of version 19 in the PHC string format"
                + " ($argon2id$v=19$m=...,t=...,p=...$salt$hash)");
        }
        throw new IllegalArgumentException("not an Argon2id ($argon2id$...) or BCrypt ($2a$, $2b$, $2y$) hash");
    }

    /** @return whether {@code password} is the one this hash was made of; in time that does not depend on where they differ */
    public boolean matches(String password) {
        if (password == null) {
            return false;
        }
        return switch (algorithm) {
            case ARGON2ID -> ARGON2.matches(password, encoded);
            case BCRYPT -> BCRYPT_ENCODER.matches(password, encoded);
        };
    }

    /** @return the hash as stored, in the PHC or modular crypt format */
    public String encoded() {
        return encoded;
    }

    public Algorithm algorithm() {
        return algorithm;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PasswordHash that && encoded.equals(that.encoded);
    }

    @Override
    public int hashCode() {
        return encoded.hashCode();
    }

    /** @return the algorithm only: the hash itself stays out of logs */
    @Override
    public String toString() {
        return "PasswordHash{" + algorithm + "}";
    }
}
