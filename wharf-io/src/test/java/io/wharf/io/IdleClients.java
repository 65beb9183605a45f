package io.wharf.io;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A separate process that holds many idle client connections, so that the server under
 * test has the file descriptors of its own process to itself.
 *
 * <p>Usage: {@code IdleClients HOST PORT COUNT}. Prints {@code CONNECTED n}, then obeys
 * commands on standard input: {@code PING k} writes one byte on each of the first k
 * connections, reads the echo back and prints {@code PONG k}; end of input closes all.
 */
public final class IdleClients {

    private IdleClients() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress address = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int count = Integer.parseInt(args[2]);
        List<SocketChannel> channels = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                channels.add(SocketChannel.open(address));
            }
            System.out.println("CONNECTED " + channels.size());
            System.out.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = commands.readLine()) != null) {
                if (line.startsWith("PING ")) {
                    int k = Integer.parseInt(line.substring(5).trim());
                    for (int i = 0; i < k; i++) {
                        SocketChannel channel = channels.get(i);
                        channel.write(ByteBuffer.wrap(new byte[] {(byte) i}));
                        ByteBuffer echo = ByteBuffer.allocate(1);
                        while (echo.hasRemaining()) {
                            if (channel.read(echo) < 0) {
                                throw new IllegalStateException("connection " + i + " closed");
                            }
                        }
                        if (echo.get(0) != (byte) i) {
                            throw new IllegalStateException("connection " + i + " echoed " + echo.get(0));
                        }
                    }
                    System.out.println("PONG " + k);
                    System.out.flush();
                }
            }
        } finally {
            for (SocketChannel channel : channels) {
                channel.close();
            }
        }
    }
}
