package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import io.wharf.io.connect.ClientConnector;
import io.wharf.util.InvocationType;
import io.wharf.util.IteratingCallback;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** 1,000 connections each send 1,000 messages of 185 bytes over loopback; every byte comes back in order. */
@Timeout(300)
@SuppressWarnings("exports") // Public for the TLS variant in io.wharf.io.ssl; JUnit's types show in its API.
public class EchoLoadTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    static final int CONNECTIONS = 1_000;
    static final int MESSAGES = 1_000;
    static final int MESSAGE_SIZE = 185;

    @Test
    void thousandConnectionsThousandMessagesPlain() throws Exception {
        LeakTrackingByteBufferPool pool = leaks.pool();
        // Correctness under load, not timing: no connection may be closed as idle on a loaded machine.
        Duration patient = Duration.ofSeconds(180);
        try (EchoServer server = new EchoServer(pool, false, patient, (endPoint, p) -> new EchoConnection(endPoint, p, 4096))) {
            run(pool, server.address(), connector -> connector.setIdleTimeout(patient), false);
            Deadline.await(() -> server.group().getOpenEndPoints() == 0, Duration.ofSeconds(10));
        }
    }

    /**
     * Opens the connections through a {@link ClientConnector} configured by {@code configure},
     * over TLS when {@code tls} ({@link ClientConnector#connectTls}), and waits for every echo.
     */
    public static void run(ByteBufferPool pool, SocketAddress address, Consumer<ClientConnector> configure, boolean tls) throws Exception {
        ClientConnector connector = new ClientConnector();
        connector.setByteBufferPool(pool);
        connector.setConnectTimeout(Duration.ofSeconds(30));
        configure.accept(connector);
        connector.start();
        try {
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++) {
                int id = c;
                CompletableFuture<Void> finished = new CompletableFuture<>();
                done.add(finished);
                Promise<Connection> opened = Promise.from(InvocationType.NON_BLOCKING, connection -> { }, finished::completeExceptionally);
                if (tls) {
                    connector.connectTls(address, endPoint -> new LoadClient(endPoint, pool, id, finished), opened);
                } else {
                    connector.connect(address, endPoint -> new LoadClient(endPoint, pool, id, finished), opened);
                }
            }
            int index = 0;
            for (CompletableFuture<Void> finished : done) {
                try {
                    finished.get(240, TimeUnit.SECONDS);
                } catch (Exception x) {
                    throw new AssertionError("connection " + index + " did not finish", x);
                }
                index++;
            }
            assertEquals(CONNECTIONS, done.size());
        } finally {
            connector.stop();
        }
    }

    static byte pattern(int connection, long offset) {
        long message = offset / MESSAGE_SIZE;
        long index = offset % MESSAGE_SIZE;
        return (byte) (connection * 7 + message * 13 + index);
    }

    /** Writes its messages one after another and checks every echoed byte. */
    static final class LoadClient extends AbstractConnection {
        private final ByteBufferPool pool;
        private final int id;
        private final CompletableFuture<Void> finished;
        private final Sender sender = new Sender();
        private long received;

        LoadClient(EndPoint endPoint, ByteBufferPool pool, int id, CompletableFuture<Void> finished) {
            super(endPoint, Runnable::run);
            this.pool = pool;
            this.id = id;
            this.finished = finished;
        }

        @Override
        public void onOpen() {
            fillInterested();
            sender.iterate();
        }

        @Override
        public void onFillable() {
            RetainableByteBuffer buffer = pool.acquire(4096, true);
            try {
                while (true) {
                    int filled = getEndPoint().fill(buffer.byteBuffer());
                    if (filled < 0) {
                        finished.completeExceptionally(new IOException("connection " + id + " ended after " + received + " bytes"));
                        getEndPoint().close();
                        return;
                    }
                    ByteBuffer bytes = buffer.byteBuffer();
                    while (bytes.hasRemaining()) {
                        byte b = bytes.get();
                        if (b != pattern(id, received)) {
                            throw new IOException("connection " + id + ": wrong byte at offset " + received);
                        }
                        received++;
                    }
                    buffer.clear();
                    if (received == (long) MESSAGES * MESSAGE_SIZE) {
                        finished.complete(null);
                        getEndPoint().close();
                        return;
                    }
                    if (filled == 0) {
                        fillInterested();
                        return;
                    }
                }
            } catch (Throwable x) {
                finished.completeExceptionally(x);
                getEndPoint().close(x);
            } finally {
                buffer.release();
            }
        }

        @Override
        public void onClose(Throwable cause) {
            if (cause != null) {
                finished.completeExceptionally(cause);
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }

        private final class Sender extends IteratingCallback {
            private final ByteBuffer message = ByteBuffer.allocate(MESSAGE_SIZE);
            private int sent;

            @Override
            protected Action process() {
                if (sent == MESSAGES) {
                    return Action.SUCCEEDED;
                }
                message.clear();
                long offset = (long) sent * MESSAGE_SIZE;
                for (int i = 0; i < MESSAGE_SIZE; i++) {
                    message.put(pattern(id, offset + i));
                }
                message.flip();
                sent++;
                getEndPoint().write(this, message);
                return Action.SCHEDULED;
            }

            @Override
            protected void onCompleteFailure(Throwable cause) {
                finished.completeExceptionally(cause);
            }

            @Override
            public InvocationType invocationType() {
                return InvocationType.NON_BLOCKING;
            }
        }
    }
}
