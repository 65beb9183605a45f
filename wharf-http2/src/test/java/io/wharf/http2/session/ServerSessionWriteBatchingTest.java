package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.frames.FrameListener;
import io.wharf.http2.frames.FrameParser;
import io.wharf.http2.frames.Priority;
import io.wharf.http2.frames.Setting;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.io.MemoryEndPoint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.buffer.RetainableByteBuffer;

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

    private final List<String> clientSaw = new CopyOnWriteArrayList<>();
    private final FrameGenerator client = new FrameGenerator(new HpackEncoder());
    private FrameParser clientParser;
    private MemoryEndPoint clientEnd;
    private MemoryEndPoint serverEnd;
    private Http2Session session;
    /** What the server's handler does with each stream, on the thread that tells it. */
    private Consumer<Http2Stream> handler;

    @BeforeEach
    void start() {
        clientParser = FrameParser.client(new FrameLines(clientSaw::add, ":status",
                data -> StandardCharsets.US_ASCII.decode(data.getByteBuffer()) + (data.isLast() ? " END_STREAM" : "")), new HpackDecoder(), leaks.pool());
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(1 << 20, Runnable::run);
        clientEnd = pipe[0];
        serverEnd = pipe[1];
        clientEnd.onOpen();
        serverEnd.onOpen();
        session = new Http2Session(Http2Session.Role.SERVER, serverEnd, Runnable::run, null, leaks.pool(),
                new SessionConfiguration(), (stream, headers, endStream) -> handler.accept(stream));
        session.start();
        clientWrites(out -> {
            client.preface(out);
            client.settings(out, Settings.builder().build());
        });
        serverReads();
        assertEquals(List.of("SETTINGS", "SETTINGS ACK"), clientReads());
    }

    @Test
    @Timeout(10)
    void answersSentInlineWhileParsingGoOutTogetherWhenTheParseEnds() {
        List<String> seenWhileParsing = new ArrayList<>();
        handler = stream -> {
            seenWhileParsing.addAll(clientReads());
            stream.headers(HttpFields.build().add(":status", "200"), false, Callback.NOOP);
            stream.data(ByteBuffer.wrap(("hello " + stream.getId()).getBytes(StandardCharsets.US_ASCII)), true, Callback.NOOP);
        };
        clientWrites(out -> {
            client.headers(out, 1, get("/a"), null, true, 0);
            client.headers(out, 3, get("/b"), null, true, 0);
        });
        serverReads();
        assertEquals(List.of(), seenWhileParsing, "nothing is written while the buffer is parsed");
        assertEquals(List.of("HEADERS 1 200", "DATA 1 hello 1 END_STREAM", "HEADERS 3 200", "DATA 3 hello 3 END_STREAM"),
                clientReads());
        assertEquals(0, session.getStreamCount());
    }

    @Test
    @Timeout(10)
    void aSendFromAnotherThreadWhileParsingGoesOutAtOnce() {
        List<String> seenWhileParsing = new ArrayList<>();
        handler = stream -> {
            Thread other = new Thread(() -> stream.headers(HttpFields.build().add(":status", "204"), true, Callback.NOOP));
            other.start();
            try {
                other.join();
            } catch (InterruptedException x) {
                throw new AssertionError(x);
            }
            seenWhileParsing.addAll(clientReads());
        };
        clientWrites(out -> client.headers(out, 1, get("/a"), null, true, 0));
        serverReads();
        assertEquals(List.of("HEADERS 1 204 END_STREAM"), seenWhileParsing, "written before the parse ended");
        assertEquals(List.of(), clientReads());
        assertEquals(0, session.getStreamCount());
    }

    @Test
    @Timeout(10)
    void aHeadWithContentGoesAsHeadersThenDataWithinTheStreamWindowAndCompletesOnce() {
        List<String> completions = new CopyOnWriteArrayList<>();
        handler = stream -> stream.headersAndData(HttpFields.build().add(":status", "200"),
                ByteBuffer.wrap("hello world".getBytes(StandardCharsets.US_ASCII)), true,
                Callback.from(() -> completions.add("succeeded"), failure -> completions.add("failed " + failure)));
        clientWrites(out -> {
            client.settings(out, Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 4).build());
            client.headers(out, 1, get("/a"), null, true, 0);
        });
        serverReads();
        assertEquals(List.of("SETTINGS ACK", "HEADERS 1 200", "DATA 1 hell"), clientReads());
        assertEquals(List.of(), completions, "content is still waiting for the window");

        clientWrites(out -> client.windowUpdate(out, 1, 100));
        serverReads();
        assertEquals(List.of("DATA 1 o world END_STREAM"), clientReads());
        assertEquals(List.of("succeeded"), completions);
        assertEquals(0, session.getStreamCount());
    }

    private static HttpFields get(String path) {
        return HttpFields.build().add(":method", "GET").add(":scheme", "http").add(":authority", "test").add(":path", path);
    }

    private void clientWrites(Consumer<FrameBuffers> frames) {
        FrameBuffers out = new FrameBuffers(leaks.pool(), false);
        frames.accept(out);
        try {
            assertTrue(clientEnd.flush(out.toArray()));
        } catch (IOException x) {
            throw new AssertionError(x);
        } finally {
            out.release();
        }
    }

    /** Parses everything the client wrote in one call of {@link Http2Session#parse}, as one network read would. */
    private void serverReads() {
        RetainableByteBuffer network = leaks.pool().acquire(1 << 16, false);
        try {
            ByteBuffer buffer = network.byteBuffer();
            buffer.clear().limit(0);
            while (serverEnd.fill(buffer) > 0) {
                // Each fill appends after the bytes already there.
            }
            session.parse(network);
        } catch (IOException x) {
            throw new AssertionError(x);
        } finally {
            network.release();
        }
    }

    private List<String> clientReads() {
        RetainableByteBuffer network = leaks.pool().acquire(1 << 16, false);
        try {
            ByteBuffer buffer = network.byteBuffer();
            buffer.clear().limit(0);
            while (clientEnd.fill(buffer) > 0) {
                clientParser.parse(network);
                buffer.clear().limit(0);
            }
        } catch (IOException x) {
            throw new AssertionError(x);
        } finally {
            network.release();
        }
        List<String> seen = List.copyOf(clientSaw);
        clientSaw.clear();
        return seen;
    }
}
