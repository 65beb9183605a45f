package io.wharf.websocket.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.wharf.client.HttpClient;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.servlet.ServletContextHandler;
import io.wharf.servlet.security.LoginConfig;
import io.wharf.servlet.security.MemoryLoginService;
import io.wharf.servlet.security.SecurityConstraint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.websocket.api.Session;
import io.wharf.websocket.api.WebSocketListener;
import io.wharf.websocket.client.WebSocketClient;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** WebSocket endpoints mapped in a servlet context, behind its filters and security, driven by Wharf's WebSocket client. */
class WebSocketServletTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private ServerConnector connector;
    private HttpClient httpClient;
    private final BlockingQueue<String> heard = new LinkedBlockingQueue<>();

    /** Echoes text with the servlet path the handshake came to. */
    static final class Echo implements WebSocketListener {
        private final String path;
        private Session session;

        Echo(String path) {
            this.path = path;
        }

        @Override
        public void onOpen(Session session) {
            this.session = session;
        }

        @Override
        public void onText(String text) {
            session.sendText(path + ": " + text);
        }
    }

    /** Records the handshakes it sees pass, without wrapping anything. */
    final class Watch implements Filter {
        @Override
        public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException, ServletException {
            heard.add("filter saw " + ((HttpServletRequest) request).getHeader("Upgrade"));
            ((HttpServletResponse) response).setHeader("X-Filtered", "yes");
            chain.doFilter(request, response);
        }
    }

    @BeforeEach
    void start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, new HttpConnectionFactory());
        connector.setHost("127.0.0.1");
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/app");
        context.addFilter(new Watch(), "/*", EnumSet.of(DispatcherType.REQUEST));
        context.addServlet(new WebSocketServlet((request, response) ->
            new Echo(WebSocketServlet.servletRequestOf(request).getPathInfo())), "/echo/*");
        context.addServlet(new WebSocketServlet((request, response) -> new Echo("secure")), "/secure");
        context.setLoginService(new MemoryLoginService("ws").addUser("ann", "secret", "user"));
        context.setLoginConfig(LoginConfig.basic("ws"));
        context.addSecurityConstraint(SecurityConstraint.roles(List.of("/secure"), "user"));
        server.setHandler(context);
        server.start();
        httpClient = new HttpClient();
        httpClient.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (httpClient != null) {
            httpClient.stop();
        }
        server.stop();
    }

    /** Collects the texts a client session receives. */
    static final class Collector implements WebSocketListener {
        final BlockingQueue<String> texts = new LinkedBlockingQueue<>();

        @Override
        public void onText(String text) {
            texts.add(text);
        }
    }

    @Test
    void theClientTalksToAnEndpointMappedAsAServletBehindAFilter() throws Exception {
        Collector collector = new Collector();
        Session session = new WebSocketClient(httpClient).connect(collector,
            URI.create("ws://127.0.0.1:" + connector.getLocalPort() + "/app/echo/room1")).get(10, TimeUnit.SECONDS);
        session.sendText("hello").get(5, TimeUnit.SECONDS);
        assertEquals("/room1: hello", collector.texts.poll(5, TimeUnit.SECONDS));
        assertEquals("filter saw websocket", heard.poll(5, TimeUnit.SECONDS));
        session.close(1000, "done");
    }

    @Test
    void theContextsSecurityGuardsTheHandshakeAndAPlainGetIsTold426() throws Exception {
        String unauthenticated = raw("GET /app/secure HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
        assertTrue(unauthenticated.startsWith("HTTP/1.1 401 "), unauthenticated);
        String authenticated = raw("GET /app/secure HTTP/1.1\r\nHost: t\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Authorization: Basic YW5uOnNlY3JldA==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
        assertTrue(authenticated.startsWith("HTTP/1.1 101 "), authenticated);
        assertTrue(authenticated.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo="), authenticated);
        String plain = raw("GET /app/echo/x HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n");
        assertTrue(plain.startsWith("HTTP/1.1 426 "), plain);
    }

    /** @return the head of the server's answer to {@code request} on a fresh socket */
    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
            socket.setSoTimeout(5000);
            OutputStream output = socket.getOutputStream();
            output.write(request.getBytes(StandardCharsets.US_ASCII));
            output.flush();
            InputStream input = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (!head.toString().endsWith("\r\n\r\n")) {
                int b = input.read();
                if (b < 0) {
                    break;
                }
                head.append((char) b);
            }
            return head.toString();
        }
    }
}
