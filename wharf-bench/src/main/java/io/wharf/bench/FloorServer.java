package io.wharf.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The floor under any JVM server in the {@code http} macro run: one thread, one selector,
 * and for every request head ({@code CRLF CRLF}) that a read brings, a fixed 126-byte
 * response of the same shape as the real servers' (status line, Server, Date, Content-Type,
 * Content-Length, {@code Hello, World!}) written from a direct buffer. No parsing, no
 * handler, no pool, no timeouts: not a server, only a measure of what the JDK's selector,
 * {@code read} and {@code write} cost per request on this machine, so that the distance
 * between Wharf and nginx can be split into what Wharf does and what any server on the JVM
 * pays.
 *
 * <pre>
 * taskset -c 0 java -Xms1g -Xmx1g -XX:+UseParallelGC -cp wharf-bench.jar io.wharf.bench.FloorServer 18090
 * taskset -c 1 wrk -t1 -c64 -d10s http://127.0.0.1:18090/plaintext
 * </pre>
 *
 * Prints {@code PORT n} once listening; runs until killed.
 */
public final class FloorServer {

    private static final byte[] RESPONSE = ("HTTP/1.1 200 OK\r\nServer: W\r\nDate: Sun, 22 Nov 2026 06:00:00 GMT\r\n"
            + "Content-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!").getBytes(StandardCharsets.US_ASCII);

    private FloorServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Selector selector = Selector.open();
        ServerSocketChannel server = ServerSocketChannel.open();
        server.bind(new InetSocketAddress("127.0.0.1", port));
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        ByteBuffer response = ByteBuffer.allocateDirect(RESPONSE.length).put(RESPONSE).flip();
        ByteBuffer input = ByteBuffer.allocateDirect(16 * 1024);
        System.out.println("PORT " + ((InetSocketAddress) server.getLocalAddress()).getPort());
        System.out.flush();
        while (true) {
            selector.select(key -> {
                try {
                    if (key.isAcceptable()) {
                        accept(server, selector);
                    } else {
                        answer((SocketChannel) key.channel(), key, input, response);
                    }
                } catch (IOException x) {
                    key.cancel();
                }
            });
        }
    }

    private static void accept(ServerSocketChannel server, Selector selector) throws IOException {
        SocketChannel channel = server.accept();
        if (channel != null) {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            channel.register(selector, SelectionKey.OP_READ);
        }
    }

    /** Reads once and writes one response per request head in what was read. */
    private static void answer(SocketChannel channel, SelectionKey key, ByteBuffer input, ByteBuffer response) throws IOException {
        input.clear();
        int read = channel.read(input);
        if (read < 0) {
            key.cancel();
            channel.close();
            return;
        }
        for (int i = 3; i < read; i++) {
            if (input.get(i) == '\n' && input.get(i - 1) == '\r' && input.get(i - 2) == '\n' && input.get(i - 3) == '\r') {
                channel.write(response.duplicate());
            }
        }
    }
}
