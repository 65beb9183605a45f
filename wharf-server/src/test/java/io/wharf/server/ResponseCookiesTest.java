package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Instant;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import io.wharf.http.CookieCompliance;
import io.wharf.http.HttpCookie;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Response#addCookie}, {@link Response#replaceCookie} and {@link Response#deleteCookie}
 * through a server over an in-memory HTTP/1.1 connection: the exact {@code Set-Cookie} lines
 * with every attribute, several cookies, a replacement that spares other paths and domains and
 * also replaces a field a handler wrote as text, deletion (with {@code Secure} kept for
 * prefixed names), and the refusals — a value no {@code Set-Cookie} may carry, a committed
 * response — each with an exception naming the problem.
 */
@Timeout(30)
class ResponseCookiesTest {

    private static final Instant EXPIRES = Instant.parse("2030-01-02T03:04:05Z");

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private LocalServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    /** @return the Set-Cookie lines of the response {@code handler} makes (body "ok") */
    private List<String> setCookies(Handler handler) throws Exception {
        server = new LocalServer(leaks.pool()).start(handler);
        String response = server.get("""
                GET / HTTP/1.1
                Host: localhost

                """);
        assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        return response.lines().filter(line -> line.startsWith("Set-Cookie: ")).toList();
    }

    private static Handler cookies(java.util.function.Consumer<Response> setting) {
        return Handler.of((request, response, callback) -> {
            setting.accept(response);
            Response.write(response, true, "ok", callback);
            return true;
        });
    }

    @Test
    void addCookieWritesEveryAttribute() throws Exception {
        HttpCookie cookie = HttpCookie.build("id", "a1b2").domain("example.com").path("/app").expires(EXPIRES)
                .maxAge(3600).secure(true).httpOnly(true).sameSite(HttpCookie.SameSite.NONE).partitioned(true).build();
        assertEquals(List.of("Set-Cookie: id=a1b2; Domain=example.com; Path=/app; Expires=Wed, 02 Jan 2030 03:04:05 GMT; "
                + "Max-Age=3600; Secure; HttpOnly; SameSite=None; Partitioned"),
                setCookies(cookies(response -> Response.addCookie(response, cookie))));
    }

    @Test
    void addCookieAddsOneFieldPerCookie() throws Exception {
        assertEquals(List.of("Set-Cookie: a=1", "Set-Cookie: b=\"two\"; SameSite=Strict"), setCookies(cookies(response -> {
            Response.addCookie(response, HttpCookie.from("a", "1"));
            Response.addCookie(response, HttpCookie.build("b", "\"two\"").sameSite(HttpCookie.SameSite.STRICT).build());
        })));
    }

    @Test
    void replaceCookieReplacesTheSameCookieOnly() throws Exception {
        assertEquals(List.of("Set-Cookie: id=other; Path=/other", "Set-Cookie: id=elsewhere; Domain=example.org; Path=/",
                "Set-Cookie: keep=1", "Set-Cookie: id=new; Path=/; HttpOnly"), setCookies(cookies(response -> {
            Response.addCookie(response, HttpCookie.build("id", "old").path("/").build());
            Response.addCookie(response, HttpCookie.build("id", "other").path("/other").build());
            Response.addCookie(response, HttpCookie.build("id", "elsewhere").domain("example.org").path("/").build());
            // Written as text by other code: read as a user agent reads it, any case, a leading dot ignored.
            response.getHeaders().add("Set-Cookie", "id=text;  path=/ ; Secure");
            response.getHeaders().add("Set-Cookie", "keep=1");
            Response.replaceCookie(response, HttpCookie.build("id", "new").path("/").httpOnly(true).build());
        })));
    }

    @Test
    void replaceCookieComparesDomainsIgnoringCaseAndALeadingDot() throws Exception {
        assertEquals(List.of("Set-Cookie: id=2; Domain=example.com"), setCookies(cookies(response -> {
            response.getHeaders().add("Set-Cookie", "id=1; Domain=.EXAMPLE.com");
            Response.replaceCookie(response, HttpCookie.build("id", "2").domain("example.com").build());
        })));
    }

