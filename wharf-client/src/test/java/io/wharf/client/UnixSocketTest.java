package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;

import io.wharf.server.Handler;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** HTTP/1.1 over a Unix domain socket: the URI gives the Host field, the socket the way. */
@Timeout(30)
class UnixSocketTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @TempDir
    Path directory;

    private Server server;
    private HttpClient client;

    @AfterEach
    void stop() throws Exception {
        if (client != null) {
            client.stop();
        }
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void requestsGoOverTheSocket() throws Exception {
        Path socket = directory.resolve("wharf.sock");
        server = new Server(new QueuedThreadPool(), leaks.pool());
        ServerConnector connector = new ServerConnector(server, 1, new HttpConnectionFactory());
        connector.setUnixSocket(socket);
        server.addConnector(connector);
        server.setHandler(Handler.of((request, response, callback) -> {
            io.wharf.server.Response.write(response, true, request.getHeaders().get("Host") + " " + request.getHttpURI().getPath(), callback);
            return true;
        }));
        server.start();
        client = new HttpClient();
        client.setByteBufferPool(leaks.pool());
        client.setUnixDomainPath(socket);
        client.start();
        assertEquals("service.local /one", client.GET("http://service.local/one").getContentAsString());
        assertEquals("service.local /two", client.POST("http://service.local/two").content(RequestContent.of("x")).send().getContentAsString());
        assertEquals(1, client.getDestinations().get(0).getConnectionCount());
    }
}
