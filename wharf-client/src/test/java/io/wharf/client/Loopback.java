package io.wharf.client;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import io.wharf.io.ssl.SslConnectionFactory;
import io.wharf.server.Handler;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test fixture: the client and the servers of one test, all on the test's leak-tracking
 * buffer pool, stopped after the test (after its {@code @AfterEach} methods, before the leak
 * check of a {@link LeakTracking} registered earlier in the class).
 */
final class Loopback implements AfterEachCallback {

    private final LeakTracking leaks;
    private final List<AutoCloseable> servers = new ArrayList<>();
    private HttpClient client;

    Loopback(LeakTracking leaks) {
        this.leaks = leaks;
    }

    /** @return Wharf's server with {@code handler}, started on 127.0.0.1 */
    TestServer server(Handler handler) throws Exception {
        return server(handler, null);
    }

    /** @return Wharf's server with {@code handler} and this idle timeout (null for its default), started */
    TestServer server(Handler handler, Duration idleTimeout) throws Exception {
        TestServer server = new TestServer(leaks.pool(), handler, idleTimeout);
        servers.add(server);
        return server;
    }

    /** @return Wharf's server with {@code handler} over TLS made by {@code tls}, started on 127.0.0.1 */
    TestServer tlsServer(Handler handler, SslConnectionFactory tls) throws Exception {
        TestServer server = new TestServer(leaks.pool(), handler, null, tls);
        servers.add(server);
        return server;
    }

    /** @return Wharf's server with {@code handler}, started on the Unix domain socket {@code socket} */
    TestServer unixServer(Handler handler, Path socket) throws Exception {
        TestServer server = new TestServer(leaks.pool(), handler, socket);
        servers.add(server);
        return server;
    }

    /** @return the Python Digest server, started on a free loopback port */
    DigestServer digestServer() throws Exception {
        DigestServer server = new DigestServer();
        servers.add(server);
        return server;
    }

    /** @return a scripted socket server playing {@code scripts} */
    ScriptedServer scripted(ScriptedServer.Script... scripts) throws Exception {
        ScriptedServer server = new ScriptedServer(scripts);
        servers.add(server);
        return server;
    }

    /** @return the test's client, started at the first call */
    HttpClient client() throws Exception {
        return client(configured -> {
        });
    }

    /** @return the test's client, set up by {@code setup} before it starts at the first call */
    HttpClient client(Consumer<HttpClient> setup) throws Exception {
        return client(HttpTransport.HTTP_1_1, setup);
    }

    /** @return Wharf's server with {@code handler} speaking HTTP/2 (and HTTP/1.1) as {@code setup} says, started */
    Http2TestServer http2Server(Handler handler, Consumer<Http2TestServer.Setup> setup) throws Exception {
        Http2TestServer server = new Http2TestServer(leaks.pool(), handler, setup);
        servers.add(server);
        return server;
    }

    /** @return the test's client speaking what {@code transport} says, set up by {@code setup} before it starts at the first call */
    HttpClient client(HttpTransport transport, Consumer<HttpClient> setup) throws Exception {
        if (client == null) {
            client = new HttpClient(transport);
            client.setByteBufferPool(leaks.pool());
            setup.accept(client);
            client.start();
        }
        return client;
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        if (client != null) {
            client.stop();
            client = null;
        }
        for (AutoCloseable server : servers) {
            server.close();
        }
        servers.clear();
    }
}
