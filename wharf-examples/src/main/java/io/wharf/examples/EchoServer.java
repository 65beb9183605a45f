package io.wharf.examples;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.SelectorGroup;
import io.wharf.util.buffer.BucketedByteBufferPool;
import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.component.ContainerLifeCycle;
import io.wharf.util.thread.QueuedThreadPool;
import io.wharf.util.thread.TimerScheduler;

/**
 * A TCP echo server on Wharf's I/O layer: a {@link SelectorGroup} accepting on a port and
 * an {@link EchoConnection} per client. The demo runs it; the benchmarks measure it.
 */
public final class EchoServer extends ContainerLifeCycle {

    private final InetSocketAddress address;
    private final ByteBufferPool pool = new BucketedByteBufferPool();
    private final QueuedThreadPool threads = new QueuedThreadPool();
    private final TimerScheduler scheduler = new TimerScheduler();
    private final SelectorGroup group;
    private ServerSocketChannel server;
    private Closeable acceptor;

    /**
     * @param address where to listen; port 0 picks a free one
     * @param selectors how many selectors; 0 for one per core
     * @param idleTimeout how long a silent client may stay
     */
    public EchoServer(InetSocketAddress address, int selectors, Duration idleTimeout) {
        this.address = address;
        threads.setName("echo");
        group = new SelectorGroup(threads, scheduler, selectors, new SelectorGroup.Opener() {
            @Override
            public Connection newConnection(EndPoint endPoint, Object attachment) {
                return new EchoConnection(endPoint, pool);
            }

            @Override
            public void configureAccepted(SocketChannel channel) throws IOException {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
        });
        group.setIdleTimeout(idleTimeout);
        addBean(threads, true);
        addBean(scheduler, true);
        addBean(pool, false);
        addBean(group, true);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        server = ServerSocketChannel.open();
        server.bind(address, 4096);
        acceptor = group.acceptor(server);
    }

    @Override
    protected void doStop() throws Exception {
        if (acceptor != null) {
            acceptor.close();
        }
        if (server != null) {
            server.close();
        }
        super.doStop();
    }

    /** @return the address bound, with the real port; valid once started */
    public InetSocketAddress boundAddress() throws IOException {
        return (InetSocketAddress) server.getLocalAddress();
    }

    /** @return the group of selectors, for counters */
    public SelectorGroup group() {
        return group;
    }
}
