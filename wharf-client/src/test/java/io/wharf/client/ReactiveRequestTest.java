package io.wharf.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import io.wharf.client.reactive.ReactiveRequest;
import io.wharf.client.reactive.ReactiveResponse;
import io.wharf.server.Handler;
import io.wharf.server.Response;
import io.wharf.testing.LeakTracking;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reactive client end to end against Wharf's server: content counted item by item,
 * back-pressure from an idle content subscriber down to the server's writes, a failure before
 * the head, cancelling mid-content, and a second subscriber refused.
 */
class ReactiveRequestTest {

    private static final int MIB = 1 << 20;

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @RegisterExtension
    final Loopback loopback = new Loopback(leaks);

    /** Writes {@code megabytes} MiB in 64 KiB writes, blocking, counting what it wrote. */
    private static Handler writing(int megabytes, AtomicLong written) {
        return Handler.of((request, response, callback) -> {
            byte[] block = new byte[64 * 1024];
            try (OutputStream out = Response.asOutputStream(response)) {
                for (int i = 0; i < megabytes * 16; i++) {
                    out.write(block);
                    written.addAndGet(block.length);
                }
            }
            callback.succeeded();
            return true;
        });
    }

    /** Subscribes to the response, then to its content, requesting {@code perItem} at a time (0: none). */
    private static class Reader implements Flow.Subscriber<ByteBuffer> {
        final CompletableFuture<ReactiveResponse> head = new CompletableFuture<>();
        final CompletableFuture<Long> end = new CompletableFuture<>();
        final AtomicLong bytes = new AtomicLong();
        final AtomicLong items = new AtomicLong();
        final AtomicReference<Flow.Subscription> subscription = new AtomicReference<>();
        private final long perItem;

        Reader(long perItem) {
            this.perItem = perItem;
        }

        void read(Flow.Publisher<ReactiveResponse> responses) {
            responses.subscribe(new Flow.Subscriber<>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    subscription.request(1);
                }

                @Override
                public void onNext(ReactiveResponse response) {
                    response.content().subscribe(Reader.this);
                    // After subscribing: a test that subscribes again once it has the head comes second.
                    head.complete(response);
                }

                @Override
                public void onError(Throwable failure) {
                    head.completeExceptionally(failure);
                }

                @Override
                public void onComplete() {
                }
            });
        }

        @Override
        public void onSubscribe(Flow.Subscription subscription) {
            this.subscription.set(subscription);
            if (perItem > 0) {
                subscription.request(perItem);
            }
        }

        @Override
        public void onNext(ByteBuffer item) {
            bytes.addAndGet(item.remaining());
            items.incrementAndGet();
            if (perItem > 0) {
                subscription.get().request(perItem);
            }
        }

        @Override
        public void onError(Throwable failure) {
            end.completeExceptionally(failure);
        }

        @Override
        public void onComplete() {
            end.complete(bytes.get());
        }
    }

    @Test
    void contentArrivesItemByItemAndCompletes() throws Exception {
        TestServer server = loopback.server(writing(4, new AtomicLong()));
        HttpClient client = loopback.client();
        Reader reader = new Reader(1);
        reader.read(ReactiveRequest.of(client.newRequest(server.uri("/four"))).response());
        assertEquals(200, reader.head.get(10, TimeUnit.SECONDS).getStatus());
        assertEquals(4L * MIB, reader.end.get(20, TimeUnit.SECONDS));
        assertTrue(reader.items.get() > 1, "several items: " + reader.items.get());
    }

    @Test
    void anIdleContentSubscriberHoldsTheServerBack() throws Exception {
        AtomicLong written = new AtomicLong();
        TestServer server = loopback.server(writing(64, written));
        HttpClient client = loopback.client();
        Reader reader = new Reader(0);
        reader.read(ReactiveRequest.of(client.newRequest(server.uri("/big"))).response());
        assertEquals(200, reader.head.get(10, TimeUnit.SECONDS).getStatus());
        // No demand: the client stops reading, the socket buffers fill, the server's writes block.
        long settled = -1;
        for (int i = 0; i < 50 && settled != written.get(); i++) {
            settled = written.get();
            Thread.sleep(100);
        }
        assertTrue(written.get() < 32L * MIB, "the server stalled after " + written.get() + " bytes of 64 MiB");
        assertEquals(0, reader.items.get(), "nothing delivered without demand");
        reader.subscription.get().request(Long.MAX_VALUE);
        assertEquals(64L * MIB, reader.end.get(30, TimeUnit.SECONDS));
        assertEquals(64L * MIB, written.get());
    }

    @Test
    void aFailureBeforeTheHeadGoesToTheResponseSubscriber() throws Exception {
        HttpClient client = loopback.client();
        int closedPort;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Reader reader = new Reader(1);
        reader.read(ReactiveRequest.of(client.newRequest("http://127.0.0.1:" + closedPort + "/none")).response());
        java.util.concurrent.ExecutionException failure = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> reader.head.get(10, TimeUnit.SECONDS));
        assertTrue(String.valueOf(failure.getCause().getMessage()).contains("Connect to"), String.valueOf(failure.getCause()));
    }

    @Test
    void cancellingTheContentAbortsTheExchange() throws Exception {
        AtomicLong written = new AtomicLong();
        CompletableFuture<Throwable> serverSaw = new CompletableFuture<>();
        TestServer server = loopback.server(Handler.of((request, response, callback) -> {
            try {
                writing(64, written).handle(request, response, callback);
            } catch (Throwable x) {
                serverSaw.complete(x);
                callback.failed(x);
            }
            return true;
        }));
        HttpClient client = loopback.client();
        Reader reader = new Reader(1) {
            @Override
            public void onNext(ByteBuffer item) {
                super.onNext(item);
                if (bytes.get() >= MIB) {
                    subscription.get().cancel();
                }
            }
        };
        reader.read(ReactiveRequest.of(client.newRequest(server.uri("/cancelled"))).response());
        assertEquals(200, reader.head.get(10, TimeUnit.SECONDS).getStatus());
        assertTrue(serverSaw.get(20, TimeUnit.SECONDS) != null, "the server's write failed once the client aborted");
        assertTrue(written.get() < 64L * MIB);
        assertTrue(!reader.end.isDone(), "a cancelled subscriber is told nothing more");
    }

    @Test
    void aSecondContentSubscriberIsRefused() throws Exception {
        TestServer server = loopback.server(writing(1, new AtomicLong()));
        HttpClient client = loopback.client();
        Reader first = new Reader(1);
        first.read(ReactiveRequest.of(client.newRequest(server.uri("/once"))).response());
        ReactiveResponse response = first.head.get(10, TimeUnit.SECONDS);
        Reader second = new Reader(1);
        response.content().subscribe(second);
        java.util.concurrent.ExecutionException refused = org.junit.jupiter.api.Assertions.assertThrows(
                java.util.concurrent.ExecutionException.class, () -> second.end.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IllegalStateException.class, refused.getCause());
        assertEquals((long) MIB, first.end.get(10, TimeUnit.SECONDS));
    }
}
