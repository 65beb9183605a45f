package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The password file's format: lines read, comments and blank lines skipped, bad lines named with their file and number. */
class PasswordFileTest {

    static final String ANN = PasswordHash.hash("secret");

    @TempDir
    Path directory;

    private Path write(String... lines) throws IOException {
        return Files.write(directory.resolve("users.txt"), List.of(lines));
    }

    @Test
    void readsUsersRolesCommentsAndBlankLines() throws IOException {
        Path file = write("# the users", "", "ann:" + ANN + ":admin, user", "  carol:" + PasswordHashTest.HTPASSWD_BCRYPT + ":",
            "dave:" + ANN, "Ann Lee:" + ANN + ":ops.on-call,ROLE_x");
        Map<String, StoredUser> users = PasswordFile.read(file);
        assertEquals(List.of("ann", "carol", "dave", "Ann Lee"), List.copyOf(users.keySet()));
        assertEquals(Set.of("admin", "user"), users.get("ann").roles());
        assertEquals(Set.of(), users.get("carol").roles());
        assertEquals(Set.of(), users.get("dave").roles());
        assertEquals(Set.of("ops.on-call", "ROLE_x"), users.get("Ann Lee").roles());
        assertTrue(users.get("carol").hash().matches("U*U pass"));
    }

    @Test
    void aBadLineIsNamedWithItsFileAndNumber() throws IOException {
        String at = directory.resolve("users.txt") + ":3: ";
        assertEquals(at + "expected name:hash:role1,role2 but found 0 colons", bad("ann"));
        assertEquals(at + "expected name:hash:role1,role2 but found 3 colons", bad("ann:" + ANN + ":admin:more"));
        assertEquals(at + "the user name is empty", bad(":" + ANN + ":admin"));
        assertEquals(at + "the user name 'ann ' starts or ends with a space", bad("ann :" + ANN + ":admin"));
        assertEquals(at + "the password hash of 'ann': not an Argon2id ($argon2id$...) or BCrypt ($2a$, $2b$, $2y$) hash",
            bad("ann:secret:admin"));
        assertEquals(at + "the role 'a dmin' has a character other than letters, digits, '_', '.' and '-' (user 'ann')",
            bad("ann:" + ANN + ":a dmin"));
        assertEquals(at + "a role is empty (user 'ann')", bad("ann:" + ANN + ":admin,,user"));
        assertEquals(at + "the role '**' has a character other than letters, digits, '_', '.' and '-' (user 'ann')",
            bad("ann:" + ANN + ":**"));
        assertEquals(at + "the user 'bob' is named again", bad("bob:" + ANN + ":user"));
    }

    private String bad(String line) throws IOException {
        Path file = write("# users", "bob:" + ANN + ":user", line);
        return assertThrows(IOException.class, () -> PasswordFile.read(file)).getMessage();
    }

    @Test
    void writesTheLineItReads() {
        PasswordHash hash = PasswordHash.of(ANN);
        String line = PasswordFile.line("ann", hash, List.of("admin", "user"));
        assertEquals("ann:" + ANN + ":admin,user", line);
        StoredUser user = PasswordFile.parse(line);
        assertEquals(new StoredUser("ann", hash, Set.of("admin", "user")), user);
    }
}
