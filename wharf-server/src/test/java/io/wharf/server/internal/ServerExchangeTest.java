package io.wharf.server.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.WritePendingException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.http.BadMessageException;
import io.wharf.http.HostPort;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpHeader;
import io.wharf.http.HttpURI;
import io.wharf.http.HttpVersion;
import io.wharf.io.Content;
import io.wharf.server.ConnectionMetaData;
import io.wharf.server.Connector;
import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.LocalConnector;
import io.wharf.server.Push;
import io.wharf.server.Server;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The one server exchange driven through its seam by a stream of no protocol at all, as HTTP/3's
 * will drive it: what the exchange decides (URI, error answers, completion once, 100 Continue
 * once, one write at a time) holds whatever the stream is.
 */
class ServerExchangeTest {

    private final Server server = new Server();
    private final LocalConnector connector = new LocalConnector(server, new HttpConnectionFactory());
    private final ExecutorService threads = Executors.newFixedThreadPool(4);

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertTrue(threads.awaitTermination(10, TimeUnit.SECONDS));
    }

    @Test
    void theUriIsMadeOfTheStreamsTargetAuthorityAndScheme() {
        AtomicReference<HttpURI> seen = new AtomicReference<>();
        server.setHandler(Handler.of((request, response, callback) -> {
            seen.set(request.getHttpURI());
            callback.succeeded();
            return true;
        }));
        FakeStream stream = new FakeStream("GET", "/a?b=c", HttpFields.EMPTY, false);
        stream.authority = HostPort.of("example.com", 8443);
        stream.scheme = "https";
        stream.exchange.handle();
        assertEquals("https://example.com:8443/a?b=c", seen.get().toString());
        assertEquals(1, stream.intercepted.get(), "the stream sees the request before the customizers");
        assertEquals(List.of("200 commit last"), stream.writes, "the handler wrote nothing: completing ends the response");
        assertEquals(1, stream.done.get());
    }

    @Test
    void withoutAnAuthorityTheLocalAddressIsTheUrisAuthority() {
        server.setHandler(Handler.of((request, response, callback) -> {
            callback.succeeded();
            return true;
        }));
        FakeStream stream = new FakeStream("GET", "/", HttpFields.EMPTY, false);
        stream.exchange.handle();
        assertEquals("http://127.0.0.1:8080/", stream.exchange.getHttpURI().toString());
    }

    @Test
    void anInterceptingStreamAnswersWithTheStatusItThrows() {
        FakeStream stream = new FakeStream("GET", "/", HttpFields.EMPTY, false);
        stream.interception = new BadMessageException(417, "no such expectation");
        stream.exchange.handle();
        assertEquals(List.of("417 commit last"), stream.writes);
        assertTrue(stream.closeAfterResponse.get(), "an error answer ends the connection where the protocol reuses it");
    }

    @Test
    void aBadContentIsAnsweredWhenTheHandlerCommittedNothing() {
        FakeStream stream = new FakeStream("POST", "/", HttpFields.EMPTY, false);
        stream.contentFailure = new BadMessageException(413, "content too large");
        stream.exchange.succeeded();
        assertEquals(List.of("413 commit last"), stream.writes);
        assertTrue(stream.closeAfterResponse.get());
        assertEquals(1, stream.done.get());
    }

    @Test
    void aFailureAfterTheCommitAbortsTheStream() {
        FakeStream stream = new FakeStream("GET", "/", HttpFields.EMPTY, false);
        stream.exchange.response().write(false, ByteBuffer.allocate(3), Callback.NOOP);
        IllegalStateException cause = new IllegalStateException("the handler broke");
        stream.exchange.failed(cause);
        assertEquals(List.of("200 commit"), stream.writes);
        assertSame(cause, stream.aborted.get());
        assertTrue(stream.closeAfterResponse.get());
    }

    @Test
    void oneWriteAtATimeAndNoneAfterTheLast() {
        FakeStream stream = new FakeStream("GET", "/", HttpFields.EMPTY, false);
        ExchangeResponse response = stream.exchange.response();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        stream.writing.set(true);
        response.write(false, null, Callback.from(() -> { }, failures::add));
        assertInstanceOf(WritePendingException.class, failures.get(0));
        assertFalse(response.isCommitted(), "a refused write commits nothing");
        stream.writing.set(false);
        response.write(true, null, Callback.NOOP);
        response.write(true, null, Callback.from(() -> { }, failures::add));
        assertTrue(failures.get(1).getMessage().startsWith("write after the last write of GET / FAKE/1@fake-1"), failures.get(1).getMessage());
        assertTrue(response.isComplete());
    }

    /** Many threads complete the same exchange at once, many times: one of them wins, the response ends once. */
    @Test
    void theHandlersCallbackCompletesOnceUnderRaces() throws Exception {
        for (int round = 0; round < 500; round++) {
            FakeStream stream = new FakeStream("GET", "/", HttpFields.EMPTY, false);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> racers = new java.util.ArrayList<>();
            for (int racer = 0; racer < 4; racer++) {
                boolean succeed = racer % 2 == 0;
                racers.add(threads.submit(() -> {
                    go.await();
                    if (succeed) {
                        stream.exchange.succeeded();
                    } else {
                        stream.exchange.failed(new IllegalStateException("racer"));
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> racer : racers) {
                racer.get(10, TimeUnit.SECONDS);
            }
            assertEquals(1, stream.done.get(), "round " + round + ": " + stream.writes);
            assertNull(stream.aborted.get());
            assertEquals(1, stream.writes.stream().filter(write -> write.endsWith("last")).count(), stream.writes.toString());
        }
    }

    /** Whoever reads first makes the one {@code 100 Continue}, however many threads try; none after a commit. */
    @Test
    void continueIsSentOnceAndNotAfterACommit() throws Exception {
        HttpFields expect = HttpFields.build().add(HttpHeader.EXPECT, "100-continue").asImmutable();
        for (int round = 0; round < 200; round++) {
            FakeStream stream = new FakeStream("POST", "/", expect, true);
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> racers = new java.util.ArrayList<>();
            for (int racer = 0; racer < 4; racer++) {
                racers.add(threads.submit(() -> {
                    go.await();
                    stream.exchange.continueIfExpected();
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> racer : racers) {
                racer.get(10, TimeUnit.SECONDS);
            }
            assertEquals(1, stream.continues.get(), "round " + round);
        }
        FakeStream committed = new FakeStream("POST", "/", expect, true);
        committed.exchange.response().write(false, null, Callback.NOOP);
        committed.exchange.continueIfExpected();
        assertEquals(0, committed.continues.get(), "the client that got an answer sends no content for it");
        FakeStream without = new FakeStream("POST", "/", expect, false);
        without.exchange.continueIfExpected();
        assertEquals(0, without.continues.get(), "no content can follow: nothing to continue");
    }

    /** A stream of no protocol: writes complete at once and are remembered as "STATUS [commit] [last]". */
    private final class FakeStream implements ServerStream {
        final ServerExchange exchange;
        final List<String> writes = new CopyOnWriteArrayList<>();
        final AtomicBoolean writing = new AtomicBoolean();
        final AtomicInteger done = new AtomicInteger();
        final AtomicReference<Throwable> aborted = new AtomicReference<>();
        final AtomicInteger continues = new AtomicInteger();
        final AtomicInteger intercepted = new AtomicInteger();
        final AtomicBoolean closeAfterResponse = new AtomicBoolean();
        private final String method;
        private final String target;
        private final HttpFields fields;
        private final Callback responseDone = Callback.from(done::incrementAndGet, aborted::set);
        HostPort authority;
        String scheme = "http";
        BadMessageException interception;
        volatile BadMessageException contentFailure;

        FakeStream(String method, String target, HttpFields fields, boolean continuable) {
            this.method = method;
            this.target = target;
            this.fields = fields;
            this.exchange = new ServerExchange(this, new FakeMetaData(), method, false, fields, continuable, 1, 2);
        }

        @Override
        public String method() {
            return method;
        }

        @Override
        public String target() {
            return target;
        }

        @Override
        public HttpFields fields() {
            return fields;
        }

        @Override
        public long length() {
            return -1;
        }

        @Override
        public HostPort authority() {
            return authority;
        }

        @Override
        public String scheme() {
            return scheme;
        }

        @Override
        public UriMemory uriMemory() {
            return null;
        }

        @Override
        public boolean intercept(ServerExchange exchange) {
            intercepted.incrementAndGet();
            if (interception != null) {
                throw interception;
            }
            return false;
        }

        @Override
        public ProtocolSwitch offerSwitch(ExchangeResponse response) {
            return null;
        }

        @Override
        public Push push() {
            return null;
        }

        @Override
        public String id() {
            return "fake-1";
        }

        @Override
        public Content.Chunk read() {
            return Content.Chunk.EOF;
        }

        @Override
        public void demand(Runnable onContentAvailable) {
            onContentAvailable.run();
        }

        @Override
        public void fail(Throwable cause) {
        }

        @Override
        public HttpFields trailers() {
            return null;
        }

        @Override
        public BadMessageException contentFailure() {
            return contentFailure;
        }

        @Override
        public boolean claimWrite() {
            return writing.compareAndSet(false, true);
        }

        @Override
        public void writeContinue() {
            continues.incrementAndGet();
        }

        @Override
        public void writeInterim(int status, HttpFields fields, Callback callback) {
            callback.succeeded();
        }

        @Override
        public void write(ExchangeResponse response, boolean commit, ByteBuffer content, boolean last, Callback callback) {
            writes.add(response.getStatus() + (commit ? " commit" : "") + (last ? " last" : ""));
            writing.set(false);
            callback.succeeded();
        }

        @Override
        public void beforeLastWrite() {
        }

        @Override
        public void closeAfterResponse() {
            closeAfterResponse.set(true);
        }

        @Override
        public void switchProtocols(ProtocolSwitch accepted, ExchangeResponse response) {
            throw new AssertionError("no switch was offered");
        }

        @Override
        public Callback responseDone() {
            return responseDone;
        }
    }

    /** The metadata of a connection of no protocol, on the test's local connector. */
    private final class FakeMetaData implements ConnectionMetaData {
        private final HttpConfiguration configuration = new HttpConfiguration();

        @Override
        public String getId() {
            return "fake";
        }

        @Override
        public String getProtocol() {
            return "FAKE/1";
        }

        @Override
        public HttpVersion getHttpVersion() {
            return HttpVersion.HTTP_1_1;
        }

        @Override
        public Connector getConnector() {
            return connector;
        }

        @Override
        public HttpConfiguration getHttpConfiguration() {
            return configuration;
        }

        @Override
        public SocketAddress getRemoteSocketAddress() {
            return new InetSocketAddress("127.0.0.1", 40000);
        }

        @Override
        public SocketAddress getLocalSocketAddress() {
            return new InetSocketAddress("127.0.0.1", 8080);
        }

        @Override
        public boolean isPersistent() {
            return true;
        }
    }
}
