package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.wharf.io.connect.ClientConnector;
import io.wharf.util.Callback;
import io.wharf.util.Promise;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.util.buffer.LeakTrackingByteBufferPool;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

@Timeout(30)
class SelectorGroupTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();
    private final LeakTrackingByteBufferPool pool = leaks.pool();
    private final List<AutoCloseable> closeables = new ArrayList<>();

    @AfterEach
    void dispose() throws Exception {
        for (int i = closeables.size() - 1; i >= 0; i--) {
            closeables.get(i).close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T closeable) {
        closeables.add(closeable);
        return closeable;
    }

    private EchoServer echoServer(Duration idleTimeout) throws Exception {
        return closeLater(new EchoServer(pool, false, idleTimeout, (endPoint, p) -> new EchoConnection(endPoint, p, 4096)));
    }

    private Socket connect(EchoServer server) throws IOException {
        Socket socket = closeLater(new Socket(InetAddress.getLoopbackAddress(), server.port()));
        socket.setSoTimeout(10_000);
        return socket;
    }

    private static String read(InputStream in, int length) throws IOException {
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    @Test
    void echoesOverTcp() throws Exception {
        EchoServer server = echoServer(Duration.ofSeconds(30));
        Socket socket = connect(server);
        OutputStream out = socket.getOutputStream();
        out.write("hello wharf".getBytes(StandardCharsets.UTF_8));
        assertEquals("hello wharf", read(socket.getInputStream(), 11));
        byte[] large = new byte[1 << 20];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        Thread writer = Thread.ofPlatform().start(() -> {
            try {
                out.write(large);
            } catch (IOException x) {
                throw new RuntimeException(x);
            }
        });
        byte[] echoed = socket.getInputStream().readNBytes(large.length);
        writer.join();
        assertArrayEquals(large, echoed, "1 MiB echoed intact");
    }

    @Test
    void echoesOverUnixDomainSocket() throws Exception {
        EchoServer server = closeLater(new EchoServer(pool, true, Duration.ofSeconds(30), (endPoint, p) -> new EchoConnection(endPoint, p, 4096)));
        try (SocketChannel channel = SocketChannel.open(server.address())) {
            channel.write(ByteBuffer.wrap("over a unix socket".getBytes(StandardCharsets.UTF_8)));
            ByteBuffer echoed = ByteBuffer.allocate(18);
            while (echoed.hasRemaining()) {
                assertTrue(channel.read(echoed) >= 0);
            }
            assertEquals("over a unix socket", new String(echoed.array(), StandardCharsets.UTF_8));
        }
        Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(5));
    }

    @Test
    void halfCloseIsEchoedThenClosed() throws Exception {
        EchoServer server = echoServer(Duration.ofSeconds(30));
        Socket socket = connect(server);
        socket.getOutputStream().write("last words".getBytes(StandardCharsets.UTF_8));
        socket.shutdownOutput();
        InputStream in = socket.getInputStream();
        assertEquals("last words", read(in, 10));
        assertEquals(-1, in.read(), "server shuts its output after echoing everything");
        Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(5));
        assertInstanceOf(EchoServer.NormalClose.class, server.closeCauses().get(0));
        assertEquals(0, server.group().getOpenEndPoints());
    }

    @Test
    void remoteCloseClosesTheEndPoint() throws Exception {
        EchoServer server = echoServer(Duration.ofSeconds(30));
        Socket socket = connect(server);
        socket.getOutputStream().write('x');
        assertEquals('x', socket.getInputStream().read());
        socket.close();
        Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(5));
        assertEquals(0, server.group().getOpenEndPoints());
    }

    @Test
    void abruptResetFailsTheEndPoint() throws Exception {
        EchoServer server = echoServer(Duration.ofSeconds(30));
        Socket socket = connect(server);
        socket.getOutputStream().write('x');
        assertEquals('x', socket.getInputStream().read());
        socket.setSoLinger(true, 0);
        socket.close();
        Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(5));
        Throwable cause = server.closeCauses().get(0);
        assertInstanceOf(IOException.class, cause, "a reset is a failure, not a normal close: " + cause);
        assertEquals(0, server.group().getOpenEndPoints());
    }

    @Test
    void idleTimeoutClosesASilentConnection() throws Exception {
        EchoServer server = echoServer(Duration.ofMillis(300));
        Socket socket = connect(server);
        long start = System.nanoTime();
        assertEquals(-1, socket.getInputStream().read());
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertTrue(elapsed >= 250, "closed after the idle timeout, not before: " + elapsed + " ms");
        Deadline.await(() -> server.closeCauses().size() == 1, Duration.ofSeconds(5));
        assertInstanceOf(TimeoutException.class, server.closeCauses().get(0));
    }

    @Test
    void activityPostponesTheIdleTimeout() throws Exception {
        EchoServer server = echoServer(Duration.ofMillis(400));
        Socket socket = connect(server);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1200);
        while (System.nanoTime() < end) {
            socket.getOutputStream().write('a');
            assertEquals('a', socket.getInputStream().read(), "still open while active");
            Thread.sleep(100);
        }
        assertTrue(server.closeCauses().isEmpty());
    }

    @Test
    void clientConnectorConnectsAndEchoes() throws Exception {
        EchoServer server = echoServer(Duration.ofSeconds(30));
        ClientConnector connector = startedConnector(Duration.ofSeconds(5));
        Promise.Completable<Connection> promise = new Promise.Completable<>();
        ReplyCollector collector = new ReplyCollector(11);
        connector.connect(server.address(), endPoint -> new ClientTestConnection(endPoint, pool, collector), promise);
        Connection connection = promise.get(5, TimeUnit.SECONDS);
        connection.getEndPoint().write(Callback.NOOP, ByteBuffer.wrap("from client".getBytes(StandardCharsets.UTF_8)));
        assertEquals("from client", collector.text().get(5, TimeUnit.SECONDS));
        connection.close();
    }

    @Test
    void clientConnectorOverUnixDomainSocket() throws Exception {
        EchoServer server = closeLater(new EchoServer(pool, true, Duration.ofSeconds(30), (endPoint, p) -> new EchoConnection(endPoint, p, 4096)));
        ClientConnector connector = startedConnector(Duration.ofSeconds(5));
        Promise.Completable<Connection> promise = new Promise.Completable<>();
        ReplyCollector collector = new ReplyCollector(4);
        connector.connect(server.address(), endPoint -> new ClientTestConnection(endPoint, pool, collector), promise);
        Connection connection = promise.get(5, TimeUnit.SECONDS);
        connection.getEndPoint().write(Callback.NOOP, ByteBuffer.wrap("unix".getBytes(StandardCharsets.UTF_8)));
        assertEquals("unix", collector.text().get(5, TimeUnit.SECONDS));
        connection.close();
    }

    @Test
    void connectTimeoutFailsThePromise() throws Exception {
        // A listener that never accepts, with its accept queue full: further SYNs go unanswered.
        ServerSocket full = closeLater(new ServerSocket(0, 1, InetAddress.getLoopbackAddress()));
        List<Socket> fillers = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            Socket filler = new Socket();
            try {
                filler.connect(full.getLocalSocketAddress(), 200);
                fillers.add(closeLater(filler));
            } catch (SocketTimeoutException x) {
                filler.close();
                break;
            }
        }
        ClientConnector connector = startedConnector(Duration.ofMillis(300));
        Promise.Completable<Connection> promise = new Promise.Completable<>();
        long start = System.nanoTime();
        connector.connect(full.getLocalSocketAddress(), endPoint -> new ClientTestConnection(endPoint, pool, new ReplyCollector(1)), promise);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> promise.get(10, TimeUnit.SECONDS));
        long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertInstanceOf(SocketTimeoutException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains("timed out after 300 ms"), failure.getCause().getMessage());
        assertTrue(elapsed >= 250 && elapsed < 5000, "timed out near 300 ms: " + elapsed);
    }

    @Test
    void connectRefusedFailsThePromise() throws Exception {
        int port;
        try (ServerSocket closed = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = closed.getLocalPort();
        }
        ClientConnector connector = startedConnector(Duration.ofSeconds(5));
        Promise.Completable<Connection> promise = new Promise.Completable<>();
        connector.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port),
            endPoint -> new ClientTestConnection(endPoint, pool, new ReplyCollector(1)), promise);
        ExecutionException failure = assertThrows(ExecutionException.class, () -> promise.get(10, TimeUnit.SECONDS));
        assertInstanceOf(IOException.class, failure.getCause());
        assertTrue(failure.getCause().getMessage().contains(String.valueOf(port)), failure.getCause().getMessage());
        assertTrue(failure.getCause().getCause() instanceof ConnectException, String.valueOf(failure.getCause().getCause()));
    }

    private ClientConnector startedConnector(Duration connectTimeout) throws Exception {
        ClientConnector connector = new ClientConnector();
        connector.setConnectTimeout(connectTimeout);
        connector.setByteBufferPool(pool);
        connector.start();
        closeLater(connector::stop);
        return connector;
    }
}
