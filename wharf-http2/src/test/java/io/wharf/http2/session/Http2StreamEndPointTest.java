package io.wharf.http2.session;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.List;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.http2.hpack.HeaderBlock;
import io.wharf.io.AbstractConnection;
import io.wharf.io.EndPoint;
import io.wharf.io.MemoryEndPoint;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.TimerScheduler;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link Http2StreamEndPoint} between a client and a server session over an in-memory pipe,
 * under the leak-tracking pool, with 65,535-octet stream windows: bytes both ways well beyond
 * the windows (the writes complete as the peer reads and credits them), a close that ends the
 * stream with END_STREAM both ways even while a read is pending, a close with a cause and a
 * peer's reset that reset the stream, and the session's end closing the endpoint.
 */
@Timeout(30)
class Http2StreamEndPointTest {

    private static final long WAIT = 10;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final TimerScheduler scheduler = new TimerScheduler();
    private final SessionConfiguration config = new SessionConfiguration().setInitialStreamWindow(65_535);
    private final CompletableFuture<Recorder> serverSide = new CompletableFuture<>();
    private final List<String> resets = new CopyOnWriteArrayList<>();
    private Side client;
    private Side server;

    /** One end of the pipe: reads the network into its session. */
    final class Side extends AbstractConnection {
        final Http2Session session;
        private final NetworkReader reader;

        Side(MemoryEndPoint end, Http2Session.Role role, Http2Session.Listener listener) {
            super(end, executor);
            session = new Http2Session(role, end, executor, scheduler, leaks.pool(), config, listener);
            reader = new NetworkReader(session, leaks.pool(), 4096);
        }

        @Override
        public void onOpen() {
            super.onOpen();
            session.start();
            fillInterested();
        }

        @Override
        public void onFillable() {
            try {
                if (reader.read() == 0) {
                    if (getEndPoint().isOpen()) {
                        fillInterested();
                    }
                    return;
                }
                getEndPoint().close();
            } catch (Throwable x) {
                getEndPoint().close(x);
            }
        }

