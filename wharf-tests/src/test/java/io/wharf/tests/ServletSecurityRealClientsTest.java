package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.testing.LeakTracking;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.servlet.WebSocketServlet;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The servlet container's DIGEST login driven by curl (which computes the digest itself), over
 * HTTP/1.1 and h2 with TLS; and a {@code WebSocketServlet} behind a constraint driven by
 * Python's websockets library over ws and wss, refused without credentials and echoing with them.
 */
@Timeout(120)
class ServletSecurityRealClientsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private LoopbackServer server;

    /** Prints who the user is. */
    static final class WhoAmI extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            response.getWriter().print(request.getRemoteUser() + " by " + request.getAuthType());
        }
    }

    /** Echoes a text with the user who opened the session. */
    static final class Echo implements WebSocketListener {
        private final String user;
        private Session session;

        Echo(String user) {
            this.user = user;
        }

        @Override
        public void onOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onText(String text) {
            session.sendText(user + ": " + text);
        }
    }

    private LoopbackServer start(LoginConfig login) throws Exception {
        ServletContextHandler context = new ServletContextHandler("/app");
        context.setLoginService(new MemoryLoginService("Wharf").addUser("ann", "secret", "user"));
        context.setLoginConfig(login);
        context.addServlet(new WhoAmI(), "/who");
        context.addServlet(new WebSocketServlet((request, response) ->
            new Echo(WebSocketServlet.servletRequestOf(request).getRemoteUser())), "/ws");
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/who", "/ws"), "user"));
        server = new LoopbackServer(context, leaks.pool(), directory);
        server.start();
        return server;
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /**
     * Not over h2c: DIGEST makes curl send a second request on its connection, and curl 7.88's
     * reuse of an h2c prior-knowledge connection fails in its own framing layer (a curl bug, fixed
     * upstream; the Spring suite meets it too). HTTP/2 is covered by h2 over TLS.
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"http/1.1", "h2"})
    void curlLogsInByDigest(String protocol) throws Exception {
        start(LoginConfig.digest("Wharf"));
        String url = server.origin(protocol) + "/app/who";
        assertEquals("401", server.curl(protocol, "-o", "/dev/null", "-w", "%{http_code}", url));
        assertEquals("401", server.curl(protocol, "-o", "/dev/null", "-w", "%{http_code}", "--digest", "-u", "ann:wrong", url));
        assertEquals("ann by DIGEST", server.curl(protocol, "--digest", "-u", "ann:secret", url));
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"ws", "wss"})
    void pythonWebsocketsIsRefusedWithoutCredentialsAndEchoesWithThem(String scheme) throws Exception {
        start(LoginConfig.basic("Wharf"));
        String url = (scheme.equals("ws") ? server.origin("http/1.1").replace("http:", "ws:")
            : server.origin("h2").replace("https:", "wss:")) + "/app/ws";
        String pem = server.pem().toString();
        assertEquals("refused 401", PythonClients.run("ws_echo_once.py", url, "hello", pem).strip());
        assertEquals("refused 401", PythonClients.run("ws_echo_once.py", url, "hello", pem, "ann:wrong").strip());
        assertEquals("ann: hello", PythonClients.run("ws_echo_once.py", url, "hello", pem, "ann:secret").strip());
    }
}
