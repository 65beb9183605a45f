package io.wharf.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.wharf.io.connect.ClientConnector;
import io.wharf.testing.Deadline;
import io.wharf.testing.LeakTracking;
import io.wharf.testing.SocketTables;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.Promise;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Half-close as an event, upgrade on one endpoint, client bind address, and the dump. */
@Timeout(30)
class EndPointEventsTest {

    @RegisterExtension
    final LeakTracking leaks = new LeakTracking();

    @Test
    void halfCloseIsToldAsAnEventAndOutputStaysUsable() throws Exception {
        CompletableFuture<Boolean> told = new CompletableFuture<>();
        try (EchoServer server = new EchoServer(leaks.pool(), false, Duration.ofSeconds(30), (endPoint, pool) -> new Farewell(endPoint, told));
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.shutdownOutput();
            assertTrue(told.get(5, TimeUnit.SECONDS), "when told, the input is shut and the output still open");
            InputStream in = socket.getInputStream();
            assertEquals("goodbye", new String(in.readNBytes(7), StandardCharsets.UTF_8), "written after the peer's half-close");
            assertEquals(-1, in.read());
            EndPoint endPoint = server.opened().get(0).getEndPoint();
            Deadline.await(() -> !endPoint.isOpen(), Duration.ofSeconds(5));
        }
    }

    /** Reads until the end of input, then waits for the event to say goodbye and shut its output. */
    private static final class Farewell extends AbstractConnection {
        private final CompletableFuture<Boolean> told;

        Farewell(EndPoint endPoint, CompletableFuture<Boolean> told) {
            super(endPoint, Runnable::run);
            this.told = told;
        }

        @Override
        public void onOpen() {
            fillInterested();
        }

        @Override
        public void onFillable() {
            try {
                ByteBuffer sink = ByteBuffer.allocate(64).limit(0);
                int filled;
                while ((filled = getEndPoint().fill(sink)) > 0) {
                    sink.clear().limit(0);
                }
                if (filled == 0) {
                    fillInterested();
                }
            } catch (IOException x) {
                getEndPoint().close(x);
            }
        }

