package io.wharf.http2.session;

import static io.wharf.http2.session.ServerSessionHarness.get;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The session in its server role writes what the reading thread sends while it parses (a
 * handler answering inline) once the parse of the buffer ends, all the answers together,
 * while a send from another thread goes out at once.
 */
@Timeout(10)
class ServerSessionWriteBatchingTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private ServerSessionHarness peer;

    @BeforeEach
    void start() {
        peer = new ServerSessionHarness(leaks.pool());
    }

    @Test
    @Timeout(10)
    void answersSentInlineWhileParsingGoOutTogetherWhenTheParseEnds() {
        List<String> seenWhileParsing = new ArrayList<>();
        peer.handler = stream -> {
            seenWhileParsing.addAll(peer.clientReads());
            stream.headers(HttpFields.build().add(":status", "200"), false, Callback.NOOP);
            stream.data(ByteBuffer.wrap(("hello " + stream.getId()).getBytes(StandardCharsets.US_ASCII)), true, Callback.NOOP);
        };
        peer.clientWrites(out -> {
            peer.client.headers(out, 1, get("/a"), null, true, 0);
            peer.client.headers(out, 3, get("/b"), null, true, 0);
        });
        peer.serverReads();
        assertEquals(List.of(), seenWhileParsing, "nothing is written while the buffer is parsed");
        assertEquals(List.of("HEADERS 1 200", "DATA 1 hello 1 END_STREAM", "HEADERS 3 200", "DATA 3 hello 3 END_STREAM"),
                peer.clientReads());
        assertEquals(0, peer.session.getStreamCount());
    }

    @Test
    @Timeout(10)
    void aSendFromAnotherThreadWhileParsingGoesOutAtOnce() {
        List<String> seenWhileParsing = new ArrayList<>();
        peer.handler = stream -> {
            Thread other = new Thread(() -> stream.headers(HttpFields.build().add(":status", "204"), true, Callback.NOOP));
            other.start();
            try {
                other.join();
            } catch (InterruptedException x) {
                throw new AssertionError(x);
            }
            seenWhileParsing.addAll(peer.clientReads());
        };
        peer.clientWrites(out -> peer.client.headers(out, 1, get("/a"), null, true, 0));
        peer.serverReads();
        assertEquals(List.of("HEADERS 1 204 END_STREAM"), seenWhileParsing, "written before the parse ended");
        assertEquals(List.of(), peer.clientReads());
        assertEquals(0, peer.session.getStreamCount());
    }

    @Test
    @Timeout(10)
    void aHeadWithContentGoesAsHeadersThenDataWithinTheStreamWindowAndCompletesOnce() {
        List<String> completions = new CopyOnWriteArrayList<>();
        peer.handler = stream -> stream.headersAndData(HttpFields.build().add(":status", "200"),
                ByteBuffer.wrap("hello world".getBytes(StandardCharsets.US_ASCII)), true,
                Callback.from(() -> completions.add("succeeded"), failure -> completions.add("failed " + failure)));
        peer.clientWrites(out -> {
            peer.client.settings(out, Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 4).build());
            peer.client.headers(out, 1, get("/a"), null, true, 0);
        });
        peer.serverReads();
        assertEquals(List.of("SETTINGS ACK", "HEADERS 1 200", "DATA 1 hell"), peer.clientReads());
        assertEquals(List.of(), completions, "content is still waiting for the window");

        peer.clientWrites(out -> peer.client.windowUpdate(out, 1, 100));
        peer.serverReads();
        assertEquals(List.of("DATA 1 o world END_STREAM"), peer.clientReads());
        assertEquals(List.of("succeeded"), completions);
        assertEquals(0, peer.session.getStreamCount());
    }
}
