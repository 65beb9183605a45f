package io.wharf.server.tls;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLParameters;

/**
 * Test client: TLS with the JDK's {@link SSLEngine} over a blocking socket the test connected,
 * so a test can tell the server's close_notify from a bare end of input (the JDK's
 * {@code SSLSocket} reads -1 for both). One test thread uses it; heap buffers only.
 */
final class EngineTlsClient implements AutoCloseable {

    /** What {@link #readToEnd()} found: the application bytes, and whether a close_notify ended them. */
    record End(byte[] bytes, boolean closeNotify) {
    }

    private final Socket socket;
    private final SSLEngine engine;
    private final InputStream input;
    private final OutputStream output;
    private final ByteArrayOutputStream received = new ByteArrayOutputStream();
    // Encrypted bytes read and not yet unwrapped, in read mode.
    private ByteBuffer network;
    private ByteBuffer application;
    private boolean ended;
    private boolean closeNotify;
    // Bytes to send ahead of the next wrap's output, in the same write.
    private byte[] pending;

    EngineTlsClient(SSLContext context, Socket socket, String alpn) throws IOException {
        this(context, socket, alpn, new byte[0]);
    }

    /**
     * @param before bytes sent in the same write as the ClientHello, ahead of it (a PROXY
     *     header arriving with the first TLS bytes, as a balancer may send them)
     */
    EngineTlsClient(SSLContext context, Socket socket, String alpn, byte[] before) throws IOException {
        this.socket = socket;
        this.pending = before;
        this.engine = context.createSSLEngine("localhost", socket.getPort());
        engine.setUseClientMode(true);
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setApplicationProtocols(new String[] {alpn});
        engine.setSSLParameters(parameters);
        this.input = socket.getInputStream();
        this.output = socket.getOutputStream();
        this.network = ByteBuffer.allocate(engine.getSession().getPacketBufferSize()).flip();
        this.application = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize());
        handshake();
    }

    private void handshake() throws IOException {
        engine.beginHandshake();
        for (int steps = 0; steps < 1000; steps++) {
            HandshakeStatus status = engine.getHandshakeStatus();
            switch (status) {
                case NEED_WRAP -> wrap(ByteBuffer.allocate(0));
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (unwrap(application.clear()).getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW && !readMore()) {
                        throw new IOException("end of input during the TLS handshake");
                    }
                }
                case NEED_TASK -> {
                    Runnable task;
                    while ((task = engine.getDelegatedTask()) != null) {
                        task.run();
                    }
                }
                default -> {
                    return;
                }
            }
        }
        throw new IOException("TLS handshake did not finish");
    }

    /** Encrypts and sends {@code bytes}. */
    void write(byte[] bytes) throws IOException {
        ByteBuffer source = ByteBuffer.wrap(bytes);
        while (source.hasRemaining()) {
            wrap(source);
        }
    }

    /** Reads until {@code count} application bytes came (or the input ended); returns those read so far and not yet returned. */
    byte[] read(int count) throws IOException {
        while (received.size() < count && readRecords()) {
            // read on
        }
        return take();
    }

    /** Reads every application byte until the server's close_notify or the end of input. */
    End readToEnd() throws IOException {
        while (readRecords()) {
            // read on
        }
        return new End(take(), closeNotify);
    }

    private byte[] take() {
        byte[] bytes = received.toByteArray();
        received.reset();
        return bytes;
    }

    /** Unwraps what came, reading more when a record is incomplete; @return false once the input ended. */
    private boolean readRecords() throws IOException {
        if (ended) {
            return false;
        }
        SSLEngineResult result = unwrap(application.clear());
        received.write(application.array(), 0, application.position());
        switch (result.getStatus()) {
            case CLOSED -> {
                closeNotify = true;
                ended = true;
            }
            case BUFFER_UNDERFLOW -> ended = !readMore();
            case BUFFER_OVERFLOW -> application = ByteBuffer.allocate(application.capacity() * 2);
            default -> {
            }
        }
        return !ended;
    }

    private void wrap(ByteBuffer source) throws IOException {
        ByteBuffer encrypted = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
        engine.wrap(source, encrypted);
        byte[] bytes = new byte[pending.length + encrypted.position()];
        System.arraycopy(pending, 0, bytes, 0, pending.length);
        System.arraycopy(encrypted.array(), 0, bytes, pending.length, encrypted.position());
        pending = new byte[0];
        output.write(bytes);
        output.flush();
    }

    private SSLEngineResult unwrap(ByteBuffer application) throws IOException {
        return engine.unwrap(network, application);
    }

    /** @return false at the end of input */
    private boolean readMore() throws IOException {
        if (network.capacity() - network.remaining() < 4096) {
            network = ByteBuffer.allocate(network.capacity() * 2).put(network).flip();
        }
        network.compact();
        byte[] chunk = new byte[Math.min(network.remaining(), 16 * 1024)];
        int read = input.read(chunk);
        if (read > 0) {
            network.put(chunk, 0, read);
        }
        network.flip();
        return read >= 0;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
