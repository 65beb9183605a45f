package io.wharf.server;

import java.io.Closeable;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.StandardProtocolFamily;
import java.net.StandardSocketOptions;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.SelectorGroup;

/**
 * Listens on a TCP port or a Unix domain socket and opens a connection per client on one of
 * its selectors, without a dedicated accept thread: the listening channel is registered with
 * {@code acceptors} selectors that accept when it is ready.
 *
 * <p>Configure it before starting: host (null for every interface), port (0 picks a free
 * one), or a Unix socket path instead; accept queue, reuse-address and reuse-port, selector
 * count, idle timeout. {@link #getLocalPort()} tells the bound port once started.
 */
public class ServerConnector extends AbstractConnector {

    private final SelectorGroup selectors;
    private final List<Closeable> acceptingChannels = new ArrayList<>();
    private volatile String host;
    private volatile int port;
    private volatile Path unixSocket;
    private volatile int acceptQueueSize = 1024;
    private volatile int acceptors = 1;
    private volatile boolean reuseAddress = true;
    private volatile boolean reusePort;
    private volatile ServerSocketChannel listening;

    /**
     * A connector with one selector per core and the given protocols, the first being the one
     * each connection starts with: {@code new ServerConnector(server, new HttpConnectionFactory())}
     * for plain HTTP/1.1.
     *
     * @throws IllegalArgumentException when no factory is given
     */
    public ServerConnector(Server server, ConnectionFactory... factories) {
        this(server, 0, factories);
    }

    /**
     * @param selectorCount how many selectors; 0 or less for one per core
     * @param factories the protocols, at least one, the first being the one each connection starts with
     * @throws IllegalArgumentException when no factory is given
     */
    public ServerConnector(Server server, int selectorCount, ConnectionFactory... factories) {
        super(server, factories);
        selectors = new SelectorGroup(server.getThreadPool(), server.getScheduler(), selectorCount, new Opener());
        addBean(selectors, true);
    }

    public String getHost() {
        return host;
    }

    /** @param host the interface to bind, or null for all */
    public void setHost(String host) {
        this.host = host;
    }

    /** @return the configured port (0 means any free one) */
    public int getPort() {
        return port;
    }

    public void setPort(int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port out of range: " + port);
        }
        this.port = port;
    }

    /** @return the Unix domain socket path, or null for TCP */
    public Path getUnixSocket() {
        return unixSocket;
    }

    /** Listens on a Unix domain socket at {@code path} instead of TCP; a stale file there is replaced. */
    public void setUnixSocket(Path path) {
        this.unixSocket = path;
    }

    public int getAcceptQueueSize() {
        return acceptQueueSize;
    }

    /** @param size the listen backlog (default 1024) */
    public void setAcceptQueueSize(int size) {
        this.acceptQueueSize = size;
    }

    public int getAcceptors() {
        return acceptors;
    }

    /** @param acceptors on how many selectors the listening channel is registered (default 1) */
    public void setAcceptors(int acceptors) {
        if (acceptors < 1) {
            throw new IllegalArgumentException("at least one acceptor: " + acceptors);
        }
        this.acceptors = acceptors;
    }

    public boolean isReuseAddress() {
        return reuseAddress;
    }

    public void setReuseAddress(boolean reuseAddress) {
        this.reuseAddress = reuseAddress;
    }

    public boolean isReusePort() {
        return reusePort;
    }

    /** @param reusePort SO_REUSEPORT, so several servers may share the port (where the OS has it) */
    public void setReusePort(boolean reusePort) {
        this.reusePort = reusePort;
    }

    /** @return the selectors of this connector */
    public SelectorGroup getSelectorGroup() {
        return selectors;
    }

    /** @return the port bound once started (the real one when 0 was asked), else -1 */
    public int getLocalPort() {
        SocketAddress address = getLocalAddress();
        return address instanceof InetSocketAddress inet ? inet.getPort() : -1;
    }

    /** @return the address bound once started, else null */
    public SocketAddress getLocalAddress() {
        ServerSocketChannel channel = listening;
        try {
            return channel == null ? null : channel.getLocalAddress();
        } catch (IOException x) {
            return null;
        }
    }

    @Override
    protected void doStart() throws Exception {
        selectors.setIdleTimeout(getIdleTimeout());
        super.doStart();
        listening = open();
        for (int i = 0; i < acceptors; i++) {
            acceptingChannels.add(selectors.acceptor(listening));
        }
    }

    private ServerSocketChannel open() throws IOException {
        Path path = unixSocket;
        if (path != null) {
            Files.deleteIfExists(path);
            ServerSocketChannel channel = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
            channel.bind(UnixDomainSocketAddress.of(path), acceptQueueSize);
            return channel;
        }
        InetSocketAddress address = host == null ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
        // An IPv4 address gets an IPv4 socket: the JDK's default is an IPv6 socket that also
        // carries IPv4, and every read of its connections then takes the kernel's IPv6 path.
        // Every interface (0.0.0.0 too) keeps the default, which takes IPv6 clients as well.
        ServerSocketChannel channel = address.getAddress() instanceof Inet4Address ipv4 && !ipv4.isAnyLocalAddress()
                ? ServerSocketChannel.open(StandardProtocolFamily.INET)
                : ServerSocketChannel.open();
        channel.setOption(StandardSocketOptions.SO_REUSEADDR, reuseAddress);
        if (reusePort && channel.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT)) {
            channel.setOption(StandardSocketOptions.SO_REUSEPORT, true);
        }
        channel.bind(address, acceptQueueSize);
        return channel;
    }

    @Override
    protected synchronized void stopAccepting() {
        for (Closeable accepting : acceptingChannels) {
            try {
                accepting.close();
            } catch (IOException ignored) {
                // Nothing more to do: the listening channel is closed next.
            }
        }
        acceptingChannels.clear();
        ServerSocketChannel channel = listening;
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // Already closed.
            }
            Path path = unixSocket;
            if (path != null) {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException ignored) {
                    // Left for the next start to replace.
                }
            }
        }
    }

    @Override
    public String toString() {
        Path path = unixSocket;
        return super.toString() + (path != null ? "{unix:" + path + "}" : "{" + (host == null ? "0.0.0.0" : host) + ":" + getLocalPort() + "}");
    }

    private final class Opener implements SelectorGroup.Opener {
        @Override
        public Connection newConnection(EndPoint endPoint, Object attachment) {
            return ServerConnector.this.newConnection(endPoint);
        }

        @Override
        public void configureAccepted(SocketChannel channel) throws IOException {
            if (unixSocket == null) {
                channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            }
        }

        @Override
        public void opened(Connection connection, Object attachment) {
            onOpened(connection);
        }

        @Override
        public void closed(EndPoint endPoint, Throwable cause) {
            onClosed(endPoint);
        }
    }
}
