package io.wharf.http2.session;

import static io.wharf.http2.session.ServerSessionHarness.get;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.http.HttpFields;
import io.wharf.http2.frames.ErrorCode;
import io.wharf.testing.LeakTracking;
import io.wharf.util.Callback;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stream error in the peer's frame on a stream the receiver found held is answered even when
 * the stream closed in the meantime, because its response ended on another thread: h2spec's
 * "half closed (remote): Sends a DATA frame" and "PRIORITY frame with a length other than 5
 * octets" saw the response and no RST_STREAM about one run in a hundred, when the handler's
 * answer ended the stream between the receiver's lookup and its reset.
 */
@Timeout(60)
class StreamErrorAfterCloseTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private final ExecutorService answerer = Executors.newSingleThreadExecutor();

    @AfterEach
    void stop() {
        answerer.shutdownNow();
    }

    /** @return the server's stream 1, opened by a GET from the client that ends its side when {@code endStream} */
    private static Http2Stream openStream(ServerSessionHarness peer, boolean endStream) {
        AtomicReference<Http2Stream> held = new AtomicReference<>();
        peer.handler = held::set;
        peer.clientWrites(out -> peer.client.headers(out, 1, get("/a"), null, endStream, 0));
        peer.serverReads();
        return held.get();
    }

    @Test
    void anErrorOnAStreamWhoseResponseEndedMeanwhileIsAnsweredWithRstStream() {
        ServerSessionHarness peer = new ServerSessionHarness(leaks.pool());
        Http2Stream stream = openStream(peer, true);
        // The receiver found the stream held; then the response ends on another thread and closes it.
        stream.headers(HttpFields.build().add(":status", "204"), true, Callback.NOOP);
        assertEquals(List.of("HEADERS 1 204 END_STREAM"), peer.clientReads());
        assertEquals(0, peer.session.getStreamCount());

        peer.session.closer.streamError(stream, ErrorCode.STREAM_CLOSED);
        assertEquals(List.of("RST_STREAM 1 " + ErrorCode.STREAM_CLOSED.code()), peer.clientReads());
    }

    @Test
    void anErrorOnAStreamWeResetIsNotAnsweredAgain() {
        ServerSessionHarness peer = new ServerSessionHarness(leaks.pool());
        Http2Stream stream = openStream(peer, false);
        stream.reset(ErrorCode.CANCEL);
        assertEquals(List.of("RST_STREAM 1 " + ErrorCode.CANCEL.code()), peer.clientReads());

        // The peer's frames in flight after our reset are ignored (RFC 9113 section 5.1).
        peer.session.closer.streamError(stream, ErrorCode.STREAM_CLOSED);
        assertEquals(List.of(), peer.clientReads());
    }

    @Test
    void dataAfterTheEndOfARequestIsAlwaysResetWhileTheAnswerRacesIt() throws Exception {
        SessionConfiguration configuration = new SessionConfiguration();
        configuration.setResetBudget(0);
        ServerSessionHarness peer = new ServerSessionHarness(leaks.pool(), configuration);
        Semaphore answered = new Semaphore(0);
        peer.handler = stream -> answerer.execute(() -> stream.headers(HttpFields.build().add(":status", "204"), true,
                Callback.from(answered::release, failure -> answered.release())));
        for (int id = 1; id < 2 * 20_000; id += 2) {
            int streamId = id;
            peer.clientWrites(out -> {
                peer.client.headers(out, streamId, get("/a"), null, true, 0);
                peer.client.data(out, streamId, ByteBuffer.wrap(new byte[] {'x'}), true, 0);
            });
            peer.serverReads();
            assertTrue(answered.tryAcquire(10, TimeUnit.SECONDS), "stream " + streamId + " was not answered");
            // The answering thread's flush may write the reset just after it told the answer written.
            String reset = "RST_STREAM " + streamId + " " + ErrorCode.STREAM_CLOSED.code();
            List<String> lines = new ArrayList<>(peer.clientReads());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
            while (!lines.contains(reset) && System.nanoTime() < deadline) {
                Thread.sleep(1);
                lines.addAll(peer.clientReads());
            }
            assertTrue(lines.contains(reset), "DATA after END_STREAM on stream " + streamId + " got " + lines);
        }
    }
}
