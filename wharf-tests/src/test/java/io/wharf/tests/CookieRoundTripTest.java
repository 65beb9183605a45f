package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.HttpCookie;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

import io.wharf.client.ContentResponse;
import io.wharf.client.HttpClient;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cookies the server sets with {@link Response#addCookie}, {@link Response#replaceCookie} and
 * {@link Response#deleteCookie}, over HTTPS (a {@code Secure} cookie is only kept from a secure
 * origin), read back by two user agents: Wharf's own client with its RFC 6265 cookie store, and
 * the real curl with its cookie jar. Each stores what was set, sends back what matches the
 * path, and drops what was deleted.
 */
@Timeout(120)
class CookieRoundTripTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private TestServer server;
    private Path pem;
    private String base;

    @BeforeEach
    void start() throws Exception {
        Path certificates = directory.resolve("tls");
        server = TestServer.tls(leaks.pool(), Handler.of(CookieRoundTripTest::handle), certificates);
        pem = certificates.resolve("demo.pem");
        base = "https://localhost:" + server.connector.getLocalPort();
    }

    @AfterEach
    void stop() throws Exception {
        server.close();
    }

    /** {@code /set} sets the cookies, {@code /delete} deletes the session, any other path lists the cookies it got. */
    private static boolean handle(Request request, Response response, io.wharf.util.Callback callback) {
        switch (request.getPathInContext()) {
            case "/set" -> {
                Response.addCookie(response, io.wharf.http.HttpCookie.build("session", "a1b2").path("/").maxAge(3600)
                        .secure(true).httpOnly(true).sameSite(io.wharf.http.HttpCookie.SameSite.LAX).build());
                Response.addCookie(response, io.wharf.http.HttpCookie.build("pref", "\"dark\"").path("/app")
                        .expires(Instant.parse("2099-01-01T00:00:00Z")).sameSite(io.wharf.http.HttpCookie.SameSite.STRICT).build());
                Response.addCookie(response, io.wharf.http.HttpCookie.build("embed", "x").path("/").secure(true)
                        .sameSite(io.wharf.http.HttpCookie.SameSite.NONE).partitioned(true).build());
                // Set, then replaced in the same response: only the second value reaches the client.
                Response.addCookie(response, io.wharf.http.HttpCookie.build("theme", "old").path("/").build());
                Response.replaceCookie(response, io.wharf.http.HttpCookie.build("theme", "new").path("/").build());
                Response.write(response, true, "set", callback);
            }
            case "/delete" -> {
                Response.deleteCookie(response, "session", "/", null);
                Response.write(response, true, "deleted", callback);
            }
            default -> Response.write(response, true, Request.getCookies(request).stream()
                    .map(cookie -> cookie.getName() + "=" + cookie.getValue()).sorted().collect(Collectors.joining("; ")), callback);
        }
        return true;
    }

    @Test
    void wharfsCookieStoreKeepsAndSendsBackWhatTheServerSets() throws Exception {
        HttpClient client = new HttpClient();
        client.setSslContext(PemTrust.context(pem));
        client.start();
        try {
            assertEquals("set", client.GET(base + "/set").getContentAsString());
            List<HttpCookie> stored = client.getCookieStore().getCookies().stream()
                    .sorted(Comparator.comparing(HttpCookie::getName)).toList();
            assertEquals("embed=x secure=true httpOnly=false path=/ | pref=\"dark\" secure=false httpOnly=false path=/app"
                    + " | session=a1b2 secure=true httpOnly=true path=/ | theme=new secure=false httpOnly=false path=/",
                    stored.stream().map(cookie -> cookie.getName() + "=" + cookie.getValue() + " secure=" + cookie.getSecure()
                            + " httpOnly=" + cookie.isHttpOnly() + " path=" + cookie.getPath()).collect(Collectors.joining(" | ")));
            HttpCookie session = stored.get(2);
            assertTrue(session.getMaxAge() > 3500 && session.getMaxAge() <= 3600, "Max-Age kept: " + session.getMaxAge());
            assertTrue(stored.get(1).getMaxAge() > 365L * 24 * 3600, "Expires read: " + stored.get(1).getMaxAge());

            ContentResponse app = client.GET(base + "/app/show");
            assertEquals("embed=x; pref=\"dark\"; session=a1b2; theme=new", app.getContentAsString());
            assertEquals("embed=x; session=a1b2; theme=new", client.GET(base + "/show").getContentAsString());

            assertEquals("deleted", client.GET(base + "/delete").getContentAsString());
            assertEquals("embed=x; theme=new", client.GET(base + "/show").getContentAsString());
        } finally {
            client.stop();
        }
    }

    @Test
    void curlsCookieJarKeepsAndSendsBackWhatTheServerSets() throws Exception {
        Path jar = directory.resolve("jar.txt");
        String trust = pem.toString();
        assertEquals("set", Curl.run("--cacert", trust, "-c", jar.toString(), base + "/set"));
        List<String> lines = Files.readAllLines(jar).stream().filter(line -> !line.isBlank() && !line.startsWith("# ")).toList();
        // Netscape format: domain, subdomains, path, secure, expiry, name, value; HttpOnly marks the domain.
        assertTrue(lines.stream().anyMatch(line -> line.matches("#HttpOnly_localhost\tFALSE\t/\tTRUE\t[1-9][0-9]*\tsession\ta1b2")),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.equals("localhost\tFALSE\t/app\tFALSE\t4070908800\tpref\t\"dark\"")),
                String.join("\n", lines));
        assertTrue(lines.stream().anyMatch(line -> line.equals("localhost\tFALSE\t/\tFALSE\t0\ttheme\tnew")), String.join("\n", lines));
        assertTrue(lines.stream().noneMatch(line -> line.endsWith("\ttheme\told")), String.join("\n", lines));

        assertEquals("embed=x; pref=\"dark\"; session=a1b2; theme=new",
                Curl.run("--cacert", trust, "-b", jar.toString(), base + "/app/show"));
        Curl.run("--cacert", trust, "-b", jar.toString(), "-c", jar.toString(), base + "/delete");
        assertEquals("embed=x; theme=new", Curl.run("--cacert", trust, "-b", jar.toString(), base + "/show"));
    }
}
