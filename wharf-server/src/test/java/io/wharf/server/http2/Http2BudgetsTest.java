package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The budgets that bound what a client can make an HTTP/2 server do: each flood ends with
 * GOAWAY ENHANCE_YOUR_CALM and a closed connection, while traffic within the budget is
 * served. Raw frames over the in-memory connector, on the leak-tracking pool.
 */
class Http2BudgetsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    final SessionConfiguration session = new SessionConfiguration();
    Server server;

    LocalConnector start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration http = new HttpConfiguration();
        LocalConnector connector = new LocalConnector(server, new Http2CleartextConnectionFactory(http, session));
        server.addConnector(connector);
        server.setHandler(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, "ok", callback);
            return true;
        }));
        server.start();
        return connector;
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** @return the GOAWAY among the frames until the server closed; fails when there is none */
    private static String goAway(RawHttp2Client client) throws Exception {
        List<String> frames = client.untilClosed();
        return frames.stream().filter(frame -> frame.startsWith("GOAWAY")).findFirst()
                .orElseThrow(() -> new AssertionError("no GOAWAY in " + frames.subList(Math.max(0, frames.size() - 5), frames.size())));
    }

    @Test
    void rapidResetEndsTheConnection() throws Exception {
        session.setResetBudget(20);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            for (int stream = 1; stream < 2 * 25; stream += 2) {
                client.headers(stream, RawHttp2Client.request("GET", "/"), false);
                client.rst(stream, ErrorCode.CANCEL);
            }
            String goAway = goAway(client);
            assertTrue(goAway.contains("ENHANCE_YOUR_CALM"), goAway);
            assertTrue(goAway.contains("resets"), goAway);
        }
    }

    @Test
    void resetsTheServerIsMadeToSendCountToo() throws Exception {
        session.setResetBudget(10);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            for (int stream = 1; stream < 2 * 15; stream += 2) {
                // te: gzip makes the request malformed: the server must reset it.
                client.headers(stream, RawHttp2Client.request("GET", "/").add("te", "gzip"), true);
            }
            String goAway = goAway(client);
            assertTrue(goAway.contains("ENHANCE_YOUR_CALM"), goAway);
        }
    }

    @Test
    void resetsWithinTheBudgetAreServedOn() throws Exception {
        session.setResetBudget(20);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            for (int stream = 1; stream < 2 * 10; stream += 2) {
                client.headers(stream, RawHttp2Client.request("GET", "/"), false);
                client.rst(stream, ErrorCode.CANCEL);
            }
            client.get(101, "/");
            assertEquals("DATA 101 ok END_STREAM", client.await("DATA 101"));
        }
    }

    @Test
    void pingFloodEndsTheConnection() throws Exception {
        session.setPingBudget(30);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            for (int i = 0; i < 40; i++) {
                client.ping(i);
            }
            String goAway = goAway(client);
            assertTrue(goAway.contains("ENHANCE_YOUR_CALM") && goAway.contains("PING"), goAway);
        }
    }

    @Test
    void settingsFloodEndsTheConnection() throws Exception {
        session.setSettingsBudget(30);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            for (int i = 0; i < 40; i++) {
                client.settings(Settings.EMPTY);
            }
            String goAway = goAway(client);
            assertTrue(goAway.contains("ENHANCE_YOUR_CALM") && goAway.contains("SETTINGS"), goAway);
        }
    }

    @Test
    void emptyDataFloodEndsTheConnection() throws Exception {
        session.setEmptyDataBudget(30);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            client.headers(1, RawHttp2Client.request("POST", "/"), false);
            for (int i = 0; i < 40; i++) {
                client.data(1, "", false);
            }
            String goAway = goAway(client);
            assertTrue(goAway.contains("ENHANCE_YOUR_CALM") && goAway.contains("empty DATA"), goAway);
        }
    }

    @Test
    void priorityFloodEndsTheConnection() throws Exception {
        session.setPriorityBudget(30);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            for (int i = 0; i < 40; i++) {
                client.priority(1001 + 2 * i);
            }
            String goAway = goAway(client);
            assertTrue(goAway.contains("ENHANCE_YOUR_CALM") && goAway.contains("PRIORITY"), goAway);
        }
    }

    @Test
    void unknownFrameFloodEndsTheConnection() throws Exception {
        session.setUnknownFrameBudget(30);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            for (int i = 0; i < 40; i++) {
                client.raw(RawHttp2Client.frame(0x42, 0, 0, 8));
            }
            String goAway = goAway(client);
            assertTrue(goAway.contains("ENHANCE_YOUR_CALM") && goAway.contains("unknown"), goAway);
        }
    }

    @Test
    void aPeerThatNeverAcknowledgesOurSettingsTimesOut() throws Exception {
        session.setSettingsTimeout(Duration.ofMillis(300));
        try (RawHttp2Client client = new RawHttp2Client(start())) {
            client.raw(RawHttp2Client.PREFACE);
            client.settings(Settings.EMPTY);
            String goAway = goAway(client);
            assertTrue(goAway.contains("SETTINGS_TIMEOUT"), goAway);
        }
    }

    @Test
    void aBadFrameIsAConnectionErrorWithItsCode() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            // WINDOW_UPDATE on stream 0 with a 5-octet payload: FRAME_SIZE_ERROR.
            client.raw(RawHttp2Client.frame(0x8, 0, 0, 5));
            String goAway = goAway(client);
            assertTrue(goAway.contains("FRAME_SIZE_ERROR"), goAway);
        }
    }
}
