package io.wharf.io.ssl;

import java.nio.ByteBuffer;

import io.wharf.util.buffer.ByteBufferPool;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * The three pooled buffers of one TLS connection, each borrowed only while it holds bytes.
 *
 * <ul>
 * <li><b>encrypted input</b>: records read from the network, not yet unwrapped. Borrowed when
 *     the network is read; returned as soon as every byte was unwrapped. When it holds only
 *     part of a record ({@link #isUnderflow()}), the next unwrap needs more network bytes.</li>
 * <li><b>encrypted output</b>: records wrapped, not yet written to the network. While a
 *     network write is in progress it is <em>lent</em> to the network endpoint
 *     ({@link #lendEncryptedOutput()}) and neither touched nor released until the write's
 *     callback gives it back ({@link #returnEncryptedOutput()}).</li>
 * <li><b>decrypted input</b>: application bytes unwrapped but not yet taken by the reader,
 *     used when the reader's buffer is too small for a record, or during the handshake.</li>
 * </ul>
 *
 * <p>Threads: not thread-safe; {@link SslStateMachine} calls it with its lock held. The rule
 * that makes an idle connection hold no buffer is {@link #releaseEmpty()}, called at the end
 * of every locked operation.
 */
final class SslBuffers {

    private final ByteBufferPool pool;
    private final boolean direct;
    private RetainableByteBuffer encryptedInput;
    private RetainableByteBuffer encryptedOutput;
    private RetainableByteBuffer decryptedInput;
    private boolean underflow;
    private boolean outputLent;

    SslBuffers(ByteBufferPool pool, boolean direct) {
        this.pool = pool;
        this.direct = direct;
    }

    // ---- encrypted input ----

    /**
     * Takes the bytes a previous connection read from the network but did not use (the
     * ClientHello that came with a PROXY header) as the first encrypted input; ownership
     * passes here. Only before the first fill.
     */
    void prefillEncryptedInput(RetainableByteBuffer bytes) {
        if (encryptedInput != null) {
            bytes.release();
            throw new IllegalStateException("encrypted input already read: " + this);
        }
        encryptedInput = bytes;
    }

    /** @return the encrypted input to read the network into, borrowed now if needed, able to hold a record of {@code packetSize} */
    ByteBuffer encryptedInputForFill(int packetSize) {
        if (encryptedInput == null) {
            encryptedInput = pool.acquire(packetSize, direct);
        } else if (encryptedInput.capacity() < packetSize) {
            encryptedInput = enlarge(encryptedInput, packetSize);
        } else {
            compact(encryptedInput.byteBuffer());
        }
        return encryptedInput.byteBuffer();
    }

    /** @return the encrypted input; only when {@link #hasEncryptedInput()} */
    ByteBuffer encryptedInput() {
        return encryptedInput.byteBuffer();
    }

    boolean hasEncryptedInput() {
        return encryptedInput != null && encryptedInput.hasRemaining();
    }

    /** @return whether an unwrap can progress only with more bytes from the network */
    boolean needsNetworkBytes() {
        return underflow || !hasEncryptedInput();
    }

    /** @return whether the encrypted input holds only part of a record */
    boolean isUnderflow() {
        return underflow;
    }

    /** The last unwrap found only part of a record. */
    void markUnderflow() {
        underflow = true;
    }

    /** Bytes arrived from the network: the partial record may be complete now. */
    void clearUnderflow() {
        underflow = false;
    }

    /** Drops the encrypted input, read or not (after the peer's close_notify nothing more is read). */
    void discardEncryptedInput() {
        if (encryptedInput != null) {
            encryptedInput.release();
            encryptedInput = null;
        }
        underflow = false;
    }

    // ---- encrypted output ----

    /** @return the encrypted output to wrap into, borrowed now if needed */
    ByteBuffer encryptedOutputForWrap(int packetSize) {
        if (outputLent) {
            throw new IllegalStateException("encrypted output is lent to a network write");
        }
        if (encryptedOutput == null) {
            encryptedOutput = pool.acquire(packetSize, direct);
        }
        return encryptedOutput.byteBuffer();
    }

    /** @return the encrypted output; only when {@link #hasEncryptedOutput()} */
    ByteBuffer encryptedOutput() {
        return encryptedOutput.byteBuffer();
    }

    boolean hasEncryptedOutput() {
        return encryptedOutput != null && encryptedOutput.hasRemaining();
    }

    /** A wrap overflowed an empty encrypted output: borrow a bigger one. */
    void enlargeEncryptedOutput(int packetSize) {
        int size = Math.max(packetSize, encryptedOutput.capacity() * 2);
        encryptedOutput = enlarge(encryptedOutput, size);
    }

    /** @return the encrypted output, handed to a network write until {@link #returnEncryptedOutput()} */
    ByteBuffer lendEncryptedOutput() {
        outputLent = true;
        return encryptedOutput.byteBuffer();
    }

    /** The network write of the lent encrypted output completed or failed. */
    void returnEncryptedOutput() {
        outputLent = false;
    }

    boolean isOutputLent() {
        return outputLent;
    }

    // ---- decrypted input ----

    /** @return the decrypted input to unwrap into, borrowed now if needed, with room for {@code applicationSize} bytes */
    ByteBuffer decryptedInput(int applicationSize) {
        if (decryptedInput == null) {
            decryptedInput = pool.acquire(applicationSize, direct);
        } else if (decryptedInput.capacity() - decryptedInput.remaining() < applicationSize) {
            decryptedInput = enlarge(decryptedInput, decryptedInput.remaining() + applicationSize);
        } else {
            compact(decryptedInput.byteBuffer());
        }
        return decryptedInput.byteBuffer();
    }

    boolean hasDecryptedInput() {
        return decryptedInput != null && decryptedInput.hasRemaining();
    }

    /** Moves decrypted bytes to the reader's buffer. @return how many */
    int takeDecrypted(ByteBuffer target) {
        return ByteBuffers.append(target, decryptedInput.byteBuffer());
    }

    /** @return the number of decrypted bytes waiting for the reader */
    int decryptedRemaining() {
        return decryptedInput == null ? 0 : decryptedInput.remaining();
    }

    // ---- release ----

    /** Returns every empty buffer to the pool, except an encrypted output lent to the network. */
    void releaseEmpty() {
        if (encryptedInput != null && !encryptedInput.hasRemaining()) {
            encryptedInput.release();
            encryptedInput = null;
            underflow = false;
        }
        if (encryptedOutput != null && !outputLent && !encryptedOutput.hasRemaining()) {
            encryptedOutput.release();
            encryptedOutput = null;
        }
        if (decryptedInput != null && !decryptedInput.hasRemaining()) {
            decryptedInput.release();
            decryptedInput = null;
        }
    }

    /** Returns the encrypted output even when it holds bytes; never while it is lent. */
    void releaseEncryptedOutput() {
        if (encryptedOutput != null && !outputLent) {
            encryptedOutput.release();
            encryptedOutput = null;
        }
    }

    /** The connection closed: returns every buffer, except an encrypted output lent to the network. */
    void releaseAll() {
        discardEncryptedInput();
        releaseEncryptedOutput();
        if (decryptedInput != null) {
            decryptedInput.release();
            decryptedInput = null;
        }
    }

    /** @return how many buffers are held now */
    int held() {
        return (encryptedInput == null ? 0 : 1) + (encryptedOutput == null ? 0 : 1) + (decryptedInput == null ? 0 : 1);
    }

    /** Moves the held bytes of a flush-mode buffer to its start, so that all its free space follows them. */
    private static void compact(ByteBuffer buffer) {
        if (buffer.position() > 0) {
            buffer.compact().flip();
        }
    }

    /** Moves the bytes of {@code buffer} into a bigger one from the pool and releases the old one. */
    private RetainableByteBuffer enlarge(RetainableByteBuffer buffer, int size) {
        RetainableByteBuffer bigger = pool.acquire(size, direct);
        ByteBuffers.append(bigger.byteBuffer(), buffer.byteBuffer());
        buffer.release();
        return bigger;
    }

    @Override
    public String toString() {
        return "SslBuffers{in=" + describe(encryptedInput) + (underflow ? "(underflow)" : "")
            + ",out=" + describe(encryptedOutput) + (outputLent ? "(lent)" : "")
            + ",decrypted=" + describe(decryptedInput) + "}";
    }

    private static String describe(RetainableByteBuffer buffer) {
        return buffer == null ? "-" : Integer.toString(buffer.remaining());
    }
}
