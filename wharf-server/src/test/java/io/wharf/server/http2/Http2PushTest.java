package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.wharf.http.HttpHeader;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.handler.push.PushHandler;
import io.wharf.server.handler.push.ReferrerPushStrategy;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Server push over raw h2c frames: what the {@link PushHandler} learned is promised before the
 * page and answered on the promised streams; a client that disabled push gets a 103 instead; a
 * client that refuses pushes is not punished; the client's stream limit bounds the pushes.
 */
class Http2PushTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final ReferrerPushStrategy strategy = new ReferrerPushStrategy();
    /** While set, resources (not pages) are answered only when the test releases them. */
    private volatile boolean holdResources;
    private final List<Runnable> held = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final SessionConfiguration session = new SessionConfiguration();
    private Server server;

    private LocalConnector start() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        HttpConfiguration http = new HttpConfiguration();
        http.setSendDateHeader(false);
        http.setSendServerVersion(false);
        LocalConnector connector = new LocalConnector(server, new HttpConnectionFactory(http), new Http2CleartextConnectionFactory(http, session));
        server.addConnector(connector);
        server.setHandler(new PushHandler(strategy, Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            String path = request.getHttpURI().getPath();
            Runnable answer = () -> Response.write(response, true, "content of " + path
                    + (request.getHeaders().contains(HttpHeader.USER_AGENT) ? " for " + request.getHeaders().get(HttpHeader.USER_AGENT) : ""), callback);
            if (holdResources && path.contains(".")) {
                held.add(answer);
            } else {
                answer.run();
            }
            return true;
        })));
        server.start();
        return connector;
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    /** The first visit of a browser: the page on stream 1, then its resources naming it as referrer. */
    private static void teach(RawHttp2Client client) throws Exception {
        client.get(1, "/");
        client.await(frame -> frame.startsWith("DATA 1 ") && frame.endsWith("END_STREAM"));
        int stream = 3;
        for (String resource : List.of("/site.css", "/app.js")) {
            client.headers(stream, RawHttp2Client.request("GET", resource).add("referer", "http://localhost/"), true);
            int id = stream;
            client.await(frame -> frame.startsWith("DATA " + id + " ") && frame.endsWith("END_STREAM"));
            stream += 2;
        }
    }

    @Test
    void learnedResourcesArePromisedBeforeThePageAndAnsweredOnTheirStreams() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            teach(client);
            client.headers(7, RawHttp2Client.request("GET", "/").add("user-agent", "raw"), true);
            List<String> frames = new ArrayList<>();
            while (frames.size() < 8) {
                String frame = client.next();
                if (!frame.startsWith("WINDOW_UPDATE") && !frame.startsWith("SETTINGS")) {
                    frames.add(frame);
                }
            }
            String cssPromise = "PUSH_PROMISE 7 2 :method=GET :scheme=http :authority=localhost :path=/site.css user-agent=raw";
            String jsPromise = "PUSH_PROMISE 7 4 :method=GET :scheme=http :authority=localhost :path=/app.js user-agent=raw";
            assertEquals(cssPromise, frames.get(0), frames.toString());
            assertTrue(frames.contains(jsPromise), frames.toString());
            assertTrue(frames.contains("HEADERS 2 :status=200 content-length=28"), frames.toString());
            assertTrue(frames.contains("DATA 2 content of /site.css for raw END_STREAM"), frames.toString());
            assertTrue(frames.contains("DATA 4 content of /app.js for raw END_STREAM"), frames.toString());
            assertTrue(frames.contains("DATA 7 content of / for raw END_STREAM"), frames.toString());
            // Each promise comes before anything of its stream, and both before the page.
            assertTrue(frames.indexOf(jsPromise) < frames.indexOf("HEADERS 4 :status=200 content-length=26"), frames.toString());
            assertTrue(frames.indexOf(jsPromise) < frames.indexOf("HEADERS 7 :status=200 content-length=20"), frames.toString());
            // The connection goes on; pushed streams are done and forgotten.
            client.get(9, "/again");
            assertEquals("DATA 9 content of /again END_STREAM", client.await("DATA 9"));
        }
    }

    @Test
    void aClientThatDisabledPushGetsEarlyHintsInstead() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start()).start(Settings.builder().set(Setting.ENABLE_PUSH, 0).build())) {
            teach(client);
            client.get(7, "/");
            assertEquals("HEADERS 7 :status=103 link=</site.css>; rel=preload; as=style link=</app.js>; rel=preload; as=script",
                    client.await("HEADERS 7"));
            assertEquals("HEADERS 7 :status=200 content-length=12", client.await("HEADERS 7"));
            assertEquals("DATA 7 content of / END_STREAM", client.await("DATA 7"));
        }
    }

    @Test
    void refusingPushesCostsTheClientNothing() throws Exception {
        session.setResetBudget(20);
        try (RawHttp2Client client = new RawHttp2Client(start()).start()) {
            teach(client);
            int stream = 7;
            for (int i = 0; i < 50; i++, stream += 2) {
                client.get(stream, "/");
                String promise = client.await("PUSH_PROMISE " + stream);
                int promised = Integer.parseInt(promise.split(" ")[2]);
                client.rst(promised, ErrorCode.CANCEL);
                int id = stream;
                client.await(frame -> frame.startsWith("DATA " + id + " ") && frame.endsWith("END_STREAM"));
            }
            client.get(stream, "/again");
            int last = stream;
            assertEquals("DATA " + last + " content of /again END_STREAM", client.await("DATA " + last), "50 refused pushes, no GOAWAY");
        }
    }

    @Test
    void theClientsStreamLimitBoundsThePushes() throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(start()).start(Settings.builder().set(Setting.MAX_CONCURRENT_STREAMS, 1).build())) {
            teach(client);
            holdResources = true;
            client.get(7, "/");
            List<String> promises = new ArrayList<>();
            for (String frame = client.next(); !frame.equals("DATA 7 content of / END_STREAM"); frame = client.next()) {
                if (frame.startsWith("PUSH_PROMISE")) {
                    promises.add(frame);
                }
            }
            assertEquals(1, promises.size(), "one pushed stream at a time while the first is under way: " + promises);
            held.forEach(Runnable::run);
            assertEquals("DATA 2 content of /site.css END_STREAM", client.await("DATA 2"));
        }
    }
}
