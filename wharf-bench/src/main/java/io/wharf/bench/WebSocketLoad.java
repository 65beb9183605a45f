package io.wharf.bench;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The driver of the {@code ws-echo} and {@code ws-idle} runs: a minimal WebSocket client on
 * plain NIO, so that one thread on the driver's CPU can keep hundreds of connections busy
 * (Wharf's {@code WebSocketClient}, a whole session per connection, would spend more CPU per
 * message than the servers it loads). Each connection is opened and upgraded blocking
 * ({@link #open}), then {@link #start} runs them all on one selector thread: every connection
 * keeps {@code inFlight} five-byte text messages ({@code hello}) on their way, sending one
 * more for each echo read, and checks each echo byte by byte. The frames sent are masked as
 * RFC 6455 section 5.3 requires; the masks are random but made once per connection and
 * reused, which the servers cannot tell. {@link #stop} stops sending, waits for the messages
 * on their way, and closes each session with a close frame (1000).
 */
final class WebSocketLoad implements AutoCloseable {

    static final byte[] MESSAGE = "hello".getBytes(StandardCharsets.US_ASCII);
    /** The echo as the server sends it: FIN + text, unmasked length 5, the bytes. */
    private static final byte[] ECHO = {(byte) 0x81, 5, 'h', 'e', 'l', 'l', 'o'};
    /** A masked frame of five bytes: 2 header bytes, 4 of mask, 5 of payload. */
    private static final int FRAME = 11;
    /** How many masked frames one write takes at most. */
    private static final int BATCH = 16;

    private final List<Peer> peers = new ArrayList<>();
    private final Selector selector;
    private final ByteBuffer input = ByteBuffer.allocateDirect(64 * 1024);
    private final Thread thread;
    private volatile long echoes;
    private volatile boolean stopping;
    private volatile Throwable failure;
    private int inFlight;

    private WebSocketLoad(List<SocketChannel> channels) throws IOException {
        this.selector = Selector.open();
        for (SocketChannel channel : channels) {
            channel.configureBlocking(false);
            Peer peer = new Peer(channel);
            peer.key = channel.register(selector, SelectionKey.OP_READ, peer);
            peers.add(peer);
        }
        this.thread = new Thread(this::loop, "ws-load");
    }

    /**
     * Connects to {@code address}, sends the opening handshake for {@code path} and reads the
     * answer, which must be 101.
     *
     * @return the upgraded channel, in blocking mode
     */
    static SocketChannel open(InetSocketAddress address, String path) throws IOException {
        SocketChannel channel = SocketChannel.open(address);
        try {
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            byte[] key = new byte[16];
            ThreadLocalRandom.current().nextBytes(key);
            String request = "GET " + path + " HTTP/1.1\r\nHost: " + address.getHostString() + ":" + address.getPort()
                + "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + Base64.getEncoder().encodeToString(key)
                + "\r\nSec-WebSocket-Version: 13\r\n\r\n";
            writeFully(channel, ByteBuffer.wrap(request.getBytes(StandardCharsets.US_ASCII)));
            String head = readHead(channel);
            if (!head.startsWith("HTTP/1.1 101")) {
                throw new IOException("no upgrade on " + path + ": " + head.lines().findFirst().orElse(""));
            }
            return channel;
        } catch (IOException x) {
            channel.close();
            throw x;
        }
    }

    /** Sends one message on a blocking upgraded channel and reads its echo. */
    static void echoOnce(SocketChannel channel) throws IOException {
        writeFully(channel, frames(1));
        ByteBuffer echo = ByteBuffer.allocate(ECHO.length);
        while (echo.hasRemaining()) {
            if (channel.read(echo) < 0) {
                throw new IOException("closed before the echo");
            }
        }
        for (int i = 0; i < ECHO.length; i++) {
            if (echo.get(i) != ECHO[i]) {
                throw new IOException("wrong echo byte " + i + ": " + echo.get(i));
            }
        }
    }

    /**
     * Closes blocking upgraded channels as a client should: a close frame (1000) on each, then
     * each read until the server's close and end of input (at most 10 s each), then closed
     * whatever happened.
     */
    static void closeSessions(List<SocketChannel> channels) throws IOException {
        try {
            for (SocketChannel channel : channels) {
                writeFully(channel, closeFrame());
            }
            byte[] rest = new byte[256];
            for (SocketChannel channel : channels) {
                channel.socket().setSoTimeout(10_000);
                InputStream in = channel.socket().getInputStream();
                while (in.read(rest) >= 0) {
                    // the server's close frame, then the end
                }
            }
        } finally {
            for (SocketChannel channel : channels) {
                channel.close();
            }
        }
    }

    /** Starts the load on the given upgraded channels, which it owns from now on. */
    static WebSocketLoad start(List<SocketChannel> channels, int inFlight) throws IOException {
        WebSocketLoad load = new WebSocketLoad(channels);
        load.inFlight = inFlight;
        load.thread.start();
        return load;
    }

    /** @return the echoes read so far; throws what stopped the load if it failed */
    long echoes() {
        Throwable cause = failure;
        if (cause != null) {
            throw new IllegalStateException("the WebSocket load failed: " + cause, cause);
        }
        return echoes;
    }

    /** Stops sending, reads the echoes still due, closes every session with 1000 and waits for the servers' close. */
    void stop() throws InterruptedException {
        stopping = true;
        selector.wakeup();
        thread.join(30_000);
        echoes();
        if (thread.isAlive()) {
            throw new IllegalStateException("the WebSocket load did not stop within 30 s");
        }
    }

    @Override
    public void close() throws IOException, InterruptedException {
        stopping = true;
        selector.wakeup();
        thread.join(30_000);
        for (Peer peer : peers) {
            peer.channel.close();
        }
        selector.close();
    }

    private void loop() {
        try {
            for (Peer peer : peers) {
                peer.owed = inFlight;
                peer.due = inFlight;
                peer.flush();
            }
            long open = peers.size();
            boolean closing = false;
            long closeDeadline = 0;
            while (open > 0) {
                selector.select(100);
                for (SelectionKey key : selector.selectedKeys()) {
                    Peer peer = (Peer) key.attachment();
                    if (key.isReadable() && !peer.read()) {
                        open--;
                        continue;
                    }
                    if (key.isValid() && key.isWritable()) {
                        peer.flush();
                    }
                }
                selector.selectedKeys().clear();
                if (stopping && !closing && peers.stream().allMatch(peer -> peer.due == 0 && peer.owed == 0)) {
                    closing = true;
                    closeDeadline = System.nanoTime() + 10_000_000_000L;
                    for (Peer peer : peers) {
                        peer.sendClose();
                    }
                }
                if (closing && System.nanoTime() > closeDeadline) {
                    throw new IOException(open + " sessions not closed by the server 10 s after their close frame");
                }
            }
        } catch (Throwable x) {
            failure = x;
        }
    }

    private static String readHead(SocketChannel channel) throws IOException {
        ByteBuffer head = ByteBuffer.allocate(4096);
        while (true) {
            if (!head.hasRemaining() || channel.read(head) < 0) {
                throw new IOException("no complete handshake answer: "
                    + new String(head.array(), 0, head.position(), StandardCharsets.US_ASCII));
            }
            String text = new String(head.array(), 0, head.position(), StandardCharsets.US_ASCII);
            int end = text.indexOf("\r\n\r\n");
            if (end >= 0) {
                return text.substring(0, end + 4); // a refusal may have a body after its head; a 101 has nothing after it
            }
        }
    }

    private static void writeFully(SocketChannel channel, ByteBuffer buffer) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer);
        }
    }

    /** @return a masked close frame with status 1000 */
    private static ByteBuffer closeFrame() {
        byte[] mask = new byte[4];
        ThreadLocalRandom.current().nextBytes(mask);
        return ByteBuffer.allocate(8).put((byte) 0x88).put((byte) 0x82).put(mask)
            .put((byte) (0x03 ^ mask[0])).put((byte) (0xE8 ^ mask[1])).flip();
    }

    /** @return {@code count} masked text frames of {@link #MESSAGE}, each with its own random mask */
    private static ByteBuffer frames(int count) {
        ByteBuffer frames = ByteBuffer.allocate(count * FRAME);
        byte[] mask = new byte[4];
        for (int n = 0; n < count; n++) {
            ThreadLocalRandom.current().nextBytes(mask);
            frames.put((byte) 0x81).put((byte) (0x80 | MESSAGE.length)).put(mask);
            for (int i = 0; i < MESSAGE.length; i++) {
                frames.put((byte) (MESSAGE[i] ^ mask[i & 3]));
            }
        }
        return frames.flip();
    }

    /** One connection of the load: what it owes the server and what the server owes it. */
    private final class Peer {
        final SocketChannel channel;
        final ByteBuffer block = frames(BATCH);
        final ByteBuffer out = block.duplicate().limit(0);
        SelectionKey key;
        /** Messages to send and not yet put in {@link #out}. */
        int owed;
        /** Messages sent or owed whose echo has not been read. */
        int due;
        /** Bytes of the current echo frame already read. */
        int phase;
        boolean closing;

        Peer(SocketChannel channel) {
            this.channel = channel;
        }

        void flush() throws IOException {
            while (true) {
                if (!out.hasRemaining()) {
                    if (owed == 0) {
                        key.interestOps(SelectionKey.OP_READ);
                        return;
                    }
                    int batch = Math.min(owed, BATCH);
                    owed -= batch;
                    out.clear().limit(batch * FRAME);
                }
                channel.write(out);
                if (out.hasRemaining()) {
                    key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
                    return;
                }
            }
        }

        /** @return false when the channel ended (after our close) and was closed */
        boolean read() throws IOException {
            while (true) {
                input.clear();
                int read = channel.read(input);
                if (read < 0) {
                    if (!closing) {
                        throw new IOException("the server closed a connection with " + due + " echoes due");
                    }
                    channel.close();
                    return false;
                }
                if (read == 0) {
                    return true;
                }
                if (!closing) {
                    check(input.flip());
                }
            }
        }

        private void check(ByteBuffer bytes) throws IOException {
            int complete = 0;
            while (bytes.hasRemaining()) {
                byte b = bytes.get();
                if (b != ECHO[phase]) {
                    throw new IOException("wrong echo byte " + phase + ": " + b);
                }
                if (++phase == ECHO.length) {
                    phase = 0;
                    complete++;
                }
            }
            if (complete == 0) {
                return;
            }
            due -= complete;
            echoes += complete;
            if (!stopping) {
                owed += complete;
                due += complete;
                flush();
            }
        }

        void sendClose() throws IOException {
            closing = true;
            writeFully(channel, closeFrame());
        }
    }
}
