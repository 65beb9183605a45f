package io.wharf.examples;

import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;

import io.wharf.client.HttpClient;
import io.wharf.client.reactive.ReactiveRequest;
import io.wharf.client.reactive.ReactiveResponse;
import io.wharf.server.Handler;
import io.wharf.server.Response;

/**
 * The reactive client: a request whose response is a {@link Flow.Publisher}, and whose content
 * is another, read here 16 buffers at a time (nothing more is read from the socket until the
 * subscriber asks), against a small Wharf server on a free loopback port.
 */
public final class ReactiveClientExample {

    private ReactiveClientExample() {
    }

    public static void main(String[] args) throws Exception {
        run(System.out);
    }

    /** Runs the example, printing what it gets to {@code out}. */
    public static void run(PrintStream out) throws Exception {
        LoopbackServer server = new LoopbackServer(Handler.of((request, response, callback) -> {
            Response.write(response, true, "x".repeat(1_000_000), callback);
            return true;
        }));
        HttpClient client = new HttpClient();
        client.start();
        try {
            CompletableFuture<Long> total = new CompletableFuture<>();
            ReactiveRequest request = ReactiveRequest.of(client.newRequest(server.base() + "/big"));
            request.response().subscribe(new Flow.Subscriber<ReactiveResponse>() {
                @Override
                public void onSubscribe(Flow.Subscription subscription) {
                    subscription.request(1);
                }

                @Override
                public void onNext(ReactiveResponse response) {
                    out.println("status " + response.getStatus());
                    response.content().subscribe(new Flow.Subscriber<ByteBuffer>() {
                        private Flow.Subscription subscription;
                        private long bytes;
                        private int taken;

                        @Override
                        public void onSubscribe(Flow.Subscription subscription) {
                            this.subscription = subscription;
                            subscription.request(16);
                        }

                        @Override
                        public void onNext(ByteBuffer item) {
                            bytes += item.remaining();
                            if (++taken % 16 == 0) {
                                subscription.request(16);
                            }
                        }

                        @Override
                        public void onError(Throwable failure) {
                            total.completeExceptionally(failure);
                        }

                        @Override
                        public void onComplete() {
                            total.complete(bytes);
                        }
                    });
                }

                @Override
                public void onError(Throwable failure) {
                    total.completeExceptionally(failure);
                }

                @Override
                public void onComplete() {
                }
            });
            out.println("content " + total.get(10, TimeUnit.SECONDS) + " bytes");
        } finally {
            client.stop();
            server.close();
        }
    }
}
