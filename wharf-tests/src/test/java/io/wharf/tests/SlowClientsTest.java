package io.wharf.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.wharf.server.Handler;
import io.wharf.server.HttpConfiguration;
import io.wharf.server.Response;
import io.wharf.server.Server;
import io.wharf.server.ServerConnector;
import io.wharf.server.http1.HttpConnectionFactory;
import io.wharf.testing.LeakTracking;
import io.wharf.util.InvocationType;
import io.wharf.util.thread.QueuedThreadPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Slow clients are closed — at the idle timeout, at the header timeout, or by the minimum
 * data rate — while normal clients keep being served.
 */
class SlowClientsTest {

    private static final byte[] GET = "GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    private Server server;
    private ServerConnector connector;

    private void start(Duration idleTimeout, Duration headerTimeout, long minRate) throws Exception {
        HttpConfiguration configuration = new HttpConfiguration();
        configuration.setHeaderTimeout(headerTimeout);
        configuration.setMinRequestDataRate(minRate);
        server = new Server(new QueuedThreadPool(), leaks.pool());
        connector = new ServerConnector(server, new HttpConnectionFactory(configuration));
        connector.setHost("127.0.0.1");
        connector.setIdleTimeout(idleTimeout);
        connector.setAcceptQueueSize(2048);
        server.addConnector(connector);
        server.setHandler(Handler.of(InvocationType.NON_BLOCKING, (request, response, callback) -> {
            Response.write(response, true, "hello", callback);
            return true;
        }));
        server.start();
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aThousandClientsSendingAHeaderByteEveryTenSecondsAreClosedAtTheIdleTimeout() throws Exception {
        start(Duration.ofSeconds(3), Duration.ofSeconds(30), 0);
        SlowClients slow = new SlowClients(1000, Duration.ofSeconds(10));
        NormalClient normal = new NormalClient();
        normal.start();
        long closedAfter = slow.runUntilAllClosed(Duration.ofSeconds(20));
        normal.finish();
        assertTrue(closedAfter >= 2_500 && closedAfter < 10_000, "all slow clients closed after " + closedAfter + " ms");
        assertTrue(normal.served.get() > 50, "normal requests served meanwhile: " + normal.served.get());
        assertEquals(0, normal.failed.get(), "normal requests failed");
    }

    @Test
    void clientsBelowTheMinimumDataRateAreClosed() throws Exception {
        start(Duration.ofSeconds(30), Duration.ofSeconds(30), 100);
        SlowClients slow = new SlowClients(200, Duration.ofMillis(250));
        NormalClient normal = new NormalClient();
        normal.start();
        long closedAfter = slow.runUntilAllClosed(Duration.ofSeconds(20));
        normal.finish();
        assertTrue(closedAfter < 8_000, "all slow clients closed after " + closedAfter + " ms");
        assertTrue(slow.answered408 > 0, "some slow clients were told 408 before the close");
        assertEquals(0, normal.failed.get(), "normal requests failed");
    }

    @Test
    void headsThatTakeLongerThanTheHeaderTimeoutAreClosed() throws Exception {
        start(Duration.ofSeconds(30), Duration.ofSeconds(2), 0);
        SlowClients slow = new SlowClients(200, Duration.ofSeconds(10));
        long closedAfter = slow.runUntilAllClosed(Duration.ofSeconds(20));
        assertTrue(closedAfter >= 1_500 && closedAfter < 8_000, "all slow clients closed after " + closedAfter + " ms");
    }

    /** Many non-blocking connections that each send one byte of a request head per interval. */
    private final class SlowClients {
        private final List<SocketChannel> channels = new ArrayList<>();
        private final Duration interval;
        private int answered408;

        SlowClients(int count, Duration interval) throws IOException {
            this.interval = interval;
            for (int i = 0; i < count; i++) {
                SocketChannel channel = SocketChannel.open(new InetSocketAddress("127.0.0.1", connector.getLocalPort()));
                channel.configureBlocking(false);
                channels.add(channel);
            }
        }

        /** @return the milliseconds until the server closed every connection */
        long runUntilAllClosed(Duration limit) throws IOException {
            long start = System.nanoTime();
            long deadline = start + limit.toNanos();
            int[] sent = new int[channels.size()];
            boolean[] closed = new boolean[channels.size()];
            int open = channels.size();
            long nextSend = start;
            ByteBuffer read = ByteBuffer.allocate(4096);
            try (Selector selector = Selector.open()) {
                for (int i = 0; i < channels.size(); i++) {
                    channels.get(i).register(selector, SelectionKey.OP_READ, i);
                }
                while (open > 0) {
                    long now = System.nanoTime();
                    assertTrue(now < deadline, open + " slow clients still open after " + limit);
                    if (now >= nextSend) {
                        for (int i = 0; i < channels.size(); i++) {
                            if (!closed[i] && sent[i] < GET.length) {
                                try {
                                    channels.get(i).write(ByteBuffer.wrap(GET, sent[i]++, 1));
                                } catch (IOException reset) {
                                    closed[i] = true;
                                    open--;
                                }
                            }
                        }
                        nextSend = now + interval.toNanos();
                    }
                    selector.select(50);
                    for (SelectionKey key : selector.selectedKeys()) {
                        int i = (Integer) key.attachment();
                        if (closed[i]) {
                            continue;
                        }
                        read.clear();
                        int count;
                        try {
                            count = channels.get(i).read(read);
                        } catch (IOException reset) {
                            count = -1;
                        }
                        if (count > 0 && new String(read.array(), 0, count, StandardCharsets.ISO_8859_1).startsWith("HTTP/1.1 408 ")) {
                            answered408++;
                        }
                        if (count < 0) {
                            closed[i] = true;
                            open--;
                            key.cancel();
                        }
                    }
                    selector.selectedKeys().clear();
                }
            } finally {
                for (SocketChannel channel : channels) {
                    channel.close();
                }
            }
            return (System.nanoTime() - start) / 1_000_000;
        }
    }

    /** A client sending whole requests on one keep-alive connection, until told to stop. */
    private final class NormalClient extends Thread {
        private final AtomicBoolean running = new AtomicBoolean(true);
        final AtomicInteger served = new AtomicInteger();
        final AtomicInteger failed = new AtomicInteger();

        NormalClient() {
            super("normal-client");
        }

        @Override
        public void run() {
            try (Socket socket = new Socket("127.0.0.1", connector.getLocalPort())) {
                socket.setSoTimeout(5000);
                OutputStream out = socket.getOutputStream();
                InputStream in = socket.getInputStream();
                byte[] buffer = new byte[4096];
                while (running.get()) {
                    out.write(GET);
                    int total = 0;
                    String text = "";
                    while (!text.endsWith("hello")) {
                        int count = in.read(buffer, total, buffer.length - total);
                        if (count < 0) {
                            throw new IOException("closed");
                        }
                        total += count;
                        text = new String(buffer, 0, total, StandardCharsets.ISO_8859_1);
                    }
                    served.incrementAndGet();
                    Thread.sleep(10);
                }
            } catch (Exception x) {
                failed.incrementAndGet();
            }
        }

        void finish() throws InterruptedException {
            running.set(false);
            join(10_000);
        }
    }
}
