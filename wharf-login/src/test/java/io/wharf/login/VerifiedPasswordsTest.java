package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/** What is remembered, for how long, for how many, and that a remembered answer is never a wrong one. */
class VerifiedPasswordsTest {

    /** One Argon2id hash for the whole class: each costs tens of milliseconds. */
    private static final PasswordHash SECRET = PasswordHash.create("secret");

    @Test
    void remembersOnlyRightPasswordsOfTheSameUserAndHash() {
        VerifiedPasswords verified = new VerifiedPasswords();
        assertFalse(verified.check("ann", SECRET, "wrong"));
        assertEquals(0, verified.size(), "a wrong password is never remembered");
        assertTrue(verified.check("ann", SECRET, "secret"));
        assertTrue(verified.check("ann", SECRET, "secret"));
        assertEquals(1, verified.hits());
        assertFalse(verified.check("ann", SECRET, "secret!"), "another password misses and is checked");
        assertTrue(verified.check("bob", SECRET, "secret"), "another name is checked, even with the same hash");
        assertEquals(1, verified.hits());
        PasswordHash other = PasswordHash.create("secret");
        assertTrue(verified.check("ann", other, "secret"), "a new hash of the user is checked afresh");
        assertEquals(1, verified.hits());
    }

    @Test
    void forgetsAfterItsLifetime() throws InterruptedException {
        VerifiedPasswords verified = new VerifiedPasswords();
        verified.setLifetime(Duration.ofMillis(20));
        assertTrue(verified.check("ann", SECRET, "secret"));
        Thread.sleep(50);
        assertTrue(verified.check("ann", SECRET, "secret"));
        assertEquals(0, verified.hits(), "the entry had expired");
        verified.setLifetime(Duration.ZERO);
        assertEquals(0, verified.size(), "a zero lifetime forgets everything at once");
    }

    @Test
    void remembersAtMostItsCapacity() {
        VerifiedPasswords verified = new VerifiedPasswords(2);
        verified.setLifetime(Duration.ofHours(1));
        verified.check("ann", SECRET, "secret");
        verified.check("bob", SECRET, "secret");
        assertTrue(verified.check("carol", SECRET, "secret"));
        assertEquals(2, verified.size(), "no room for a third");
        assertTrue(verified.check("carol", SECRET, "secret"));
        assertEquals(0, verified.hits(), "carol was not remembered");
        assertTrue(verified.check("ann", SECRET, "secret"));
        assertEquals(1, verified.hits(), "ann still is");
    }

    @Test
    void expiredEntriesMakeRoom() throws InterruptedException {
        VerifiedPasswords verified = new VerifiedPasswords(2);
        verified.setLifetime(Duration.ofMillis(1));
        verified.check("ann", SECRET, "secret");
        verified.check("bob", SECRET, "secret");
        assertEquals(2, verified.size(), "expired entries stay until room is needed");
        Thread.sleep(10);
        assertTrue(verified.check("carol", SECRET, "secret"));
        assertEquals(1, verified.size(), "the expired entries made room for carol");
    }

    @Test
    void manyThreadsNeverGetAWrongPasswordAccepted() throws Exception {
        VerifiedPasswords verified = new VerifiedPasswords();
        verified.check("ann", SECRET, "secret");
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                int thread = t;
                results.add(threads.submit(() -> {
                    int accepted = 0;
                    for (int i = 0; i < 10_000; i++) {
                        // Four tries of each thread are wrong: they pay the hash, and must fail.
                        boolean wrong = i % 2500 == thread;
                        if (verified.check("ann", SECRET, wrong ? "secret" + i : "secret")) {
                            if (wrong) {
                                throw new AssertionError("a wrong password was accepted");
                            }
                            accepted++;
                        }
                    }
                    return accepted;
                }));
            }
            for (Future<Integer> result : results) {
                assertEquals(10_000 - 4, result.get(2, TimeUnit.MINUTES));
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
