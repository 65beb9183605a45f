package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import io.wharf.servlet.security.AuthenticatedUser;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Logins against a password file, unknown users in the time of a wrong password, and reloading. */
class PasswordFileLoginServiceTest {

    private static final String ANN = "ann:" + PasswordFileTest.ANN + ":admin,user";
    private static final String CAROL = "carol:" + PasswordHashTest.HTPASSWD_BCRYPT + ":user";

    @TempDir
    Path directory;

    private Path file;

    private PasswordFileLoginService service(String... lines) throws IOException {
        file = directory.resolve("users.txt");
        Files.write(file, List.of(lines));
        return new PasswordFileLoginService("Staff", file);
    }

    /** Writes a new version of the file as an administrator should: beside it, then moved over it. */
    private void replace(String... lines) throws IOException {
        Path next = Files.write(directory.resolve("users.txt.new"), List.of(lines));
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    @Test
    void logsInKnownUsersWithTheirRoles() throws IOException {
        PasswordFileLoginService users = service("# staff", ANN, CAROL);
        assertEquals("Staff", users.getName());
        AuthenticatedUser ann = users.login("ann", "secret");
        assertEquals("ann", ann.getName());
        assertEquals(Set.of("admin", "user"), ann.roles());
        assertEquals(Set.of("user"), users.login("carol", "U*U pass").roles(), "a BCrypt line logs in too");
        assertNull(users.login("ann", "Secret"));
        assertNull(users.login("ann", null));
        assertNull(users.login("nobody", "secret"));
        assertNull(users.login(null, "secret"));
        assertEquals(Set.of("admin", "user"), users.user("ann").roles(), "CLIENT-CERT asks by name, without a password");
        assertNull(users.user("nobody"));
        assertNull(users.digestSecret("ann", "Staff", "SHA-256"), "one-way hashes cannot answer DIGEST");
    }

    @Test
    void aBadFileFailsAtTheStart() throws IOException {
        Path bad = Files.write(directory.resolve("bad.txt"), List.of(ANN, "bob:hunter2:user"));
        IOException failure = assertThrows(IOException.class, () -> new PasswordFileLoginService("Staff", bad));
        assertEquals(bad + ":2: the password hash of 'bob': not an Argon2id ($argon2id$...) or BCrypt ($2a$, $2b$, $2y$) hash",
            failure.getMessage());
    }

    /**
     * An unknown name is checked against a dummy hash: without it, the answer would come in
     * microseconds instead of the tens of milliseconds of an Argon2id check, and tell who exists.
     * Timing on a shared machine only ever slows a run down, so the fastest of a few is compared.
     */
    @Test
    void anUnknownUserTakesAsLongAsAWrongPassword() throws IOException {
        PasswordFileLoginService users = service(ANN);
        users.login("nobody", "warm-up");
        long wrongPassword = fastest(() -> users.login("ann", "wrong"));
        long unknownUser = fastest(() -> users.login("nobody", "wrong"));
        assertTrue(unknownUser > wrongPassword / 3, "unknown user " + unknownUser / 1000 + " µs, wrong password " + wrongPassword / 1000 + " µs");
    }

    private static long fastest(Runnable login) {
        long fastest = Long.MAX_VALUE;
        for (int i = 0; i < 3; i++) {
            long start = System.nanoTime();
            login.run();
            fastest = Math.min(fastest, System.nanoTime() - start);
        }
        return fastest;
    }

    @Test
    void aPasswordFoundRightIsRememberedUntilItsHashChanges() throws IOException {
        PasswordFileLoginService users = service(ANN);
        users.setReloadInterval(Duration.ZERO);
        assertEquals(Duration.ofMinutes(5), users.getVerifiedPasswordLifetime());
        assertEquals("ann", users.login("ann", "secret").getName());
        assertEquals(0, users.verified.hits());
        assertEquals(Set.of("admin", "user"), users.login("ann", "secret").roles(), "BASIC's next request");
        assertEquals(1, users.verified.hits(), "the second login skipped the slow hash");
        assertNull(users.login("ann", "Secret"), "a wrong password is still wrong");
        assertEquals(1, users.verified.hits());

        replace("ann:" + PasswordHash.hash("changed") + ":user");
        assertNull(users.login("ann", "secret"), "the remembered password is not the new hash's");
        assertEquals(Set.of("user"), users.login("ann", "changed").roles());
        assertEquals(1, users.verified.hits());

        users.setVerifiedPasswordLifetime(Duration.ZERO);
        users.login("ann", "changed");
        users.login("ann", "changed");
        assertEquals(1, users.verified.hits(), "nothing remembered when the lifetime is zero");
        assertThrows(IllegalArgumentException.class, () -> users.setVerifiedPasswordLifetime(Duration.ofSeconds(-1)));
    }

    @Test
    void reloadsTheFileWhenItChangesAndKeepsTheOldUsersWhenTheNewFileIsBad() throws IOException {
        PasswordFileLoginService users = service(ANN);
        users.setReloadInterval(Duration.ZERO);
        assertNull(users.login("carol", "U*U pass"));

        replace(ANN, CAROL);
        assertEquals("carol", users.login("carol", "U*U pass").getName(), "a login looks at the file and finds the new user");

        replace(CAROL, "ann:" + PasswordFileTest.ANN + ":admin,,user");
        assertEquals("ann", users.login("ann", "secret").getName(), "a bad new file keeps the users of before");
        assertFalse(users.reloadIfChanged(), "the bad version is not read again");

        replace(CAROL);
        assertNull(users.login("ann", "secret"), "a good file again replaces them");
        assertTrue(users.login("carol", "U*U pass") != null);

        Files.delete(file);
        assertEquals("carol", users.login("carol", "U*U pass").getName(), "a missing file keeps the users");
    }

    @Test
    void looksAtTheFileAtMostOnceAnInterval() throws IOException {
        PasswordFileLoginService users = service(ANN);
        users.setReloadInterval(Duration.ofHours(1));
        assertEquals(Duration.ofHours(1), users.getReloadInterval());
        replace(ANN, CAROL);
        assertNull(users.login("carol", "U*U pass"), "not looked at before the interval is over");
        assertTrue(users.reloadIfChanged(), "a caller's own timer may look at any time");
        assertEquals("carol", users.login("carol", "U*U pass").getName());
        assertThrows(IllegalArgumentException.class, () -> users.setReloadInterval(Duration.ofSeconds(-1)));
    }
}
