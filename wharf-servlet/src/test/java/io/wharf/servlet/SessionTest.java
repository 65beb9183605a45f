package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.header;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;
import jakarta.servlet.http.HttpSessionListener;

import io.wharf.http.UriCompliance;

import org.junit.jupiter.api.Test;

/** Sessions (Servlet 6.1 chapter 7) in memory: cookie tracking, attributes, invalidation, id change, expiry, listeners. */
class SessionTest extends ServletTestCase {

    private final List<String> events = Collections.synchronizedList(new ArrayList<>());

    /** Counts visits in the session; /invalidate, /change and /peek do what they say. */
    final class Counter extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            String action = request.getPathInfo();
            if ("/peek".equals(action)) {
                HttpSession session = request.getSession(false);
                response.getWriter().print(session == null ? "none" : "count=" + session.getAttribute("count")
                    + " requested=" + request.getRequestedSessionId().equals(session.getId()));
                return;
            }
            HttpSession session = request.getSession();
            switch (action) {
                case "/invalidate" -> {
                    session.invalidate();
                    response.getWriter().print("invalidated, now " + (request.getSession(false) == null ? "none" : "some"));
                    return;
                }
                case "/change" -> {
                    String old = session.getId();
                    String changed = request.changeSessionId();
                    response.getWriter().print("changed " + !old.equals(changed));
                    return;
                }
                case "/short" -> session.setMaxInactiveInterval(1);
                default -> {
                }
            }
            Integer count = (Integer) session.getAttribute("count");
            session.setAttribute("count", count == null ? 1 : count + 1);
            response.getWriter().print("count=" + session.getAttribute("count") + " new=" + session.isNew()
                + " fromCookie=" + request.isRequestedSessionIdFromCookie());
        }
    }

    private ServletTester start(String contextPath) throws Exception {
        tester(contextPath);
        tester.context.addServlet(new Counter(), "/c/*");
        tester.context.addEventListener(new HttpSessionListener() {
            @Override
            public void sessionCreated(HttpSessionEvent event) {
                events.add("created");
            }

            @Override
            public void sessionDestroyed(HttpSessionEvent event) {
                events.add("destroyed count=" + event.getSession().getAttribute("count"));
            }
        });
        tester.context.addEventListener((HttpSessionIdListener) (event, oldId) -> events.add("id changed"));
        return tester.start();
    }

    private String get(String target, String cookie) throws Exception {
        return tester.request("GET " + target + " HTTP/1.1\nHost: test\n" + (cookie == null ? "" : "Cookie: " + cookie + "\n")
            + "Connection: close\n\n");
    }

    private static String sessionCookie(String response) {
        String setCookie = header(response, "Set-Cookie");
        return setCookie == null ? null : setCookie.substring(0, setCookie.indexOf(';'));
    }

    @Test
    void aCookieCarriesTheSessionAcrossRequests() throws Exception {
        start("/app");
        String first = get("/app/c/", null);
        assertEquals("count=1 new=true fromCookie=false", content(first));
        String setCookie = header(first, "Set-Cookie");
        assertTrue(setCookie.matches("JSESSIONID=[A-Za-z0-9_-]{32}; Path=/app; HttpOnly"), setCookie);
        String cookie = sessionCookie(first);
        String second = get("/app/c/", cookie);
        assertEquals("count=2 new=false fromCookie=true", content(second));
        assertNull(header(second, "Set-Cookie"), "a known session is not sent again");
        assertEquals("count=2 requested=true", content(get("/app/c/peek", cookie)));
        assertEquals("none", content(get("/app/c/peek", "JSESSIONID=unknown")));
        assertEquals(List.of("created"), events);
    }

    @Test
    void invalidationEndsTheSessionAndTellsTheListeners() throws Exception {
        start("/");
        String cookie = sessionCookie(get("/c/", null));
        get("/c/", cookie);
        assertEquals("invalidated, now none", content(get("/c/invalidate", cookie)));
        assertEquals(List.of("created", "destroyed count=2"), events);
        assertEquals("none", content(get("/c/peek", cookie)));
    }

    @Test
    void changeSessionIdKeepsTheDataUnderANewId() throws Exception {
        start("/");
        String cookie = sessionCookie(get("/c/", null));
        String changed = get("/c/change", cookie);
        assertEquals("changed true", content(changed));
        String newCookie = sessionCookie(changed);
        assertNotEquals(cookie, newCookie);
        assertEquals("none", content(get("/c/peek", cookie)), "the old id no longer finds it");
        assertEquals("count=1 requested=true", content(get("/c/peek", newCookie)));
        assertEquals(List.of("created", "id changed"), events);
    }

    @Test
    void aSessionExpiresAfterItsMaxInactiveInterval() throws Exception {
        start("/");
        String cookie = sessionCookie(get("/c/short", null));
        Thread.sleep(1_200);
        assertEquals("none", content(get("/c/peek", cookie)));
        assertEquals(List.of("created", "destroyed count=1"), events);
    }

    @Test
    void stoppingTheContextEndsItsSessions() throws Exception {
        start("/");
        get("/c/", null);
        get("/c/", null);
        tester.close();
        tester = null;
        assertEquals(List.of("created", "created", "destroyed count=1", "destroyed count=1"), events);
    }

    /** The default modes are the ones in effect until the application sets others (ServletContext javadoc). */
    @Test
    void theDefaultTrackingModesAreTheEffectiveOnes() throws Exception {
        tester = new ServletTester(leaks.pool(), "/");
        jakarta.servlet.ServletContext context = tester.context.getServletContext();
        assertEquals(Set.of(SessionTrackingMode.COOKIE), context.getEffectiveSessionTrackingModes());
        assertEquals(context.getEffectiveSessionTrackingModes(), context.getDefaultSessionTrackingModes());
        context.setSessionTrackingModes(Set.of(SessionTrackingMode.URL));
        assertEquals(Set.of(SessionTrackingMode.URL), context.getEffectiveSessionTrackingModes());
        assertEquals(Set.of(SessionTrackingMode.COOKIE), context.getDefaultSessionTrackingModes());
    }

    @Test
    void urlTrackingRewritesLinksWhenTheClientSentNoCookie() throws Exception {
        tester("/");
        tester.context.getServletContext().setSessionTrackingModes(Set.of(SessionTrackingMode.URL));
        // A ;jsessionid= path parameter is refused by the strict default URI compliance: URL tracking needs it allowed.
        tester.configuration.setUriCompliance(UriCompliance.from("DEFAULT,+AMBIGUOUS_PATH_PARAMETER"));
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
                HttpSession session = request.getSession();
                response.getWriter().print(response.encodeURL("/next?x=1") + " " + session.getId().equals(
                    request.getRequestedSessionId()));
            }
        }, "/*");
        tester.start();
        String first = get("/page", null);
        assertNull(header(first, "Set-Cookie"));
        String link = content(first).split(" ")[0];
        assertTrue(link.matches("/next;jsessionid=[A-Za-z0-9_-]{32}\\?x=1"), link);
        String id = link.substring(link.indexOf('=') + 1, link.indexOf('?'));
        String second = get("/page;jsessionid=" + id, null);
        assertTrue(content(second).endsWith(" true"), second);
    }
}
