package io.wharf.tests;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A separate process for {@link IdleWebSocketsTest}: opens N WebSocket sessions with plain
 * blocking sockets (the RFC 6455 handshake written by hand, one masked text frame each, its
 * echo read back), prints {@code READY N}, keeps them open and idle until its standard input
 * ends, then exits (closing them). In its own process so that the server's and the clients'
 * sockets do not share one file-descriptor limit.
 */
public final class IdleWebSocketClients {

    private IdleWebSocketClients() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress address = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int count = Integer.parseInt(args[2]);
        List<SocketChannel> open = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            open.add(session(address, i));
        }
        System.out.println("READY " + open.size());
        System.out.flush();
        while (System.in.read() >= 0) {
            // Idle until the test closes our input.
        }
        for (SocketChannel channel : open) {
            channel.close();
        }
    }

    private static SocketChannel session(InetSocketAddress address, int index) throws IOException {
        SocketChannel channel = SocketChannel.open(address);
        byte[] nonce = new byte[16];
        ThreadLocalRandom.current().nextBytes(nonce);
        String handshake = "GET / HTTP/1.1\r\nHost: " + address.getHostString() + ":" + address.getPort()
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(nonce)
                + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
        write(channel, ByteBuffer.wrap(handshake.getBytes(StandardCharsets.US_ASCII)));
        String head = readHead(channel);
        if (!head.startsWith("HTTP/1.1 101 ")) {
            throw new IOException("session " + index + " was answered " + head);
        }
        byte[] text = "hello".getBytes(StandardCharsets.US_ASCII);
        ByteBuffer frame = ByteBuffer.allocate(2 + 4 + text.length);
        frame.put((byte) 0x81).put((byte) (0x80 | text.length));
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        frame.put(mask);
        for (int i = 0; i < text.length; i++) {
            frame.put((byte) (text[i] ^ mask[i & 3]));
        }
        write(channel, frame.flip());
        ByteBuffer echo = ByteBuffer.allocate(2 + text.length);
        while (echo.hasRemaining()) {
            if (channel.read(echo) < 0) {
                throw new IOException("session " + index + " closed before its echo");
            }
        }
        if (echo.get(0) != (byte) 0x81 || echo.get(1) != text.length
                || !"hello".equals(new String(echo.array(), 2, text.length, StandardCharsets.US_ASCII))) {
            throw new IOException("session " + index + " echoed something else");
        }
        return channel;
    }

    private static void write(SocketChannel channel, ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            channel.write(bytes);
        }
    }

    private static String readHead(SocketChannel channel) throws IOException {
        StringBuilder head = new StringBuilder();
        ByteBuffer one = ByteBuffer.allocate(1);
        while (!head.toString().endsWith("\r\n\r\n")) {
            one.clear();
            if (channel.read(one) < 0) {
                throw new IOException("closed during the handshake after " + head);
            }
            head.append((char) one.get(0));
        }
        return head.toString();
    }
}
