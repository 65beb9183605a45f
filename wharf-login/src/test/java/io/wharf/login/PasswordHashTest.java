package io.wharf.login;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** Argon2id hashes made and checked, hashes made by other tools, and hashes refused. */
class PasswordHashTest {

    /** Made by the reference implementation's command, {@code echo -n "correct horse" | argon2 wharfsaltwharfsalt -id -t 2 -m 15 -p 1 -l 32 -e}. */
    static final String REFERENCE_ARGON2ID = "$argon2id$v=19$m=32768,t=2,p=1$d2hhcmZzYWx0d2hhcmZzYWx0$lOSdeqMIRSWjOQqGH8H9bTLHguVsqqGN1Gv0NeFJweU";
    /** Made by Apache's {@code htpasswd -nbB -C 5 carol "U*U pass"}. */
    static final String HTPASSWD_BCRYPT = "$2y$05$cM1xXK2PoYibNnGYOhJqVueQKII.DYdpqLcdBxPFGI8m1g.ruu/ZW";

    @Test
    void createsArgon2idInThePhcFormatWithASaltOfItsOwn() {
        PasswordHash hash = PasswordHash.create("hunter2");
        assertTrue(hash.encoded().startsWith("$argon2id$v=19$m=19456,t=2,p=1$"), hash.encoded());
        assertEquals(PasswordHash.Algorithm.ARGON2ID, hash.algorithm());
        assertTrue(hash.matches("hunter2"));
        assertFalse(hash.matches("hunter3"));
        assertFalse(hash.matches(""));
        assertFalse(hash.matches(null));
        assertNotEquals(hash.encoded(), PasswordHash.hash("hunter2"), "every hash has a new salt");
        assertEquals(hash, PasswordHash.of(hash.encoded()));
        assertEquals("PasswordHash{ARGON2ID}", hash.toString(), "the hash stays out of logs");
    }

    @Test
    void checksHashesMadeByOtherTools() {
        PasswordHash argon2 = PasswordHash.of(REFERENCE_ARGON2ID);
        assertTrue(argon2.matches("correct horse"));
        assertFalse(argon2.matches("correct horse "));
        PasswordHash bcrypt = PasswordHash.of(HTPASSWD_BCRYPT);
        assertEquals(PasswordHash.Algorithm.BCRYPT, bcrypt.algorithm());
        assertTrue(bcrypt.matches("U*U pass"));
        assertFalse(bcrypt.matches("U*U"));
        for (String version : new String[] {"$2a$", "$2b$"}) {
            assertTrue(PasswordHash.of(version + HTPASSWD_BCRYPT.substring(4)).matches("U*U pass"), version);
        }
    }

    @Test
    void refusesOtherFormatsAndCostsBeyondTheLimits() {
        assertEquals("not an Argon2id ($argon2id$...) or BCrypt ($2a$, $2b$, $2y$) hash",
            assertThrows(IllegalArgumentException.class, () -> PasswordHash.of("hunter2")).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> PasswordHash.of(REFERENCE_ARGON2ID.replace("argon2id", "argon2i")))
            .getMessage().startsWith("not an Argon2id hash of version 19"));
        String huge = REFERENCE_ARGON2ID.replace("m=32768", "m=4194304");
        assertEquals("the Argon2id cost m=4194304,t=2,p=1 is beyond the limits (m from 8 per lane to 262144 KiB, t up to 16, p up to 16)",
            assertThrows(IllegalArgumentException.class, () -> PasswordHash.of(huge)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.of(REFERENCE_ARGON2ID.replace("t=2", "t=0")));
        assertEquals("the BCrypt cost 31 is beyond the limits (4 to 16)",
            assertThrows(IllegalArgumentException.class, () -> PasswordHash.of(HTPASSWD_BCRYPT.replace("$05$", "$31$"))).getMessage());
        assertThrows(IllegalArgumentException.class, () -> PasswordHash.of(HTPASSWD_BCRYPT.substring(0, 50)));
    }
}
