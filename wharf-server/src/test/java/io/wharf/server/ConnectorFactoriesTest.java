package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.function.Function;

import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A connector has no protocol of its own: the server's core names none (HTTP/1.1 is the
 * {@code io.wharf.server.http1} package's, as HTTP/2 is {@code io.wharf.server.http2}'s), so
 * every way to make one without a connection factory fails at once, saying what to pass,
 * rather than serving a protocol nobody asked for.
 */
class ConnectorFactoriesTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void aServerConnectorWithoutAFactoryIsRefused() {
        assertRefused("ServerConnector", server -> new ServerConnector(server));
        assertRefused("ServerConnector", server -> new ServerConnector(server, 1));
    }

    @Test
    void aLocalConnectorWithoutAFactoryIsRefused() {
        assertRefused("LocalConnector", server -> new LocalConnector(server));
        assertRefused("LocalConnector", server -> new LocalConnector(server, 1024));
    }

    @Test
    void aServerOnAPortWithoutAFactoryIsRefused() {
        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, () -> new Server(0));
        assertNamesWhatToPass("ServerConnector", refusal);
    }

    @Test
    void theFirstFactoryGivenIsTheConnectorsProtocol() {
        Server server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConnectionFactory http = new HttpConnectionFactory();
        LocalConnector connector = new LocalConnector(server, http);
        assertEquals(http, connector.getConnectionFactory("HTTP/1.1"));
        assertEquals(http, connector.getConnectionFactory(HttpConnectionFactory.class));
    }

    private void assertRefused(String connector, Function<Server, AbstractConnector> make) {
        Server server = new Server(new QueuedThreadPool(), leaks.pool());
        IllegalArgumentException refusal = assertThrows(IllegalArgumentException.class, () -> make.apply(server));
        assertNamesWhatToPass(connector, refusal);
    }

    private static void assertNamesWhatToPass(String connector, IllegalArgumentException refusal) {
        String message = refusal.getMessage();
        assertTrue(message.startsWith(connector + " needs at least one connection factory"), message);
        assertTrue(message.contains("new io.wharf.server.http1.HttpConnectionFactory()"), message);
    }
}
