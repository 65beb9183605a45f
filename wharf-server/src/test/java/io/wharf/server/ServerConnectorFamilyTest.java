package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.testing.SocketTables;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connector bound to an IPv4 address listens on an IPv4 socket, so its connections skip the
 * kernel's IPv6 path; bound to every interface it keeps the JDK's IPv6 socket, which also takes
 * IPv4 clients. The socket's family is read from Linux's socket tables.
 */
class ServerConnectorFamilyTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void anIpv4HostListensOnAnIpv4Socket() throws Exception {
        assumeTrue(SocketTables.available(), "needs Linux's /proc/net/tcp and tcp6");
        ServerConnector connector = start("127.0.0.1");
        int port = connector.getLocalPort();
        assertEquals(List.of("tcp"), SocketTables.tablesOf(port, 0), "the listening socket's table");
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
            assertTrue(get(socket).startsWith("HTTP/1.1 200 "));
            assertEquals(List.of("tcp"), SocketTables.tablesOf(port, socket.getLocalPort()), "the accepted socket's table");
        }
    }

    @Test
    void everyInterfaceKeepsTheDualStackSocket() throws Exception {
        everyInterfaceKeepsTheDualStackSocket(null);
    }

    @Test
    void zeroesAreEveryInterfaceToo() throws Exception {
        everyInterfaceKeepsTheDualStackSocket("0.0.0.0");
    }

    private void everyInterfaceKeepsTheDualStackSocket(String host) throws Exception {
        assumeTrue(SocketTables.available(), "needs Linux's /proc/net/tcp and tcp6");
        assumeTrue(Files.exists(Path.of("/proc/net/if_inet6")) && !Boolean.getBoolean("java.net.preferIPv4Stack"),
                "needs IPv6 in this machine and JVM");
        ServerConnector connector = start(host);
        int port = connector.getLocalPort();
        assertEquals(List.of("tcp6"), SocketTables.tablesOf(port, 0), "the listening socket's table");
        try (Socket socket = new Socket(InetAddress.getByName("127.0.0.1"), port)) {
            assertTrue(get(socket).startsWith("HTTP/1.1 200 "), "an IPv4 client is served");
        }
    }

    private ServerConnector start(String host) throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory());
        connector.setHost(host);
        server.addConnector(connector);
        server.setHandler(Handler.of((request, response, callback) -> {
            Response.write(response, true, "ok", callback);
            return true;
        }));
        server.start();
        return connector;
    }

    private static String get(Socket socket) throws IOException {
        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        InputStream in = socket.getInputStream();
        return new String(in.readAllBytes(), StandardCharsets.US_ASCII);
    }
}
