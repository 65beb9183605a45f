package io.wharf.io;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardSocketOptions;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import java.util.function.BiFunction;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.util.thread.TimerScheduler;

/**
 * Test server: a {@link SelectorGroup} accepting on a loopback TCP port (or a Unix domain
 * socket) and opening one connection per channel, an {@link EchoConnection} by default.
 * Records the causes endpoints closed with.
 */
public class EchoServer implements Closeable {

    private final QueuedThreadPool threads = new QueuedThreadPool();
    private final TimerScheduler scheduler = new TimerScheduler();
    private final ByteBufferPool pool;
    private final ServerSocketChannel server;
    private final SelectorGroup group;
    private final List<Throwable> closeCauses = new CopyOnWriteArrayList<>();
    private final List<Connection> opened = new CopyOnWriteArrayList<>();
    private final Path unixPath;
    private Closeable acceptor;

    public EchoServer(ByteBufferPool pool) throws Exception {
        this(pool, false, Duration.ofSeconds(30), (endPoint, p) -> new EchoConnection(endPoint, p, 4096));
    }

    public EchoServer(ByteBufferPool pool, boolean unix, Duration idleTimeout,
                      BiFunction<EndPoint, ByteBufferPool, Connection> connections) throws Exception {
        this(pool, unix, idleTimeout, (endPoint, p, executor) -> connections.apply(endPoint, p));
    }

    /** Makes the connection of an accepted endpoint, with the server's executor (a TLS layer needs one). */
    public interface Connections {
        Connection newConnection(EndPoint endPoint, ByteBufferPool pool, Executor executor) throws IOException;
    }

    public EchoServer(ByteBufferPool pool, boolean unix, Duration idleTimeout, Connections connections) throws Exception {
        this.pool = pool;
        threads.setName("echo-server");
        if (unix) {
            unixPath = Files.createTempDirectory("wharf-io-test").resolve("echo.sock");
            server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            server.bind(UnixDomainSocketAddress.of(unixPath), 1024);
        } else {
            unixPath = null;
            server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4096);
        }
        group = new SelectorGroup(threads, scheduler, 2, new SelectorGroup.Opener() {
            @Override
            public Connection newConnection(EndPoint endPoint, Object attachment) throws IOException {
                Connection connection = connections.newConnection(endPoint, EchoServer.this.pool, threads);
                opened.add(connection);
                return connection;
            }

            @Override
            public void configureAccepted(SocketChannel channel) throws IOException {
                // Unix domain channels have no TCP options.
                if (channel.supportedOptions().contains(StandardSocketOptions.TCP_NODELAY)) {
                    channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
                }
            }

            @Override
            public void closed(EndPoint endPoint, Throwable cause) {
                closeCauses.add(cause == null ? new NormalClose() : cause);
            }
        });
        group.setIdleTimeout(idleTimeout);
        threads.start();
        scheduler.start();
        group.start();
        acceptor = group.acceptor(server);
    }

    /** @return where clients connect */
    public SocketAddress address() throws IOException {
        return server.getLocalAddress();
    }

    /** @return the port, for TCP */
    public int port() throws IOException {
        return ((InetSocketAddress) server.getLocalAddress()).getPort();
    }

    public SelectorGroup group() {
        return group;
    }

    public List<Throwable> closeCauses() {
        return closeCauses;
    }

    public List<Connection> opened() {
        return opened;
    }

    /** Marks a close without a cause in {@link #closeCauses()}. */
    public static final class NormalClose extends Exception {
        NormalClose() {
            super("normal close", null, false, false);
        }
    }

    @Override
    public void close() throws IOException {
        try {
            acceptor.close();
            server.close();
            group.stop();
            scheduler.stop();
            threads.stop();
        } catch (IOException | RuntimeException x) {
            throw x;
        } catch (Exception x) {
            throw new IOException(x);
        } finally {
            if (unixPath != null) {
                Files.deleteIfExists(unixPath);
                Files.deleteIfExists(unixPath.getParent());
            }
        }
    }
}