    @Test
    void deleteCookieExpiresItAndReplacesAnEarlierOne() throws Exception {
        assertEquals(List.of("Set-Cookie: id=; Domain=example.com; Path=/app; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0",
                "Set-Cookie: __Host-id=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Secure"),
                setCookies(cookies(response -> {
                    Response.addCookie(response, HttpCookie.build("id", "a1").domain("example.com").path("/app").build());
                    Response.deleteCookie(response, "id", "/app", "example.com");
                    // A prefixed name is only honoured with Secure (RFC 6265bis section 4.1.3): kept when deleting.
                    Response.deleteCookie(response, "__Host-id", "/", null);
                })));
    }

    @Test
    void deleteCookieKeepsTheAttributesThatSelectTheJar() throws Exception {
        HttpCookie partitioned = HttpCookie.build("embed", "x").path("/").secure(true).partitioned(true)
                .sameSite(HttpCookie.SameSite.NONE).maxAge(600).build();
        assertEquals(List.of("Set-Cookie: embed=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Secure; "
                + "SameSite=None; Partitioned"), setCookies(cookies(response -> {
            Response.addCookie(response, partitioned);
            Response.deleteCookie(response, partitioned);
        })));
    }

    @Test
    void badCookiesAndLateCookiesAreRefusedNamingTheProblem() throws Exception {
        BlockingQueue<String> problems = new LinkedBlockingQueue<>();
        // A cookie read in a legacy mode may hold what no Set-Cookie may carry: echoing it back is refused.
        LocalServer legacy = new LocalServer(leaks.pool());
        server = legacy;
        legacy.configuration.setCookieCompliance(CookieCompliance.RFC6265_LEGACY);
        legacy.start(Handler.of((request, response, callback) -> {
            HttpCookie received = Request.getCookies(request).get(0);
            problems.add(assertThrows(IllegalArgumentException.class, () -> Response.addCookie(response, received)).getMessage());
            problems.add(assertThrows(NullPointerException.class, () -> Response.addCookie(response, null)).getMessage());
            problems.add(assertThrows(IllegalArgumentException.class,
                    () -> Response.deleteCookie(response, "bad name", "/", null)).getMessage());
            problems.add(assertThrows(IllegalArgumentException.class,
                    () -> Response.deleteCookie(response, "id", "/;x", null)).getMessage());
            Response.write(response, false, "ok", Callback.from(InvocationType.NON_BLOCKING, () -> {
                problems.add(assertThrows(IllegalStateException.class,
                        () -> Response.addCookie(response, HttpCookie.from("late", "1"))).getMessage());
                problems.add(assertThrows(IllegalStateException.class,
                        () -> Response.replaceCookie(response, HttpCookie.from("late", "1"))).getMessage());
                response.write(true, null, callback);
            }, callback::failed));
            return true;
        }));
        String response = legacy.get("""
                GET / HTTP/1.1
                Host: localhost
                Cookie: greeting=hello world

                """);
        assertTrue(response.startsWith("HTTP/1.1 200 ") && !response.contains("Set-Cookie"), response);
        assertEquals("cookie value of \"greeting\" has an illegal character ' ' (0x20) at index 5", problems.poll(10, TimeUnit.SECONDS));
        assertEquals("cookie", problems.poll(10, TimeUnit.SECONDS));
        assertEquals("cookie name \"bad name\" has an illegal character ' ' (0x20) at index 3", problems.poll(10, TimeUnit.SECONDS));
        assertEquals("cookie path of \"id\" has an illegal character ';' (0x3b) at index 1", problems.poll(10, TimeUnit.SECONDS));
        assertEquals("the response is committed: too late to set cookie \"late\"", problems.poll(10, TimeUnit.SECONDS));
        assertEquals("the response is committed: too late to set cookie \"late\"", problems.poll(10, TimeUnit.SECONDS));
    }
}
