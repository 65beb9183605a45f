package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
import io.wharf.io.Content;
import io.wharf.io.MemoryEndPoint;
import io.wharf.util.Callback;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The session in its client role, against a server played frame by frame over an in-memory
 * pipe: streams opened on odd identifiers in order, the answer's interim and final header
 * blocks, content and trailers, GOAWAY and REFUSED_STREAM ending our streams as not
 * processed, and frames in flight on a stream we reset ignored.
 */
class ClientSessionTest {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final List<String> serverSaw = new CopyOnWriteArrayList<>();
    private MemoryEndPoint clientEnd;
    private MemoryEndPoint serverEnd;
    private Http2Session session;
    private final FrameGenerator server = new FrameGenerator(new HpackEncoder());
    private final FrameParser serverParser = FrameParser.server(new FrameLines(serverSaw::add, ":path", data -> String.valueOf(data.remaining())), new HpackDecoder(), ByteBufferPool.NON_POOLING);

    private final Http2Stream.Listener streamListener = new Http2Stream.Listener() {
        @Override
        public void onHeaders(Http2Stream stream, HeaderBlock headers, boolean endStream) {
            events.add(stream.getId() + " headers " + headers.pseudoHeader(":status") + (endStream ? " end" : ""));
        }

        @Override
        public void onTrailers(Http2Stream stream, HeaderBlock trailers) {
            events.add(stream.getId() + " trailers " + trailers.fields().get("x-sum"));
        }

        @Override
        public void onReset(Http2Stream stream, ErrorCode error, Throwable cause) {
            events.add(stream.getId() + " reset " + error + " " + cause.getClass().getSimpleName());
        }
    };

    @BeforeEach
    void start() {
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(1 << 20, Runnable::run);
        clientEnd = pipe[0];
        serverEnd = pipe[1];
        clientEnd.onOpen();
        serverEnd.onOpen();
        session = new Http2Session(Http2Session.Role.CLIENT, clientEnd, Runnable::run, null, ByteBufferPool.NON_POOLING,
                new SessionConfiguration(), new Http2Session.Listener() {
                    @Override
                    public void onStream(Http2Stream stream, HeaderBlock headers, boolean endStream) {
                        events.add("pushed " + stream.getId());
                    }

                    @Override
                    public void onSettings(Settings settings) {
                        events.add("settings " + settings.get(Setting.MAX_CONCURRENT_STREAMS));
                    }

                    @Override
                    public void onGoAway(int lastStreamId, ErrorCode error) {
                        events.add("goaway " + lastStreamId + " " + error);
                    }
                });
        session.start();
        serverWrites(out -> server.settings(out, Settings.builder().set(Setting.MAX_CONCURRENT_STREAMS, 7).build()));
        clientReads();
    }

    private static HttpFields get(String path) {
        return HttpFields.build().add(":method", "GET").add(":scheme", "http").add(":authority", "test").add(":path", path);
    }

    private static HttpFields status(int status) {
        return HttpFields.build().add(":status", Integer.toString(status));
    }

    private void serverWrites(Consumer<FrameBuffers> frames) {
        FrameBuffers out = new FrameBuffers(ByteBufferPool.NON_POOLING, false);
        frames.accept(out);
        try {
            assertTrue(serverEnd.flush(out.toArray()));
        } catch (IOException x) {
            throw new AssertionError(x);
        }
        out.release();
    }

    private void clientReads() {
        RetainableByteBuffer network = ByteBufferPool.NON_POOLING.acquire(1 << 16, false);
        try {
            ByteBuffer buffer = network.byteBuffer();
            buffer.clear().limit(0);
            while (clientEnd.fill(buffer) > 0) {
                session.parse(network);
                buffer.clear().limit(0);
            }
        } catch (IOException x) {
            throw new AssertionError(x);
        } finally {
            network.release();
        }
    }

    private List<String> serverReads() {
        RetainableByteBuffer network = ByteBufferPool.NON_POOLING.acquire(1 << 16, false);
        try {
            ByteBuffer buffer = network.byteBuffer();
            buffer.clear().limit(0);
            while (serverEnd.fill(buffer) > 0) {
                serverParser.parse(network);
                buffer.clear().limit(0);
            }
        } catch (IOException x) {
            throw new AssertionError(x);
        } finally {
            network.release();
        }
        List<String> seen = List.copyOf(serverSaw);
        serverSaw.clear();
        return seen;
    }

    private Http2Stream open(String path, List<Throwable> failures) {
        return session.newStream(get(path), true, streamListener, Callback.from(() -> { }, failures::add));
    }

    @Test
    void streamsTakeOddIdentifiersInOrderAndHearTheirAnswer() {
        assertEquals(List.of("settings 7"), events, "the server's SETTINGS are told");
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Http2Stream first = open("/a", failures);
        Http2Stream second = open("/b", failures);
        assertEquals(1, first.getId());
        assertEquals(3, second.getId());
        List<String> seen = serverReads();
        assertTrue(seen.containsAll(List.of("HEADERS 1 /a END_STREAM", "HEADERS 3 /b END_STREAM")), seen.toString());
        assertTrue(seen.indexOf("HEADERS 1 /a END_STREAM") < seen.indexOf("HEADERS 3 /b END_STREAM"), seen.toString());

        serverWrites(out -> {
            server.headers(out, 1, status(103), null, false, 0);
            server.headers(out, 1, status(200), null, false, 0);
            server.data(out, 1, ByteBuffer.wrap("hi".getBytes(StandardCharsets.US_ASCII)), false, 0);
            server.headers(out, 1, HttpFields.build().add("x-sum", "42"), null, true, 0);
            server.headers(out, 3, status(204), null, true, 0);
        });
        clientReads();
        assertEquals(List.of("settings 7", "1 headers 103", "1 headers 200", "1 trailers 42", "3 headers 204 end"), events);
        Content.Chunk content = first.read();
        assertEquals("hi", StandardCharsets.US_ASCII.decode(content.getByteBuffer()).toString());
        content.release();
        assertTrue(first.read().isLast());
        assertTrue(second.read().isLast());
        assertEquals(StreamState.CLOSED, first.getState());
        assertEquals(0, session.getStreamCount());
        assertTrue(failures.isEmpty(), failures.toString());
    }

