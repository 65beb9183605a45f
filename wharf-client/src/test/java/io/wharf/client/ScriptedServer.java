package io.wharf.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Test fixture: a plain blocking socket server on 127.0.0.1 that plays a script per
 * connection, for responses Wharf's server would never send (close-delimited, HTTP/1.0,
 * malformed, over-long heads, a keep-alive connection closed under a request). Each accepted
 * connection gets the next {@link Script}; the requests' heads are recorded.
 */
@SuppressWarnings("try") // close() waits for the script threads, which may be interrupted; tests let that propagate.
final class ScriptedServer implements AutoCloseable {

    /** What one connection does: reads requests with {@link Peer#readHead()}, writes answers. */
    @FunctionalInterface
    interface Script {
        void play(Peer peer) throws IOException;
    }

    /** One accepted connection, for a script. */
    static final class Peer {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final List<String> heads;

        Peer(Socket socket, List<String> heads) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
            this.heads = heads;
        }

        /** @return the next request head (up to the blank line), or null at the end of input */
        String readHead() throws IOException {
            ByteArrayOutputStream head = new ByteArrayOutputStream();
            int matched = 0;
            while (matched < 4) {
                int b = in.read();
                if (b < 0) {
                    return null;
                }
                head.write(b);
                matched = (b == '\r' && matched % 2 == 0) || (b == '\n' && matched % 2 == 1) ? matched + 1 : 0;
            }
            String text = head.toString(StandardCharsets.ISO_8859_1);
            heads.add(text);
            return text;
        }

        /** Reads {@code count} content bytes. */
        byte[] readBytes(int count) throws IOException {
            return in.readNBytes(count);
        }

        /** Reads time out after {@code millis} (0: never), with a {@link java.net.SocketTimeoutException}. */
        void readTimeout(int millis) throws IOException {
            socket.setSoTimeout(millis);
        }

        void write(String text) throws IOException {
            write(text.getBytes(StandardCharsets.ISO_8859_1));
        }

        void write(byte[] bytes) throws IOException {
            out.write(bytes);
            out.flush();
        }

        /**
         * Plays a tunnel's far side: connects to 127.0.0.1:{@code port} and copies bytes both
         * ways until each side has ended its output.
         */
        void relayTo(int port) throws IOException {
            try (Socket target = new Socket(InetAddress.getLoopbackAddress(), port)) {
                Thread back = new Thread(() -> {
                    try {
                        target.getInputStream().transferTo(out);
                        socket.shutdownOutput();
                    } catch (IOException ended) {
                        // One side went away: the relay ends.
                    }
                }, "relay-back");
                back.setDaemon(true);
                back.start();
                in.transferTo(target.getOutputStream());
                target.shutdownOutput();
                back.join(10_000);
            } catch (InterruptedException x) {
                Thread.currentThread().interrupt();
            }
        }

        void close() throws IOException {
            socket.close();
        }
    }

    private final ServerSocket serverSocket;
    private final ExecutorService threads = Executors.newCachedThreadPool();
    final List<String> heads = new CopyOnWriteArrayList<>();
    private volatile int accepted;

    /** Plays {@code scripts} on the successive connections; the last one plays for all later connections. */
    ScriptedServer(Script... scripts) throws IOException {
        serverSocket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        threads.execute(() -> {
            while (!serverSocket.isClosed()) {
                try {
                    Socket socket = serverSocket.accept();
                    Script script = scripts[Math.min(accepted, scripts.length - 1)];
                    accepted++;
                    threads.execute(() -> {
                        try (socket) {
                            script.play(new Peer(socket, heads));
                        } catch (IOException ignored) {
                            // The client went away: the script ends.
                        }
                    });
                } catch (IOException x) {
                    return;
                }
            }
        });
    }

    int accepted() {
        return accepted;
    }

    int port() {
        return serverSocket.getLocalPort();
    }

    String uri(String path) {
        return "http://127.0.0.1:" + serverSocket.getLocalPort() + path;
    }

    @Override
    public void close() throws Exception {
        serverSocket.close();
        threads.shutdownNow();
        threads.awaitTermination(5, TimeUnit.SECONDS);
    }
}
