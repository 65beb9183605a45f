package io.wharf.server;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

import io.wharf.io.Connection;
import io.wharf.io.MemoryEndPoint;
import io.wharf.server.internal.ResponseReader;

/**
 * A connector without sockets: each {@link #connect()} opens an in-memory pipe whose server
 * end speaks the connector's protocols. Tests send raw bytes (requests in text blocks) and
 * read raw responses, so every protocol edge case is one string; embedders can also serve
 * requests in-process with it.
 *
 * <p>Thread-safe. A {@link Client} is used by one test thread at a time.
 */
public class LocalConnector extends AbstractConnector {

    private final int pipeCapacity;
    private volatile boolean accepting = true;

    /**
     * A connector speaking the given protocols (at least one, the first being the one each
     * connection starts with), with 64 KiB pipes.
     *
     * @throws IllegalArgumentException when no factory is given
     */
    public LocalConnector(Server server, ConnectionFactory... factories) {
        this(server, 64 * 1024, factories);
    }

    /**
     * @param pipeCapacity how many bytes each direction of a pipe buffers
     * @throws IllegalArgumentException when no factory is given
     */
    public LocalConnector(Server server, int pipeCapacity, ConnectionFactory... factories) {
        super(server, factories);
        this.pipeCapacity = pipeCapacity;
    }

    @Override
    protected void doStart() throws Exception {
        accepting = true;
        super.doStart();
    }

    /**
     * Opens a connection.
     *
     * @throws IllegalStateException when the connector is not running or no longer accepts
     */
    public Client connect() {
        return new Client(openEndPoint());
    }

    /**
     * Opens a connection and hands back the bare client end of its pipe, for a caller that
     * drives the pipe itself (a benchmark that runs the executor's tasks on its own thread);
     * {@link #connect()} wraps it in a {@link Client}.
     *
     * @throws IllegalStateException when the connector is not running or no longer accepts
     */
    protected MemoryEndPoint openEndPoint() {
        if (!isRunning() || !accepting) {
            throw new IllegalStateException(getName() + " does not accept connections now");
        }
        MemoryEndPoint[] pipe = MemoryEndPoint.pipe(pipeCapacity, getExecutor(), getScheduler());
        MemoryEndPoint serverEnd = pipe[0];
        Connection connection = newConnection(serverEnd);
        serverEnd.setConnection(connection);
        serverEnd.setCloseListener(cause -> onClosed(serverEnd));
        serverEnd.onOpen();
        connection.onOpen();
        onOpened(connection);
        pipe[1].onOpen();
        return pipe[1];
    }

    /**
     * Sends {@code request} on a new connection and returns the first response, as text.
     *
     * @throws TimeoutException when no complete response came within 10 seconds
     */
    public String getResponse(String request) throws IOException, TimeoutException {
        try (Client client = connect()) {
            client.send(request);
            return client.readResponse(Duration.ofSeconds(10));
        }
    }

    @Override
    protected void stopAccepting() {
        accepting = false;
    }

    /** The client end of a local connection. */
    public static final class Client implements AutoCloseable {
        private final MemoryEndPoint endPoint;
        private final ResponseReader reader;

        Client(MemoryEndPoint endPoint) {
            this.endPoint = endPoint;
            this.reader = new ResponseReader(endPoint);
        }

        /** Sends {@code text} as ISO-8859-1 bytes, waiting until the pipe took them all. */
        public void send(String text) throws IOException {
            send(ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1)));
        }

        /** Sends the buffer's bytes, waiting until the pipe took them all. */
        public void send(ByteBuffer bytes) throws IOException {
            reader.write(bytes);
        }

        /** Half-closes: the server reads the end of input. */
        public void shutdownOutput() {
            endPoint.shutdownOutput();
        }

        /**
         * @param headResponse whether the response answers a HEAD request (it has no content)
         * @return the next complete response as ISO-8859-1 text, or null when the server
         *     closed before sending one
         * @throws TimeoutException when no complete response came within {@code timeout}
         */
        public String readResponse(Duration timeout, boolean headResponse) throws IOException, TimeoutException {
            return reader.readResponse(timeout, headResponse);
        }

        /** @return the next complete response to a non-HEAD request; see {@link #readResponse(Duration, boolean)} */
        public String readResponse(Duration timeout) throws IOException, TimeoutException {
            return reader.readResponse(timeout, false);
        }

        /**
         * Reads raw bytes, for protocols other than HTTP/1 (HTTP/2 frames).
         *
         * @return the bytes that arrived and were not read yet, waiting up to {@code timeout} for
         *     at least one; null when the server closed and nothing is left
         * @throws TimeoutException when nothing came within {@code timeout}
         */
        public ByteBuffer readBytes(Duration timeout) throws IOException, TimeoutException {
            return reader.readAvailable(timeout);
        }

        /** @return everything the server sends until it closes, as ISO-8859-1 text */
        public String readUntilClosed(Duration timeout) throws IOException, TimeoutException {
            return reader.readUntilClosed(timeout);
        }

        /** @return whether the server closed its side */
        public boolean isServerClosed() {
            return endPoint.isInputShutdown() || !endPoint.isOpen();
        }

        @Override
        public void close() {
            endPoint.close();
        }
    }
}
