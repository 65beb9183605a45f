package io.wharf.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.server.proxy.ProxyConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A graceful stop that lands just as an HTTP/1.1 connection goes idle after its response: the
 * connection asks for more input while the stop looks for idle connections to close. Whichever
 * comes second must close it; before, the stop could read the connection as busy and the
 * connection then wait for input without reading the stop, so the stop lasted until the idle
 * timeout (CI saw {@code connector.shutdown()} time out once). Many stops, each right after a
 * response, on handlers of both invocation types.
 */
@Timeout(120)
class GracefulStopRaceTest {

    private static final int ROUNDS = 400;
    private static final Duration WAIT = Duration.ofSeconds(5);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @ParameterizedTest
    @EnumSource(value = InvocationType.class, names = {"NON_BLOCKING", "BLOCKING"})
    void aStopRightAfterAResponseClosesTheIdleConnection(InvocationType type) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            LocalConnector connector = start(type, false);
            try (LocalConnector.Client client = connector.connect()) {
                client.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
                String answer = client.readResponse(WAIT);
                assertTrue(answer != null && answer.startsWith("HTTP/1.1 200 OK\r\n"), String.valueOf(answer));
                awaitStop(connector, round);
            } finally {
                connector.getServer().stop();
            }
        }
    }

    /**
     * A stop that lands while a PROXY header is being taken: the connection after it must learn of
     * the stop too, though the stop may have found the PROXY connection at its end, past closing
     * and before the HTTP/1.1 connection took over (it then waited for a request until its idle
     * timeout).
     */
    @ParameterizedTest
    @EnumSource(value = InvocationType.class, names = {"NON_BLOCKING", "BLOCKING"})
    void aStopDuringAProxyHeaderReachesTheConnectionAfterIt(InvocationType type) throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            LocalConnector connector = start(type, true);
            try (LocalConnector.Client client = connector.connect()) {
                client.send("PROXY TCP4 192.0.2.1 192.0.2.2 1 2\r\n");
                awaitStop(connector, round);
            } finally {
                connector.getServer().stop();
            }
        }
    }

    private LocalConnector start(InvocationType type, boolean proxied) throws Exception {
        Server server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConnectionFactory http = new HttpConnectionFactory(new HttpConfiguration());
        LocalConnector connector = proxied ? new LocalConnector(server, new ProxyConnectionFactory(), http) : new LocalConnector(server, http);
        // Far beyond the wait below: a missed close shows as a stop that does not finish.
        connector.setIdleTimeout(Duration.ofMinutes(5));
        server.addConnector(connector);
        server.setHandler(Handler.of(type, (request, response, callback) -> {
            Response.write(response, true, "ok", callback);
            return true;
        }));
        server.start();
        return connector;
    }

    private static void awaitStop(LocalConnector connector, int round) throws Exception {
        try {
            connector.shutdown().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException x) {
            throw new AssertionError("round " + round + ": the graceful stop missed the idle connection", x);
        }
        assertEquals(0, connector.getConnectionCount());
    }
}