    @Test
    void aGoAwayEndsOurStreamsAboveItsLastAsNotProcessed() {
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Http2Stream kept = open("/a", failures);
        open("/b", failures);
        serverReads();
        serverWrites(out -> server.goAway(out, 1, ErrorCode.NO_ERROR, "bye"));
        clientReads();
        assertEquals(List.of("settings 7", "3 reset REFUSED_STREAM StreamNotProcessedException", "goaway 1 NO_ERROR"), events);
        assertEquals(StreamState.HALF_CLOSED_LOCAL, kept.getState(), "stream 1 was processed and goes on");
        assertNull(open("/c", failures), "no new stream after a GOAWAY");
        assertInstanceOf(StreamNotProcessedException.class, failures.get(0));
        serverWrites(out -> server.headers(out, 1, status(200), null, true, 0));
        clientReads();
        assertTrue(events.contains("1 headers 200 end"), events.toString());
    }

    @Test
    void refusedStreamIsNotProcessed() {
        open("/a", new CopyOnWriteArrayList<>());
        serverReads();
        serverWrites(out -> server.rstStream(out, 1, ErrorCode.REFUSED_STREAM));
        clientReads();
        assertEquals(List.of("settings 7", "1 reset REFUSED_STREAM StreamNotProcessedException"), events);
    }

    /**
     * A stream reset while its HEADERS still wait behind other writes was never opened for the
     * server: an RST_STREAM on it would be on an idle stream, a connection error (RFC 9113
     * section 6.4), so none goes, and nothing of the stream does; the next stream goes on.
     */
    @Test
    void aStreamResetBeforeItsHeadersWentOutIsNeverAnnounced() {
        // Windows wider than the pipe and a server that reads nothing yet: the upload stalls the writes.
        serverWrites(out -> {
            server.settings(out, Settings.builder().set(Setting.INITIAL_WINDOW_SIZE, 1 << 30).build());
            server.windowUpdate(out, 0, 1 << 30);
        });
        clientReads();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        Http2Stream upload = session.newStream(get("/up"), false, streamListener, Callback.from(() -> { }, failures::add));
        upload.data(ByteBuffer.allocate(2 << 20), true, Callback.from(() -> { }, failures::add));
        Http2Stream cancelled = open("/cancelled", failures);
        cancelled.reset(ErrorCode.CANCEL);
        assertEquals(StreamState.CLOSED, cancelled.getState());
        open("/next", failures);

        List<String> seen = serverReads().stream().filter(frame -> !frame.startsWith("DATA 1 ")).toList();
        assertTrue(seen.contains("HEADERS 5 /next END_STREAM"), seen.toString());
        assertTrue(seen.stream().noneMatch(frame -> frame.matches("[A-Z_]+ 3( .*)?")), "nothing of the unannounced stream 3: " + seen);
        assertEquals(List.of("settings 7", "settings -1", "3 reset CANCEL IOException"), events);
        assertEquals(1, failures.size(), "the HEADERS never written fail: " + failures);
    }

    /**
     * Cancelling our own streams is no rapid reset: more cancels in a second than the reset
     * budget (128) leave the connection up, each one an RST_STREAM after its HEADERS.
     */
    @Test
    void ourOwnCancelsDoNotSpendTheResetBudget() {
        assertEquals(List.of("SETTINGS", "SETTINGS ACK"), serverReads());
        for (int i = 0; i < 300; i++) {
            Http2Stream stream = open("/" + i, new CopyOnWriteArrayList<>());
            int opened = i;
            assertNotNull(stream, () -> "stream " + opened + " opened: " + session + ", the server saw " + serverReads());
            stream.reset(ErrorCode.CANCEL);
            List<String> seen = serverReads();
            assertEquals(List.of("HEADERS " + stream.getId() + " /" + i + " END_STREAM", "RST_STREAM " + stream.getId() + " 8"), seen);
        }
        assertEquals(SessionState.OPEN, session.getState());
    }

    @Test
    void framesInFlightOnAStreamWeResetAreIgnored() {
        Http2Stream stream = open("/a", new CopyOnWriteArrayList<>());
        stream.reset(ErrorCode.CANCEL);
        assertTrue(serverReads().contains("RST_STREAM 1 8"));
        serverWrites(out -> {
            server.headers(out, 1, status(200), null, false, 0);
            server.data(out, 1, ByteBuffer.wrap(new byte[100]), true, 0);
        });
        clientReads();
        assertEquals(SessionState.OPEN, session.getState(), "no connection error for frames on a stream we reset");
        List<String> seen = serverReads();
        assertTrue(seen.stream().noneMatch(frame -> frame.startsWith("GOAWAY")), seen.toString());
        assertNotNull(open("/b", new CopyOnWriteArrayList<>()));
        assertTrue(serverReads().contains("HEADERS 3 /b END_STREAM"));
    }
}
