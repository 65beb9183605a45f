package io.wharf.server.http2;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.session.SessionConfiguration;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Many streams on several connections at once, from several client threads, each request with
 * content and each response larger than the initial windows and written from a pool thread in
 * pieces: every response must arrive whole and in order on its stream, and no buffer may leak.
 */
class Http2StressTest {

    private static final int CONNECTIONS = 4;
    private static final int STREAMS = 60;
    private static final int PIECE = 10_000;
    private static final int PIECES = 9;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void manyStreamsOnManyConnectionsFromManyThreads() throws Exception {
        server = new Server(new QueuedThreadPool(), leaks.pool());
        SessionConfiguration session = new SessionConfiguration().setInitialStreamWindow(8192).setInitialSessionWindow(65_535)
                .setMaxConcurrentStreams(STREAMS);
        LocalConnector connector = new LocalConnector(server, 16 * 1024, new Http2CleartextConnectionFactory(new HttpConfiguration(), session));
        server.addConnector(connector);
        server.setHandler(Handler.of((request, response, callback) -> {
            String content = Request.getContentAsString(request, StandardCharsets.ISO_8859_1, 1 << 20);
            writePieces(response, content, 0, callback);
            return true;
        }));
        server.start();
        ExecutorService clients = Executors.newFixedThreadPool(CONNECTIONS);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                int connection = c;
                results.add(clients.submit(() -> exchange(connector, connection)));
            }
            for (Future<Integer> result : results) {
                assertEquals(STREAMS, result.get(60, TimeUnit.SECONDS));
            }
        } finally {
            clients.shutdownNow();
        }
    }

    /** Writes PIECES pieces of the body, each from the callback of the one before. */
    private static void writePieces(Response response, String content, int piece, Callback callback) {
        boolean last = piece == PIECES - 1;
        String text = content.repeat(PIECE / content.length() + 1).substring(0, PIECE);
        response.write(last, ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1)), last ? callback
                : Callback.from(() -> writePieces(response, content, piece + 1, callback), callback::failed));
    }

    /** Sends STREAMS requests at once, credits the windows as the responses come, checks them; @return the count */
    private static int exchange(LocalConnector connector, int connection) throws Exception {
        try (RawHttp2Client client = new RawHttp2Client(connector).start()) {
            client.settings(Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 4096).build());
            Map<Integer, StringBuilder> bodies = new HashMap<>();
            for (int i = 0; i < STREAMS; i++) {
                int stream = 1 + 2 * i;
                client.headers(stream, RawHttp2Client.request("POST", "/" + i), false);
                client.data(stream, "c" + connection + "s" + stream + ";", true);
                bodies.put(stream, new StringBuilder());
            }
            int done = 0;
            while (done < STREAMS) {
                String frame = client.await("DATA ");
                String[] parts = frame.split(" ", 3);
                int stream = Integer.parseInt(parts[1]);
                boolean end = parts[2].endsWith(" END_STREAM");
                String data = end ? parts[2].substring(0, parts[2].length() - " END_STREAM".length()) : parts[2];
                bodies.get(stream).append(data);
                if (!data.isEmpty()) {
                    client.windowUpdate(stream, data.length()).windowUpdate(0, data.length());
                }
                if (end) {
                    done++;
                    String expected = ("c" + connection + "s" + stream + ";");
                    String body = bodies.get(stream).toString();
                    assertEquals(PIECE * PIECES, body.length(), "stream " + stream);
                    assertEquals(expected.repeat(PIECE / expected.length() + 1).substring(0, PIECE).repeat(PIECES), body, "stream " + stream);
                }
            }
            return done;
        }
    }
}
