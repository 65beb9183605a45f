package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;

import org.junit.jupiter.api.Test;

/** The command that makes a password file's line. */
class PasswordLineCommandTest {

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String input, String... args) throws IOException {
        return PasswordLineCommand.run(args, new BufferedReader(new StringReader(input)), new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void printsTheLineOfAUserWithTheHashOfTheFirstLineOfInput() throws IOException {
        assertEquals(0, run("s3cret pass\nignored\n", "ann", "admin", "user"));
        String line = out.toString(StandardCharsets.UTF_8).strip();
        assertTrue(line.startsWith("ann:$argon2id$v=19$m=19456,t=2,p=1$") && line.endsWith(":admin,user"), line);
        StoredUser ann = PasswordFile.parse(line);
        assertTrue(ann.hash().matches("s3cret pass"));
        assertEquals(Set.of("admin", "user"), ann.roles());
    }

    @Test
    void refusesABadNameABadRoleAndNoPassword() throws IOException {
        assertEquals(2, run("pw\n"));
        assertTrue(err.toString(StandardCharsets.UTF_8).startsWith("usage: passwd NAME [ROLE...]"));
        assertEquals(2, run("pw\n", "ann:x", "admin"));
        assertEquals(2, run("pw\n", "ann", "admin,user"));
        assertEquals(2, run("", "ann", "admin"));
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("passwd: the role 'admin,user' has a character other than"), err.toString());
        assertTrue(err.toString(StandardCharsets.UTF_8).endsWith("passwd: no password given\n"), err.toString());
    }
}
