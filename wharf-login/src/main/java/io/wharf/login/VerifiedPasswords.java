package io.wharf.login;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The passwords a store checked against a user's slow hash and found right, remembered for a
 * while so that the next check of the same password skips the hash. BASIC login sends the
 * password with every request, and an Argon2id check costs tens of milliseconds: without this,
 * every request of a logged-in BASIC client pays it.
 *
 * <p>What is kept per user: the stored hash the password was checked against, an HMAC-SHA256 of
 * the name and password under a random key made for this object (never the password), and when
 * the entry expires. A check is a hit only while the entry lives, the user's stored hash is still
 * the same one (a changed password misses) and the HMACs are equal (compared in constant time).
 * Wrong passwords are never remembered: a guess always pays the slow hash. At most
 * {@link #DEFAULT_CAPACITY} users are remembered; when full, expired entries go first, and a
 * user who finds no room is simply not remembered.
 *
 * <p>Threads: request threads call {@link #check} concurrently; the entries are a concurrent map
 * and the settings volatile.
 */
final class VerifiedPasswords {

    /** How long a verified password is remembered unless set otherwise. */
    static final Duration DEFAULT_LIFETIME = Duration.ofMinutes(5);
    /** How many users are remembered at most. */
    static final int DEFAULT_CAPACITY = 10_000;

    private static final String MAC_ALGORITHM = "HmacSHA256";

    private record Entry(PasswordHash hash, byte[] mac, long expiresNanos) {
    }

    private final Map<String, Entry> entries = new ConcurrentHashMap<>();
    private final SecretKeySpec key;
    private final int capacity;
    private final LongAdder hits = new LongAdder();
    private volatile long lifetimeNanos = DEFAULT_LIFETIME.toNanos();

    VerifiedPasswords() {
        this(DEFAULT_CAPACITY);
    }

    VerifiedPasswords(int capacity) {
        byte[] secret = new byte[32];
        new SecureRandom().nextBytes(secret);
        this.key = new SecretKeySpec(secret, MAC_ALGORITHM);
        this.capacity = capacity;
    }

    /** @param lifetime how long a verified password is remembered; {@link Duration#ZERO} remembers none */
    void setLifetime(Duration lifetime) {
        if (lifetime.isNegative()) {
            throw new IllegalArgumentException("the lifetime of verified passwords is negative: " + lifetime);
        }
        lifetimeNanos = lifetime.toNanos();
        if (lifetimeNanos == 0) {
            entries.clear();
        }
    }

    Duration getLifetime() {
        return Duration.ofNanos(lifetimeNanos);
    }

    /**
     * @param username the user's name
     * @param hash     the user's stored hash now
     * @param password the password given
     * @return whether the password is the user's: remembered, or checked against {@code hash} now
     */
    boolean check(String username, PasswordHash hash, String password) {
        long lifetime = lifetimeNanos;
        if (lifetime == 0) {
            return hash.matches(password);
        }
        byte[] mac = mac(username, password);
        long now = System.nanoTime();
        Entry entry = entries.get(username);
        if (entry != null && now - entry.expiresNanos() < 0 && entry.hash().equals(hash) && MessageDigest.isEqual(entry.mac(), mac)) {
            hits.increment();
            return true;
        }
        if (!hash.matches(password)) {
            return false;
        }
        if (entries.size() >= capacity) {
            entries.values().removeIf(old -> now - old.expiresNanos() >= 0);
        }
        if (entries.size() < capacity || entries.containsKey(username)) {
            entries.put(username, new Entry(hash, mac, now + lifetime));
        }
        return true;
    }

    /** @return how many checks were answered from memory, for tests */
    long hits() {
        return hits.sum();
    }

    /** @return how many users are remembered now */
    int size() {
        return entries.size();
    }

    private byte[] mac(String username, String password) {
        try {
            Mac mac = Mac.getInstance(MAC_ALGORITHM);
            mac.init(key);
            mac.update(username.getBytes(StandardCharsets.UTF_8));
            // A separator no name holds (UserNames refuses control characters), so name and password cannot shift.
            mac.update((byte) 0);
            return mac.doFinal(password.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException x) {
            throw new IllegalStateException("the JDK offers no " + MAC_ALGORITHM + ": " + x.getMessage(), x);
        }
    }
}