        @Override
        public void onClose(Throwable cause) {
            session.onClose(cause);
            super.onClose(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    /** A connection over a stream endpoint that keeps what it reads and how it ended. */
    static final class Recorder extends AbstractConnection {
        final ByteArrayOutputStream read = new ByteArrayOutputStream();
        final CompletableFuture<Void> endOfInput = new CompletableFuture<>();
        final CompletableFuture<Throwable> closed = new CompletableFuture<>();
        private final ByteBuffer buffer = ByteBuffer.allocate(1000);
        private volatile boolean closeAtEnd = true;
        private volatile boolean reading = true;

        Recorder(EndPoint endPoint) {
            super(endPoint, Runnable::run);
        }

        @Override
        public void onOpen() {
            super.onOpen();
            if (reading) {
                fillInterested();
            }
        }

        @Override
        public void onFillable() {
            try {
                while (true) {
                    buffer.clear().limit(0);
                    int filled = getEndPoint().fill(buffer);
                    if (filled == 0) {
                        fillInterested();
                        return;
                    }
                    if (filled < 0) {
                        endOfInput.complete(null);
                        if (closeAtEnd) {
                            getEndPoint().close();
                        }
                        return;
                    }
                    synchronized (read) {
                        read.write(buffer.array(), buffer.position(), buffer.remaining());
                    }
                }
            } catch (IOException x) {
                getEndPoint().close(x);
            }
        }

        @Override
        public void onClose(Throwable cause) {
            super.onClose(cause);
            closed.complete(cause);
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }

        byte[] bytes() {
            synchronized (read) {
                return read.toByteArray();
            }
        }
    }

    @BeforeEach
    void connect() throws Exception {
        scheduler.start();
        // A pipe large enough that the sessions' writes are never partial. With a 16 KiB pipe, in
        // roughly one run of five to ten, a session reads a frame header out of step (FRAME_SIZE_ERROR
        // on a length of millions, or ENHANCE_YOUR_CALM after garbage parsed as control frames),
        // also when this test writes with Http2Stream.data instead of this endpoint: a problem of
        // the sessions over MemoryEndPoint's partial writes, not found yet (the loopback TCP suites
        // of wharf-websocket have not shown it).
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(1024 * 1024, executor, scheduler);
        server = new Side(pipe[1], Http2Session.Role.SERVER, new Http2Session.Listener() {
            @Override
            public void onStream(Http2Stream stream, HeaderBlock headers, boolean endStream) {
                stream.headers(HttpFields.build().add(":status", "200"), false, Callback.NOOP);
                serverSide.complete(open(new Http2StreamEndPoint(stream)));
            }
        });
        client = new Side(pipe[0], Http2Session.Role.CLIENT, (stream, headers, endStream) -> stream.reject(ErrorCode.PROTOCOL_ERROR));
        pipe[0].setConnection(client);
        pipe[1].setConnection(server);
        pipe[0].onOpen();
        pipe[1].onOpen();
        server.onOpen();
        client.onOpen();
    }

    @AfterEach
    void stop() throws Exception {
        client.getEndPoint().close();
        server.getEndPoint().close();
        executor.shutdown();
        executor.awaitTermination(5, TimeUnit.SECONDS);
        scheduler.stop();
    }

    private static Recorder open(Http2StreamEndPoint endPoint) {
        Recorder recorder = new Recorder(endPoint);
        endPoint.setConnection(recorder);
        endPoint.onOpen();
        recorder.onOpen();
        return recorder;
    }

    /** @return the client's side of a stream the server answered 200 */
    private Recorder openStream() throws Exception {
        CompletableFuture<Recorder> opened = new CompletableFuture<>();
        HttpFields request = HttpFields.build().add(":method", "CONNECT").add(":protocol", "test").add(":scheme", "http")
                .add(":authority", "localhost").add(":path", "/");
        client.session.newStream(request, false, new Http2Stream.Listener() {
            @Override
            public void onHeaders(Http2Stream stream, HeaderBlock headers, boolean endStream) {
                opened.complete(open(new Http2StreamEndPoint(stream)));
            }

            @Override
            public void onReset(Http2Stream stream, ErrorCode error, Throwable cause) {
                resets.add("client " + error);
            }
        }, Callback.NOOP);
        return opened.get(WAIT, TimeUnit.SECONDS);
    }

    private static void write(Recorder side, byte[] bytes) throws Exception {
        CompletableFuture<Void> written = new CompletableFuture<>();
        // Two buffers in one write: both go out, in order, before the callback completes.
        int half = bytes.length / 2;
        side.getEndPoint().write(Callback.from(InvocationType.NON_BLOCKING, () -> written.complete(null), written::completeExceptionally),
                ByteBuffer.wrap(bytes, 0, half), ByteBuffer.wrap(bytes, half, bytes.length - half));
        written.get(WAIT, TimeUnit.SECONDS);
    }

    private static void awaitBytes(Recorder side, int count) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
        while (side.bytes().length < count && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private static void awaitNoStreams(Http2Session session) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
        while (session.getStreamCount() > 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertEquals(0, session.getStreamCount(), session.toString());
    }

    @Test
    void bytesGoBothWaysBeyondTheWindows() throws Exception {
        Recorder clientEnd = openStream();
        Recorder serverEnd = serverSide.get(WAIT, TimeUnit.SECONDS);
        Random random = new Random(8441);
        for (int size : new int[] {1, 65_535, 65_536, 300_000}) {
            byte[] up = new byte[size];
            random.nextBytes(up);
            int before = serverEnd.bytes().length;
            write(clientEnd, up);
            awaitBytes(serverEnd, before + size);
            assertArrayEquals(up, java.util.Arrays.copyOfRange(serverEnd.bytes(), before, before + size), "up " + size);
            byte[] down = new byte[size];
            random.nextBytes(down);
            before = clientEnd.bytes().length;
            write(serverEnd, down);
            awaitBytes(clientEnd, before + size);
            assertArrayEquals(down, java.util.Arrays.copyOfRange(clientEnd.bytes(), before, before + size), "down " + size);
        }
        // The client ends its output: the server reads the end and closes, which ends the stream both ways.
        clientEnd.getEndPoint().shutdownOutput();
        serverEnd.endOfInput.get(WAIT, TimeUnit.SECONDS);
        assertNull(serverEnd.closed.get(WAIT, TimeUnit.SECONDS));
        assertNull(clientEnd.closed.get(WAIT, TimeUnit.SECONDS));
        awaitNoStreams(client.session);
        awaitNoStreams(server.session);
        assertTrue(resets.isEmpty(), resets.toString());
    }

    @Test
    void aCloseWithAReadPendingEndsTheStreamWithoutReset() throws Exception {
        Recorder clientEnd = openStream();
        Recorder serverEnd = serverSide.get(WAIT, TimeUnit.SECONDS);
        serverEnd.closeAtEnd = false;
        // The server's side waits for bytes (a fill interest is registered) when the client's side closes.
        clientEnd.getEndPoint().close();
        serverEnd.endOfInput.get(WAIT, TimeUnit.SECONDS);
        // The server's side still writes; the client's closed side drops it, then the server ends its side.
        write(serverEnd, new byte[100_000]);
        serverEnd.getEndPoint().shutdownOutput();
        assertNull(serverEnd.closed.get(WAIT, TimeUnit.SECONDS));
        awaitNoStreams(client.session);
        awaitNoStreams(server.session);
        assertTrue(resets.isEmpty(), resets.toString());
        assertEquals(0, clientEnd.bytes().length);
    }

    @Test
    void aCloseWithACauseResetsTheStream() throws Exception {
        Recorder clientEnd = openStream();
        Recorder serverEnd = serverSide.get(WAIT, TimeUnit.SECONDS);
        clientEnd.getEndPoint().close(new IOException("given up"));
        Throwable cause = serverEnd.closed.get(WAIT, TimeUnit.SECONDS);
        assertNotNull(cause);
        assertTrue(String.valueOf(cause.getMessage()).contains("CANCEL"), cause.toString());
        awaitNoStreams(server.session);
    }

    @Test
    void thePeersResetAndTheSessionsEndCloseTheEndpoint() throws Exception {
        Recorder first = openStream();
        Recorder serverFirst = serverSide.get(WAIT, TimeUnit.SECONDS);
        ((Http2StreamEndPoint) serverFirst.getEndPoint()).getStream().reset(ErrorCode.CANCEL);
        Throwable cause = first.closed.get(WAIT, TimeUnit.SECONDS);
        assertNotNull(cause);
        assertTrue(String.valueOf(cause.getMessage()).contains("CANCEL"), cause.toString());
        assertTrue(!first.getEndPoint().isOpen());
        // The server's connection goes: the client's sessions end, and with them its stream endpoints.
        Recorder second = openStream();
        server.getEndPoint().close();
        assertNotNull(second.closed.get(WAIT, TimeUnit.SECONDS));
    }
}
