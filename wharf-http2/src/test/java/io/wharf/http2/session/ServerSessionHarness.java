package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.FrameBuffers;
import io.wharf.http2.frames.FrameGenerator;
import io.wharf.http2.frames.FrameParser;
import io.wharf.http2.frames.Settings;
import io.wharf.http2.hpack.HpackDecoder;
import io.wharf.http2.hpack.HpackEncoder;
import io.wharf.io.MemoryEndPoint;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * A session in its server role on one end of an in-memory pipe, and a client written by hand on
 * the other: the test writes frames, has the server parse them as one network read, and reads
 * what came back as {@link FrameLines}. Each stream the peer opens goes to {@link #handler}, on
 * the thread that parses.
 */
final class ServerSessionHarness {

    /** What the server's handler does with each stream, on the thread that tells it. */
    volatile Consumer<Http2Stream> handler = stream -> { };
    final FrameGenerator client = new FrameGenerator(new HpackEncoder());
    final Http2Session session;
    private final ByteBufferPool pool;
    private final List<String> clientSaw = new CopyOnWriteArrayList<>();
    private final FrameParser clientParser;
    private final MemoryEndPoint clientEnd;
    private final MemoryEndPoint serverEnd;

    /** Opens the pipe and the session, and exchanges the prefaces. */
    ServerSessionHarness(ByteBufferPool pool) {
        this(pool, new SessionConfiguration());
    }

    /** Opens the pipe and a session with {@code configuration}, and exchanges the prefaces. */
    ServerSessionHarness(ByteBufferPool pool, SessionConfiguration configuration) {
        this.pool = pool;
        clientParser = FrameParser.client(new FrameLines(clientSaw::add, ":status",
                data -> StandardCharsets.US_ASCII.decode(data.getByteBuffer()) + (data.isLast() ? " END_STREAM" : "")), new HpackDecoder(), pool);
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(1 << 20, Runnable::run);
        clientEnd = pipe[0];
        serverEnd = pipe[1];
        clientEnd.onOpen();
        serverEnd.onOpen();
        session = new Http2Session(Http2Session.Role.SERVER, serverEnd, Runnable::run, null, pool,
                configuration, (stream, headers, endStream) -> handler.accept(stream));
        session.start();
        clientWrites(out -> {
            client.preface(out);
            client.settings(out, Settings.builder().build());
        });
        serverReads();
        assertEquals(List.of("SETTINGS", "SETTINGS ACK"), clientReads());
    }

    static HttpFields get(String path) {
        return HttpFields.build().add(":method", "GET").add(":scheme", "http").add(":authority", "test").add(":path", path);
    }

    void clientWrites(Consumer<FrameBuffers> frames) {
        FrameBuffers out = new FrameBuffers(pool, false);
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
    void serverReads() {
        RetainableByteBuffer network = pool.acquire(1 << 16, false);
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

    /** @return the frames the server wrote since the last call, as {@link FrameLines} */
    List<String> clientReads() {
        RetainableByteBuffer network = pool.acquire(1 << 16, false);
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