        @Override
        public void onInputShutdown() {
            told.complete(getEndPoint().isInputShutdown() && !getEndPoint().isOutputShutdown());
            getEndPoint().write(Callback.from(InvocationType.NON_BLOCKING, getEndPoint()::shutdownOutput, getEndPoint()::close),
                ByteBuffers.utf8("goodbye"));
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    @Test
    void upgradeHandsUnreadBytesToTheNextConnection() throws Exception {
        try (EchoServer server = new EchoServer(leaks.pool(), false, Duration.ofSeconds(30), Switcher::new);
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write("SWITCH\nalready here;".getBytes(StandardCharsets.UTF_8));
            InputStream in = socket.getInputStream();
            assertEquals("already here;", new String(in.readNBytes(13), StandardCharsets.UTF_8), "bytes read before the upgrade are echoed");
            socket.getOutputStream().write("and later".getBytes(StandardCharsets.UTF_8));
            assertEquals("and later", new String(in.readNBytes(9), StandardCharsets.UTF_8));
            assertTrue(server.opened().get(0) instanceof Switcher);
        }
    }

    /** Reads a line "SWITCH", then upgrades the endpoint to an echo connection, handing over what followed. */
    private static final class Switcher extends AbstractConnection implements Connection.UpgradeFrom {
        private final ByteBufferPool pool;
        private RetainableByteBuffer buffer;

        Switcher(EndPoint endPoint, ByteBufferPool pool) {
            super(endPoint, Runnable::run);
            this.pool = pool;
        }

        @Override
        public void onOpen() {
            fillInterested();
        }

        @Override
        public void onFillable() {
            if (buffer == null) {
                buffer = pool.acquire(256, false);
            }
            try {
                int filled = getEndPoint().fill(buffer.byteBuffer());
                String text = ByteBuffers.toUtf8(buffer.byteBuffer());
                int newline = text.indexOf('\n');
                if (newline >= 0 && text.startsWith("SWITCH")) {
                    buffer.byteBuffer().position(buffer.byteBuffer().position() + newline + 1);
                    getEndPoint().upgrade(new UpgradedEcho(getEndPoint(), pool));
                } else if (filled >= 0) {
                    fillInterested();
                } else {
                    getEndPoint().close();
                }
            } catch (IOException x) {
                getEndPoint().close(x);
            }
        }

        @Override
        public RetainableByteBuffer onUpgradeFrom() {
            RetainableByteBuffer unread = buffer;
            buffer = null;
            return unread;
        }

        @Override
        public void onClose(Throwable cause) {
            if (buffer != null) {
                buffer.release();
                buffer = null;
            }
        }

        @Override
        public InvocationType invocationType() {
            return InvocationType.NON_BLOCKING;
        }
    }

    /** An echo that first writes back the bytes it was handed at the upgrade. */
    private static final class UpgradedEcho extends EchoConnection implements Connection.UpgradeTo {
        private RetainableByteBuffer prefilled;

        UpgradedEcho(EndPoint endPoint, ByteBufferPool pool) {
            super(endPoint, pool, 4096);
        }

        @Override
        public void onUpgradeTo(RetainableByteBuffer prefilled) {
            this.prefilled = prefilled;
        }

        @Override
        public void onOpen() {
            RetainableByteBuffer first = prefilled;
            prefilled = null;
            if (first == null) {
                super.onOpen();
                return;
            }
            getEndPoint().write(Callback.from(InvocationType.NON_BLOCKING, () -> {
                first.release();
                super.onOpen();
            }, x -> {
                first.release();
                getEndPoint().close(x);
            }), first.byteBuffer());
        }
    }

    @Test
    void clientConnectorBindsToTheGivenAddress() throws Exception {
        try (EchoServer server = new EchoServer(leaks.pool())) {
            ClientConnector connector = new ClientConnector();
            connector.setByteBufferPool(leaks.pool());
            connector.setBindAddress(new InetSocketAddress("127.0.0.2", 0));
            connector.start();
            try {
                Promise.Completable<Connection> promise = new Promise.Completable<>();
                connector.connect(server.address(), endPoint -> new ClientTestConnection(endPoint, leaks.pool(), new ReplyCollector(1)), promise);
                Connection connection = promise.get(5, TimeUnit.SECONDS);
                InetSocketAddress local = (InetSocketAddress) connection.getEndPoint().getLocalSocketAddress();
                assertEquals("127.0.0.2", local.getAddress().getHostAddress());
                Deadline.await(() -> server.opened().size() == 1, Duration.ofSeconds(5));
                InetSocketAddress remote = (InetSocketAddress) server.opened().get(0).getEndPoint().getRemoteSocketAddress();
                assertEquals("127.0.0.2", remote.getAddress().getHostAddress(), "the server sees the bound address");
                connection.close();
            } finally {
                connector.stop();
            }
        }
    }

    /** An IPv4 server gets an IPv4 socket, not the JDK's default IPv6 one (Linux's tables tell). */
    @Test
    void clientConnectorOpensIpv4SocketsToIpv4Addresses() throws Exception {
        assumeTrue(SocketTables.available(), "needs Linux's /proc/net/tcp and tcp6");
        try (EchoServer server = new EchoServer(leaks.pool())) {
            assumeTrue(((InetSocketAddress) server.address()).getAddress() instanceof Inet4Address, "the echo server listens on IPv4");
            ClientConnector connector = new ClientConnector();
            connector.setByteBufferPool(leaks.pool());
            connector.start();
            try {
                Promise.Completable<Connection> promise = new Promise.Completable<>();
                connector.connect(server.address(), endPoint -> new ClientTestConnection(endPoint, leaks.pool(), new ReplyCollector(1)), promise);
                Connection connection = promise.get(5, TimeUnit.SECONDS);
                int local = ((InetSocketAddress) connection.getEndPoint().getLocalSocketAddress()).getPort();
                assertEquals(List.of("tcp"), SocketTables.tablesOf(local, server.port()));
                connection.close();
            } finally {
                connector.stop();
            }
        }
    }

    @Test
    void dumpShowsTheTree() throws Exception {
        try (EchoServer server = new EchoServer(leaks.pool());
             Socket socket = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
            socket.getOutputStream().write('x');
            assertEquals('x', socket.getInputStream().read());
            String dump = server.group().dump();
            assertTrue(dump.startsWith("SelectorGroup@"), dump);
            assertTrue(dump.contains("SelectorLoop#0") && dump.contains("SelectorLoop#1"), dump);
            assertTrue(dump.contains("endpoints=1"), dump);
        }
    }

    @Test
    void connectorStopsCleanlyWithOpenConnections() throws Exception {
        CountDownLatch closed = new CountDownLatch(1);
        try (EchoServer server = new EchoServer(leaks.pool())) {
            ClientConnector connector = new ClientConnector();
            connector.setByteBufferPool(leaks.pool());
            connector.start();
            Promise.Completable<Connection> promise = new Promise.Completable<>();
            connector.connect(server.address(), endPoint -> new ClientTestConnection(endPoint, leaks.pool(), new ReplyCollector(1)) {
                @Override
                public void onClose(Throwable cause) {
                    closed.countDown();
                }
            }, promise);
            promise.get(5, TimeUnit.SECONDS);
            connector.stop();
            assertTrue(closed.await(5, TimeUnit.SECONDS), "stopping the connector closes its connections");
        }
    }
}
