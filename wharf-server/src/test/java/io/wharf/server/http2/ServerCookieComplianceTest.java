package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Set;
import java.util.stream.Collectors;

import io.wharf.http.CookieCompliance;
import io.wharf.http.HttpCookie;
import io.wharf.server.Handler;
import io.wharf.server.LocalConnector;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The server parses request cookies in the mode its
 * {@link io.wharf.server.HttpConfiguration#setCookieCompliance}
 * names, over HTTP/1.1 and h2c: one {@code Cookie} header with blanks around {@code =}, a space
 * in a value, RFC 2965 attributes, a quoted value and a comma between cookies comes out as each
 * mode reads it, and a custom mode that refuses invalid pairs answers 400.
 */
@Timeout(30)
class ServerCookieComplianceTest {

    /** Departures every named mode judges differently. */
    private static final String COOKIE = "$Version=1; a = 1; b=hello world; foo=\"bar\"; $Path=/p, x=y";

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private LocalH2cServer server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.close();
        }
    }

    private LocalConnector start(CookieCompliance compliance) throws Exception {
        server = new LocalH2cServer(leaks.pool());
        if (compliance != null) {
            server.http.setCookieCompliance(compliance);
        }
        return server.start(Handler.of((request, response, callback) -> {
            Response.write(response, true, Request.getCookies(request).stream().map(ServerCookieComplianceTest::describe)
                    .collect(Collectors.joining(" | ")), callback);
            return true;
        }));
    }

    private static String describe(HttpCookie cookie) {
        return cookie.getName() + "=" + cookie.getValue() + (cookie.getPath() != null ? " path=" + cookie.getPath() : "")
                + (cookie.getVersion() > 0 ? " version=" + cookie.getVersion() : "");
    }

    /** @return the cookies the handler saw, as HTTP/1.1 and as h2c carried them, which must agree */
    private static String seen(LocalConnector connector) throws Exception {
        String response = connector.getResponse("GET / HTTP/1.1\r\nHost: localhost\r\nCookie: " + COOKIE + "\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 200 "), response);
        String http1 = response.substring(response.indexOf("\r\n\r\n") + 4);
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            client.headers(1, RawHttp2Client.request("GET", "/").add("cookie", COOKIE), true);
            assertEquals("DATA 1 " + http1 + " END_STREAM", client.await("DATA 1"));
        }
        return http1;
    }

    @Test
    void theDefaultIsStrict() throws Exception {
        assertEquals("$Version=1 | foo=\"bar\"", seen(start(null)));
    }

    @Test
    void legacyTakesBlanksAndSpacesAndIgnoresAttributes() throws Exception {
        assertEquals("a=1 | b=hello world | foo=\"bar\"", seen(start(CookieCompliance.RFC6265_LEGACY)));
    }

    @Test
    void rfc2965AppliesAttributesAndSplitsAtCommas() throws Exception {
        assertEquals("a=1 version=1 | b=hello world version=1 | foo=bar path=/p version=1 | x=y version=1",
                seen(start(CookieCompliance.RFC2965)));
    }

    @Test
    void aModeWithoutInvalidCookiesRefusesTheRequest() throws Exception {
        LocalConnector connector = start(CookieCompliance.of("NOTHING_INVALID", Set.of()));
        String response = connector.getResponse("GET / HTTP/1.1\r\nHost: localhost\r\nCookie: a=1; b=hello world\r\n\r\n");
        assertTrue(response.startsWith("HTTP/1.1 400 "), response);
        String good = connector.getResponse("GET / HTTP/1.1\r\nHost: localhost\r\nCookie: a=1; b=2\r\n\r\n");
        assertTrue(good.endsWith("\r\n\r\na=1 | b=2"), good);
    }
}
