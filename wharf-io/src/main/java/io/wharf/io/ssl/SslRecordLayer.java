package io.wharf.io.ssl;

import java.io.IOException;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import io.wharf.io.EndPoint;
import io.wharf.util.buffer.ByteBuffers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The record layer of one TLS connection: single steps that move records between the
 * {@link SSLEngine}, the pooled {@link SslBuffers} and the network endpoint (wrap, unwrap,
 * read, write, run the engine's tasks). It keeps no wait state and decides nothing about
 * waiting: {@link SslStateMachine} calls it with its lock held and decides.
 *
 * <p>Buffers: wraps go into the encrypted output, unwraps read the encrypted input, network
 * reads append to the encrypted input; each is borrowed by {@link SslBuffers} when needed.
 */
final class SslRecordLayer {

    private static final Logger LOG = LoggerFactory.getLogger(SslRecordLayer.class);
    static final ByteBuffer[] NO_BUFFERS = new ByteBuffer[0];

    private final SSLEngine engine;
    private final EndPoint network;
    private final SslBuffers buffers;
    private final Runnable onHandshakeFinished;
    private String negotiatedProtocol;

    /**
     * @param onHandshakeFinished told (lock held) when a wrap or unwrap completes the first handshake
     */
    SslRecordLayer(SSLEngine engine, EndPoint network, SslBuffers buffers, Runnable onHandshakeFinished) {
        this.engine = engine;
        this.network = network;
        this.buffers = buffers;
        this.onHandshakeFinished = onHandshakeFinished;
    }

    /** @return the engine's handshake status now */
    HandshakeStatus status() {
        return engine.getHandshakeStatus();
    }

    /** Wraps {@code sources} into the encrypted output, which must be empty; grows it on overflow. */
    SSLEngineResult wrap(ByteBuffer[] sources) throws SSLException {
        int packetSize = engine.getSession().getPacketBufferSize();
        ByteBuffer out = buffers.encryptedOutputForWrap(packetSize);
        int position = ByteBuffers.flipToFill(out);
        SSLEngineResult result;
        try {
            result = engine.wrap(sources, out);
        } finally {
            ByteBuffers.flipToFlush(out, position);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("wrap {}/{} {}->{} {}", result.getStatus(), result.getHandshakeStatus(), result.bytesConsumed(), result.bytesProduced(), engine);
        }
        if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW && !buffers.hasEncryptedOutput()) {
            buffers.enlargeEncryptedOutput(packetSize);
        }
        noteFinished(result);
        return result;
    }

    /** Unwraps one record of the encrypted input into {@code destination}, appending after its limit. */
    SSLEngineResult unwrap(ByteBuffer destination) throws SSLException {
        ByteBuffer source = buffers.encryptedInput();
        int position = ByteBuffers.flipToFill(destination);
        SSLEngineResult result;
        try {
            result = engine.unwrap(source, destination);
        } finally {
            ByteBuffers.flipToFlush(destination, position);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("unwrap {}/{} {}->{} {}", result.getStatus(), result.getHandshakeStatus(), result.bytesConsumed(), result.bytesProduced(), engine);
        }
        noteFinished(result);
        return result;
    }

    /** @return the decrypted input, with room for one record */
    ByteBuffer decryptedInput() {
        return buffers.decryptedInput(engine.getSession().getApplicationBufferSize());
    }

    /** Reads the network into the encrypted input. @return as {@link EndPoint#fill} */
    int fillEncrypted() throws IOException {
        int filled = network.fill(buffers.encryptedInputForFill(engine.getSession().getPacketBufferSize()));
        if (filled > 0) {
            buffers.clearUnderflow();
        }
        return filled;
    }

    /** @return true when the encrypted output is empty: all of it reached the network */
    boolean flushEncrypted() throws IOException {
        return !buffers.hasEncryptedOutput() || network.flush(buffers.encryptedOutput());
    }

    /** Runs the engine's delegated tasks here, inline: CPU work (certificate checks, key agreement), no I/O. */
    void runDelegatedTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    /** An unwrap that consumed and produced nothing and left the status as it was waits for more bytes, never spins. */
    void noProgressMeansUnderflow(SSLEngineResult result, HandshakeStatus before) {
        if (result.bytesConsumed() == 0 && result.bytesProduced() == 0 && result.getHandshakeStatus() == before) {
            buffers.markUnderflow();
        }
    }

    /**
     * Best effort, without waiting: wraps what the engine still has to say (the alert after a
     * failure, or close_notify after closeOutbound) and writes what the network takes now.
     */
    void flushFinalRecords() throws IOException {
        if (!network.isOpen() || network.isOutputShutdown() || !flushEncrypted()) {
            return;
        }
        for (int i = 0; i < 4 && !engine.isOutboundDone(); i++) {
            if (wrap(NO_BUFFERS).bytesProduced() == 0) {
                break;
            }
        }
        flushEncrypted();
    }

    /**
     * Refuses a new handshake after the first one completed: TLS 1.2 renegotiation, started by
     * either peer. TLS 1.3 has no renegotiation, only post-handshake messages (key updates, new
     * session tickets), which are let through.
     *
     * @throws SSLHandshakeException when {@code status} shows a handshake in progress
     */
    void refuseRenegotiation(HandshakeStatus status, Object connection) throws SSLHandshakeException {
        if (status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED || "TLSv1.3".equals(negotiatedProtocol)) {
            return;
        }
        // Alerts and close_notify ask for a wrap too; only a handshake in progress has a handshake session.
        if (status != HandshakeStatus.NEED_WRAP || engine.getHandshakeSession() != null) {
            throw new SSLHandshakeException("TLS renegotiation is not allowed: the peer started a new "
                + negotiatedProtocol + " handshake on " + connection);
        }
    }

    private void noteFinished(SSLEngineResult result) {
        if (result.getHandshakeStatus() == HandshakeStatus.FINISHED && negotiatedProtocol == null) {
            negotiatedProtocol = engine.getSession().getProtocol();
            onHandshakeFinished.run();
        }
    }
}
