package io.wharf.servlet;

import static io.wharf.servlet.ServletTester.content;
import static io.wharf.servlet.ServletTester.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;

import io.wharf.server.LocalConnector;

import org.junit.jupiter.api.Test;

/** HTTP upgrade from a servlet (Servlet 6.1 section 2.3.3.5): the 101, then the handler owns the connection. */
class UpgradeTest extends ServletTestCase {

    static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    /** Echoes each byte upper-cased until the client closes. */
    public static final class UpperCase implements HttpUpgradeHandler {
        @Override
        public void init(WebConnection connection) {
            EVENTS.add("init");
            try (InputStream input = connection.getInputStream(); OutputStream output = connection.getOutputStream()) {
                byte[] buffer = new byte[256];
                int read;
                while ((read = input.read(buffer)) >= 0) {
                    String text = new String(buffer, 0, read, StandardCharsets.US_ASCII).toUpperCase();
                    output.write(text.getBytes(StandardCharsets.US_ASCII));
                    if (text.contains("BYE")) {
                        connection.close();
                        return;
                    }
                }
            } catch (Exception x) {
                EVENTS.add("failed " + x);
            }
        }

        @Override
        public void destroy() {
            EVENTS.add("destroy");
        }
    }

    private void start() throws Exception {
        EVENTS.clear();
        tester("/");
        tester.context.addServlet(new HttpServlet() {
            @Override
            protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException, ServletException {
                if (!"shout".equals(request.getHeader("Upgrade"))) {
                    try {
                        request.upgrade(UpperCase.class);
                        response.getWriter().print("upgraded without asking");
                    } catch (ServletException expected) {
                        response.getWriter().print("refused: " + expected.getMessage().startsWith("upgrade: the request did not ask"));
                    }
                    return;
                }
                request.upgrade(UpperCase.class);
                response.setHeader("Upgrade", "shout");
                response.setHeader("X-Protocol-Version", "1");
            }
        }, "/up");
        tester.start();
    }

    @Test
    void theHandlerGetsTheConnectionAfterThe101() throws Exception {
        start();
        try (LocalConnector.Client client = tester.connector.connect()) {
            client.send(ByteBuffer.wrap(("GET /up HTTP/1.1\r\nHost: t\r\nConnection: Upgrade\r\nUpgrade: shout\r\n\r\nhello ")
                .getBytes(StandardCharsets.US_ASCII)));
            String head = client.readResponse(Duration.ofSeconds(5));
            assertEquals(101, status(head));
            assertTrue(head.contains("Upgrade: shout") && head.contains("X-Protocol-Version: 1"), head);
            client.send(ByteBuffer.wrap("world, bye".getBytes(StandardCharsets.US_ASCII)));
            String echoed = client.readUntilClosed(Duration.ofSeconds(5));
            assertTrue(echoed.endsWith("HELLO WORLD, BYE"), echoed);
        }
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (!EVENTS.contains("destroy") && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertEquals(List.of("init", "destroy"), EVENTS);
    }

    @Test
    void aRequestThatDidNotAskCannotBeUpgraded() throws Exception {
        start();
        assertEquals("refused: true", content(tester.get("/up")));
    }
}
