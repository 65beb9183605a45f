package io.wharf.jsp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import io.wharf.server.Server;
import io.wharf.server.ServerConnector;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The embedding example of docs/servlet.md runs: over loopback it serves its welcome page with JSTL and its addJspFile page. */
class JspExampleTest {

    @TempDir
    Path directory;

    @Test
    void theDocumentedExampleServesPages() throws Exception {
        Path webInf = Files.createDirectories(directory.resolve("webapp/WEB-INF"));
        Files.writeString(webInf.resolveSibling("index.jsp"), """
            <%@ taglib prefix="c" uri="jakarta.tags.core" %><c:forEach var="i" begin="1" end="3">${i}</c:forEach>""");
        Files.writeString(webInf.resolve("hello.jsp"), "hello, ${param.name}");
        Server server = JspExample.start(webInf.getParent(), directory.resolve("work"), 0);
        try {
            int port = ((ServerConnector) server.getConnectors().get(0)).getLocalPort();
            assertEquals("123", contentOf(get(port, "/")));
            assertEquals("hello, jsp", contentOf(get(port, "/hello?name=jsp")));
        } finally {
            server.stop();
        }
    }

    private static String get(int port, String target) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(("GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(response.startsWith("HTTP/1.1 200 "), response);
            return response;
        }
    }

    private static String contentOf(String response) {
        return JspTester.content(response).strip();
    }
}
