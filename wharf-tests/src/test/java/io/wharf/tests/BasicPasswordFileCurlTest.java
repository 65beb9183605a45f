package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.wharf.login.PasswordFileLoginService;
import io.wharf.login.PasswordHash;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * BASIC login against a file of Argon2id hashes ({@code PasswordFileLoginService}, docs/login.md),
 * driven by curl, which sends the password with every request; the service remembers a password
 * it found right (for its default 5 minutes here, far longer than the test), so these requests
 * are mostly answered from that memory. It shows: many requests with the right password, some
 * at once, all get 200, all but the first from the memory; a wrong password, even right after the right one, gets 401; a password
 * changed in the file stops the old one as soon as the file is looked at again (and not before:
 * the bound is the reload interval, which the memory does not stretch); a line whose roles
 * changed gives its new roles to a remembered password; a user removed from the file is refused
 * once a login looks at it. Over HTTP/1.1 and h2 with TLS.
 */
@Timeout(180)
class BasicPasswordFileCurlTest {

    /** How long the test waits for a login to look at a changed file, far above the reload interval it sets. */
    private static final Duration RELOAD_WAIT = Duration.ofSeconds(30);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Path file;
    private PasswordFileLoginService users;
    private LoopbackServer server;

    private String start(String protocol) throws Exception {
        file = directory.resolve("users.txt");
        Files.write(file, List.of("ann:" + PasswordHash.hash("secret") + ":user", "bob:" + PasswordHash.hash("bob's") + ":user",
            "zoë:" + PasswordHash.hash("pässwörd ✓") + ":user"));
        users = new PasswordFileLoginService("Staff", file);
        assertEquals(Duration.ofMinutes(5), users.getVerifiedPasswordLifetime(), "the memory outlives every step of the test");
        ServletContextHandler context = new ServletContextHandler("/app");
        context.setLoginService(users);
        context.setLoginConfig(LoginConfig.basic("Staff"));
        context.addServlet(new ServletSecurityRealClientsTest.WhoAmI(), "/who");
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/who"), "user"));
        server = new LoopbackServer(context, leaks.pool(), directory);
        server.start();
        return server.origin(protocol) + "/app/who";
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2"})
    void theRightPasswordIsServedEveryTimeAndNoOtherEver(String protocol) throws Exception {
        String url = start(protocol);
        assertEquals("ann by BASIC", server.curl(protocol, "-u", "ann:secret", url));
        assertEquals("200\n".repeat(40), statuses(protocol, "ann:secret", url, 40, "--parallel", "--parallel-max", "4"),
            "40 requests, four at a time");
        assertEquals("200\n".repeat(20), statuses(protocol, "ann:secret", url, 20), "20 one after the other");
        assertEquals(60, rememberedHits(), "every request after the first was answered from the memory");
        for (String other : List.of("ann:wrong", "ann:Secret", "ann:secret ", "ann:secre", "ann:", "bob:secret", "Ann:secret")) {
            assertEquals("401", status(protocol, other, url), other + " after the right password was remembered");
        }
        assertEquals("200", status(protocol, "ann:secret", url), "the right one still");

        // Non-ASCII from a config file (-K), not the command line, whose encoding the JVM's locale decides.
        assertEquals("zoë by BASIC", server.curl(protocol, "-K", config("zoë:pässwörd ✓"), url),
            "RFC 7617's UTF-8 (the servlet answers in ISO-8859-1, the servlet default, as curl's output is read)");
        assertEquals("200", status(protocol, "-K", config("zoë:pässwörd ✓"), url));
        assertEquals("401", status(protocol, "-K", config("zoë:passwörd ✓"), url));
    }

    /** @return a curl config file, in UTF-8, that gives {@code credentials} as {@code --user} */
    private String config(String credentials) throws IOException {
        return Files.writeString(Files.createTempFile(directory, "curl", ".config"), "user = \"" + credentials + "\"\n").toString();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2"})
    void aChangedPasswordOrARemovedUserEndsTheOldPasswordWhenTheFileIsLookedAt(String protocol) throws Exception {
        String url = start(protocol);
        String bob = "bob:" + PasswordHash.hash("bob's") + ":user";
        users.setReloadInterval(Duration.ofHours(1));
        assertEquals("200", status(protocol, "ann:secret", url));
        String changed = PasswordHash.hash("changed");
        replace("ann:" + changed + ":user", bob);
        assertEquals("200", status(protocol, "ann:secret", url), "the file is not looked at before the reload interval is over");
        assertEquals("401", status(protocol, "ann:changed", url));

        assertTrue(users.reloadIfChanged(), "a caller's own timer looks at the file");
        long hits = rememberedHits();
        assertEquals("401", status(protocol, "ann:secret", url), "remembered, but checked against the hash of the old line");
        assertEquals("200", status(protocol, "ann:changed", url));
        assertEquals(hits, rememberedHits(), "both checked against the new hash");
        assertEquals("200", status(protocol, "ann:changed", url));
        assertEquals(hits + 1, rememberedHits(), "the new password remembered");

        replace("ann:" + changed + ":guest", bob);
        assertTrue(users.reloadIfChanged());
        assertEquals("403", status(protocol, "ann:changed", url), "the same hash, with the roles of the new line");
        assertEquals(hits + 2, rememberedHits(), "a line with the same hash keeps the password remembered");

        users.setReloadInterval(Duration.ofSeconds(1));
        replace(bob);
        awaitStatus(protocol, "ann:changed", url, "401");
        assertEquals("200", status(protocol, "bob:bob's", url));
        assertEquals("401", status(protocol, "ann:changed", url), "ann is gone for good");
    }

    /**
     * @return how many logins the service answered from its memory of verified passwords: its
     *     package-private counter for tests ({@code verified.hits()}), read by reflection, as
     *     nothing public tells a remembered password from a hashed one but the time
     */
    private long rememberedHits() throws ReflectiveOperationException {
        Field field = PasswordFileLoginService.class.getDeclaredField("verified");
        field.setAccessible(true);
        Object verified = field.get(users);
        Method hits = verified.getClass().getDeclaredMethod("hits");
        hits.setAccessible(true);
        return (Long) hits.invoke(verified);
    }

    /** Writes a new version of the file as docs/login.md says: beside it, then moved over it. */
    private void replace(String... lines) throws IOException {
        Path next = Files.write(directory.resolve("users.txt.new"), List.of(lines));
        Files.move(next, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    /** @return the status curl got for {@code url} with {@code credentials} ({@code name:password}) */
    private String status(String protocol, String credentials, String url) throws Exception {
        return status(protocol, "-u", credentials, url);
    }

    /** @return the status curl got for {@code url} with {@code option} ({@code -u} or {@code -K}) and its {@code value} */
    private String status(String protocol, String option, String value, String url) throws Exception {
        return server.curl(protocol, option, value, "-o", "/dev/null", "-w", "%{http_code}", url);
    }

    /** @return the statuses of {@code count} requests for {@code url} in one curl run, a line each */
    private String statuses(String protocol, String credentials, String url, int count, String... options) throws Exception {
        List<String> command = new ArrayList<>(List.of(options));
        command.addAll(List.of("-u", credentials, "-w", "%{http_code}\n"));
        for (int i = 0; i < count; i++) {
            command.addAll(List.of("-o", "/dev/null", url));
        }
        return server.curl(protocol, command.toArray(String[]::new));
    }

    /** Asks with curl every 100 ms until the status is {@code expected}, at most {@link #RELOAD_WAIT}. */
    private void awaitStatus(String protocol, String credentials, String url, String expected) throws Exception {
        long deadline = System.nanoTime() + RELOAD_WAIT.toNanos();
        String status = status(protocol, credentials, url);
        while (!status.equals(expected) && System.nanoTime() - deadline < 0) {
            Thread.sleep(100);
            status = status(protocol, credentials, url);
        }
        assertEquals(expected, status, credentials + " after " + RELOAD_WAIT.toSeconds() + " s of a reload interval of "
            + users.getReloadInterval().toSeconds() + " s");
    }
}
