package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * DIGEST nonces that expire ({@code ServletContextHandler.setDigestNonceLifetime}) met by curl,
 * which computes the digest itself: a request curl made, replayed with its Authorization field
 * once the nonce has expired, is challenged with {@code stale=true} (RFC 7616 section 3.3), and
 * the same field with a wrong response is challenged without it; and curl, sent on by a redirect
 * with the nonce it already holds after that nonce expired, takes the stale challenge, answers
 * the new nonce with the credentials it was given, and gets the page. Over HTTP/1.1 and h2 with
 * TLS (not h2c: curl 7.88 cannot reuse an h2c prior-knowledge connection, see
 * {@link ServletSecurityRealClientsTest}).
 */
@Timeout(120)
class DigestStaleCurlTest {

    /** How long a nonce lives here: long enough for curl's answer to the challenge on a busy machine, short for the test. */
    private static final Duration NONCE_LIFETIME = Duration.ofSeconds(2);
    /** Longer than the nonce lifetime: a nonce made before a pause this long has expired after it. */
    private static final Duration PAST_LIFETIME = NONCE_LIFETIME.plusSeconds(1);

    private static final Pattern AUTHORIZATION = Pattern.compile("^> Authorization: (Digest .*)$", Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern CHALLENGE = Pattern.compile("^WWW-Authenticate: (.*)$", Pattern.MULTILINE | Pattern.CASE_INSENSITIVE);
    private static final Pattern NONCE = Pattern.compile("[ ,]nonce=\"([^\"]+)\"");
    private static final Pattern COUNT = Pattern.compile("[ ,]nc=([0-9a-fA-F]+)");
    private static final Pattern RESPONSE = Pattern.compile("response=\"([0-9a-f]+)\"");

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private LoopbackServer server;

    /** Prints who the user is, and for a POST how many bytes of body it read. */
    static final class WhoAmI extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().print(request.getRemoteUser() + " by " + request.getAuthType());
        }

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            int length = request.getInputStream().readAllBytes().length;
            doGet(request, response);
            response.getWriter().print(" read " + length + " bytes");
        }
    }

    /**
     * Answers after a pause longer than the nonce lifetime with a redirect to {@code who}: the
     * nonce the client answered has expired when it follows. A POST's body is read first.
     */
    static final class Pause extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            try {
                Thread.sleep(PAST_LIFETIME.toMillis());
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted in the pause", x);
            }
            response.sendRedirect("who");
        }

        @Override
        protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
            request.getInputStream().readAllBytes();
            doGet(request, response);
        }
    }

    private void start() throws Exception {
        ServletContextHandler context = new ServletContextHandler("/app");
        context.setLoginService(new MemoryLoginService("Wharf").addUser("ann", "secret", "user"));
        context.setLoginConfig(LoginConfig.digest("Wharf"));
        context.setDigestNonceLifetime(NONCE_LIFETIME);
        context.addServlet(new WhoAmI(), "/who");
        context.addServlet(new Pause(), "/pause");
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/who", "/pause"), "user"));
        server = new LoopbackServer(context, leaks.pool(), directory);
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /**
     * curl's own Authorization field, sent again after its nonce expired, is a right answer to an
     * expired nonce: 401 with {@code stale=true}. The same with one digit of the response
     * changed is a wrong answer: 401 without it (a wrong password is asked again, not retried).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2"})
    void curlsAnswerReplayedAfterItsNonceExpiredIsChallengedAsStale(String protocol) throws Exception {
        start();
        String url = server.origin(protocol) + "/app/who";
        Curl.Printed login = server.curlTraced(protocol, "-v", "--digest", "-u", "ann:secret", url);
        assertEquals("ann by DIGEST", login.output());
        List<String> sent = authorizations(login.errors());
        assertFalse(sent.isEmpty(), login.errors());
        String answer = sent.getLast();

        Thread.sleep(PAST_LIFETIME.toMillis());
        String replayed = server.curl(protocol, "-i", "-H", "Authorization: " + answer, url);
        assertEquals(401, LoopbackServer.Answer.parse(replayed).status(), replayed);
        List<String> stale = challenges(replayed);
        assertEquals(2, stale.size(), replayed);
        assertTrue(stale.stream().allMatch(challenge -> challenge.endsWith(", stale=true")), replayed);

        String wrong = server.curl(protocol, "-i", "-H", "Authorization: " + flipFirstDigit(answer), url);
        assertEquals(401, LoopbackServer.Answer.parse(wrong).status(), wrong);
        List<String> asked = challenges(wrong);
        assertEquals(2, asked.size(), wrong);
        assertTrue(asked.stream().noneMatch(challenge -> challenge.contains("stale")), wrong);

        assertEquals("ann by DIGEST", server.curl(protocol, "--digest", "-u", "ann:secret", url), "a new login after the expiry");
    }

    /**
     * curl follows the redirect with the nonce of its login at the pause, now expired (nonce count
     * 2), gets the stale challenge, answers the new nonce without a prompt (count 1) and gets the
     * page: one curl run, the credentials given once.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2"})
    void curlAnswersTheStaleChallengeWithTheNewNonce(String protocol) throws Exception {
        start();
        Curl.Printed run = server.curlTraced(protocol, "-v", "-L", "--digest", "-u", "ann:secret",
            "-w", "\n%{http_code}", server.origin(protocol) + "/app/pause");
        String trace = run.errors();
        assertEquals("ann by DIGEST\n200", run.output(), trace);
        assertRetriedOnStale(trace);
    }

    /**
     * The same with a POST of 100,000 bytes that curl keeps on the redirect ({@code --post302}):
     * the stale challenge comes before the servlet reads the body, and curl sends the body again
     * with its answer to the new nonce.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2"})
    void curlSendsAPostsBodyAgainAfterTheStaleChallenge(String protocol) throws Exception {
        start();
        byte[] bytes = new byte[100_000];
        for (int i = 0; i < bytes.length; i++) {
            bytes[i] = (byte) ('a' + i % 26);
        }
        Path body = Files.write(directory.resolve("body.txt"), bytes);
        Curl.Printed run = server.curlTraced(protocol, "-v", "-L", "--post302", "--digest", "-u", "ann:secret",
            "--data-binary", "@" + body, "-w", "\n%{http_code}", server.origin(protocol) + "/app/pause");
        String trace = run.errors();
        assertEquals("ann by DIGEST read 100000 bytes\n200", run.output(), trace);
        assertRetriedOnStale(trace);
    }

    /**
     * Asserts what curl did in {@code trace} after the pause: it followed the redirect to
     * {@code /app/who} with the nonce it had answered at {@code /app/pause} and the next count,
     * got {@code stale=true}, and answered again with a new nonce, count 1, without giving up
     * (curl says "Authentication problem" when a second challenge is not stale).
     */
    private static void assertRetriedOnStale(String trace) {
        String lower = trace.toLowerCase(Locale.ROOT);
        assertTrue(lower.contains("< location: /app/who"), trace);
        assertTrue(lower.contains("stale=true"), trace);
        assertFalse(trace.contains("Authentication problem"), trace);
        List<String> sent = authorizations(trace);
        List<String> atPause = sent.stream().filter(credentials -> credentials.contains("uri=\"/app/pause\"")).toList();
        List<String> atWho = sent.stream().filter(credentials -> credentials.contains("uri=\"/app/who\"")).toList();
        assertFalse(atPause.isEmpty(), trace);
        assertEquals(2, atWho.size(), trace);
        String held = atPause.getLast();
        assertEquals(field(NONCE, held), field(NONCE, atWho.get(0)), "the redirect is answered with the nonce curl holds: " + trace);
        assertEquals(count(held) + 1, count(atWho.get(0)), trace);
        assertNotEquals(field(NONCE, held), field(NONCE, atWho.get(1)), "after the stale challenge, the new nonce: " + trace);
        assertEquals(1, count(atWho.get(1)), trace);
    }

    private static int count(String credentials) {
        return Integer.parseInt(field(COUNT, credentials), 16);
    }

    /** @return the Digest credentials curl sent, in order, from its {@code -v} trace */
    private static List<String> authorizations(String trace) {
        return AUTHORIZATION.matcher(trace).results().map(match -> match.group(1).strip()).toList();
    }

    /** @return the WWW-Authenticate fields of what {@code curl -i} printed, in order (a Digest challenge for each algorithm) */
    private static List<String> challenges(String printed) {
        return CHALLENGE.matcher(printed.substring(0, printed.indexOf("\r\n\r\n"))).results().map(match -> match.group(1).strip()).toList();
    }

    private static String field(Pattern pattern, String credentials) {
        Matcher matcher = pattern.matcher(credentials);
        assertTrue(matcher.find(), pattern + " in " + credentials);
        return matcher.group(1);
    }

    /** @return {@code credentials} with the first hex digit of its response changed */
    private static String flipFirstDigit(String credentials) {
        Matcher matcher = RESPONSE.matcher(credentials);
        assertTrue(matcher.find(), credentials);
        char first = matcher.group(1).charAt(0);
        char other = first == '0' ? '1' : '0';
        return credentials.substring(0, matcher.start(1)) + other + credentials.substring(matcher.start(1) + 1);
    }
}
