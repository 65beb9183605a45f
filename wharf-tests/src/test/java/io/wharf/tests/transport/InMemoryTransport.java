package io.wharf.tests.transport;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import io.wharf.client.transport.ClientConnection;
import io.wharf.client.transport.Transport;
import io.wharf.client.transport.TransportDestination;
import io.wharf.client.transport.TransportExchange;
import io.wharf.http.HttpField;
import io.wharf.http.HttpFields;
import io.wharf.http.HttpVersion;
import io.wharf.http.MetaData;
import io.wharf.io.Content;
import io.wharf.util.Promise;

/**
 * A transport of another module than the client's, written against the exported SPI only
 * ({@code io.wharf.client.transport}, with wharf-http's heads and wharf-io's chunks): it carries
 * no byte over a network, and answers each exchange in memory with what {@link #answers} makes of
 * its request. It reads the request content with demand, sends the response content chunk by
 * chunk, each only after the client demanded it, and can cut a response with a failure after some
 * of its chunks.
 *
 * <p><b>Threads.</b> Every exchange is carried on the client connector's executor, never on the
 * thread that sends it; each step after a demand is handed to the executor again. <b>Buffers.</b>
 * Response chunks wrap heap arrays and are released once told.
 */
final class InMemoryTransport implements Transport {

    /**
     * What the server side answers.
     *
     * @param fields the response head's fields
     * @param chunks the content, one chunk each
     * @param failure when not null, the response is cut after its chunks with this failure
     */
    record Answer(int status, HttpFields fields, List<String> chunks, Throwable failure) {

        static Answer of(int status, String content) {
            return new Answer(status, HttpFields.build().add("Content-Type", "text/plain"), List.of(content), null);
        }
    }

    /** What the server side was sent: the head and the whole content, as text. */
    record Received(MetaData.Request head, String content) {
    }

    private final Function<Received, Answer> answers;
    final AtomicInteger connections = new AtomicInteger();
    final Queue<Received> received = new ConcurrentLinkedQueue<>();
    final Queue<Throwable> aborts = new ConcurrentLinkedQueue<>();

    InMemoryTransport(Function<Received, Answer> answers) {
        this.answers = answers;
    }

    @Override
    public void connect(TransportDestination destination, Promise<ClientConnection> promise) {
        connections.incrementAndGet();
        Executor executor = destination.connector().getExecutor();
        executor.execute(() -> promise.succeeded(new Connection(destination, executor)));
    }

    @Override
    public List<String> applicationProtocols() {
        return List.of();
    }

    /** One in-memory connection: carries one exchange at a time (the client's default pool). */
    private final class Connection implements ClientConnection {
        private final TransportDestination destination;
        private final Executor executor;
        private volatile boolean open = true;

        Connection(TransportDestination destination, Executor executor) {
            this.destination = destination;
            this.executor = executor;
        }

        @Override
        public boolean send(TransportExchange exchange) {
            if (!open) {
                return false;
            }
            executor.execute(() -> new Carrier(exchange).start());
            return true;
        }

        @Override
        public void abort(TransportExchange exchange, Throwable cause) {
            aborts.add(cause);
            // Its sides are failed already; the exchange completes itself. This connection cannot
            // stop the answer half-way, so it leaves the pool, as an HTTP/1.1 connection would.
            close();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            if (open) {
                open = false;
                destination.connectionClosed(this, true);
            }
        }

        /** Carries one exchange: reads its request, then tells its response chunk by chunk. */
        private final class Carrier {
            private final TransportExchange exchange;
            private final ByteArrayOutputStream content = new ByteArrayOutputStream();
            private MetaData.Request head;
            private Answer answer;

            Carrier(TransportExchange exchange) {
                this.exchange = exchange;
            }

            void start() {
                exchange.requestBegin();
                head = exchange.requestHead();
                exchange.requestHeaders();
                exchange.requestCommitted();
                readContent();
            }

            /** Reads the request content until its last chunk, waiting for it with demand. */
            private void readContent() {
                Content.Source source = exchange.requestContent();
                while (source != null) {
                    Content.Chunk chunk = source.read();
                    if (chunk == null) {
                        source.demand(() -> executor.execute(this::readContent));
                        return;
                    }
                    if (chunk.getFailure() != null) {
                        fail(chunk.getFailure());
                        return;
                    }
                    ByteBuffer bytes = chunk.getByteBuffer();
                    if (bytes.hasRemaining()) {
                        exchange.requestContent(bytes.slice());
                        byte[] copy = new byte[bytes.remaining()];
                        bytes.get(copy);
                        content.writeBytes(copy);
                    }
                    boolean last = chunk.isLast();
                    chunk.release();
                    if (last) {
                        break;
                    }
                }
                exchange.requestSucceeded();
                respond();
            }

            private void respond() {
                if (exchange.isResponseOver()) {
                    return;
                }
                Received request = new Received(head, content.toString(StandardCharsets.UTF_8));
                received.add(request);
                answer = answers.apply(request);
                exchange.responseBegin(HttpVersion.HTTP_1_1, answer.status(), null);
                for (HttpField field : answer.fields()) {
                    exchange.responseHeader(field);
                }
                exchange.responseHeaders();
                tell(0);
            }

            /** Tells chunk {@code index}, the next one once the client demands it; then ends the response. */
            private void tell(int index) {
                if (exchange.isResponseOver()) {
                    // Aborted: abort() took this connection out of the pool.
                    return;
                }
                if (index == answer.chunks().size() || exchange.isHead()) {
                    if (answer.failure() != null) {
                        fail(answer.failure());
                    } else if (exchange.responseSucceeded()) {
                        finish();
                    }
                    return;
                }
                byte[] bytes = answer.chunks().get(index).getBytes(StandardCharsets.UTF_8);
                Content.Chunk chunk = Content.Chunk.from(ByteBuffer.wrap(bytes), false);
                try {
                    exchange.responseContent(chunk, () -> executor.execute(() -> tell(index + 1)));
                } finally {
                    chunk.release();
                }
            }

            private void fail(Throwable cause) {
                // Out of the pool before the exchange is told, so that a retry never finds it there.
                close();
                exchange.fail(cause);
                if (exchange.tryComplete()) {
                    exchange.complete();
                }
            }

            private void finish() {
                if (!exchange.tryComplete()) {
                    return;
                }
                if (exchange.isSucceeded() && open) {
                    destination.release(Connection.this);
                } else {
                    close();
                }
                exchange.complete();
            }
        }
    }
}
