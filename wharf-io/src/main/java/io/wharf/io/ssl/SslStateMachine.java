package io.wharf.io.ssl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.ReentrantLock;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import io.wharf.io.Connection;
import io.wharf.io.EndPoint;
import io.wharf.io.EofException;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS state machine of one {@link SslConnection}: it moves bytes between the decrypted
 * endpoint ({@link SslEndPoint}, where the application reads and writes) and the network
 * endpoint, through the {@link SSLEngine}, and drives the handshake from whichever side needs it.
 *
 * <h2>State</h2>
 * The data below is changed only with {@link #lock} held; the lock is never held while
 * calling out (to callbacks, listeners, the network's {@code write}, {@code fillInterested}
 * or {@code close}): every locked section records what to do next as {@link Pending} action
 * bits and does it after unlocking.
 * <pre>
 *  FillState  (what a decrypted fill waits for; the app's fill interest is registered meanwhile)
 *    IDLE ──needs network bytes──▶ INTERESTED ──network readable──▶ IDLE, wake fill
 *    IDLE ──needs a wrap, output busy──▶ WAIT_FOR_FLUSH ──network write done──▶ IDLE, wake fill
 *  FlushState (what a decrypted flush waits for; the app's write is pending meanwhile)
 *    IDLE ──encrypted bytes left──▶ WRITING ──network write done──▶ IDLE, continue write
 *    IDLE ──handshake needs an unwrap, no bytes──▶ WAIT_FOR_FILL ──network readable──▶ IDLE, continue write
 *  Handshake  INITIAL ──FINISHED──▶ NOTIFYING ──listeners told──▶ COMPLETE;  INITIAL ──failure/close──▶ FAILED
 *  Input      OPEN ──close_notify──▶ CLOSE_NOTIFY;  OPEN ──network EOF──▶ EOF
 *  Output     OPEN ──closeOutbound──▶ CLOSING ──close_notify flushed, network output shut──▶ SHUT
 * </pre>
 *
 * <h2>No deadlock between the halves</h2>
 * A fill may need a wrap (handshake, alert, close_notify reply): it wraps and flushes itself,
 * and if the encrypted output is busy with a network write it waits for that write
 * (WAIT_FOR_FLUSH). A flush may need an unwrap (handshake): it reads and unwraps itself,
 * unless the fill side already waits for network bytes, in which case it waits for the same
 * network read (WAIT_FOR_FILL). Only one network read interest exists; its callback wakes
 * both waiters. Finally, every locked section ends with {@link #reconcileLocked()}: a wait
 * whose reason no longer holds (another thread read the bytes, wrapped the record, finished
 * the handshake) is released and its waiter woken, so no wake-up is ever lost to a race.
 * One limit remains, the engine's: during the handshake it does not unwrap while it has
 * records to wrap, so a fill waiting for a blocked flush does not read the network. Two peers
 * blocked writing with neither reading would wait for each other, as plain TCP peers that
 * both write more than their socket buffers hold; handshake flights (a few KiB) are far
 * smaller than any socket buffer.
 *
 * <h2>Threads and invocation types</h2>
 * Any thread may fill, flush, register interest or close. The network read callback declares
 * the invocation type of what it will run: the decrypted fill interest's callback when the
 * fill waits (INTERESTED), combined with the pending write's callback when the flush waits
 * (WAIT_FOR_FILL). The network write callback likewise declares the pending write's callback,
 * combined with the fill interest's when the fill waits for the flush. Delegated engine tasks
 * (certificate checks, key exchange: CPU work, a few milliseconds at most) run inline on the
 * thread that meets them, a selector thread included when the application's callbacks are
 * non-blocking.
 *
 * <h2>Buffers</h2>
 * All three come from the pool and are held only while they hold bytes (see {@link SslBuffers});
 * the caller's buffers are only read (flush) or appended to (fill).
 */
final class SslStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(SslStateMachine.class);
    private static final ByteBuffer[] NO_BUFFERS = new ByteBuffer[0];

    /** What a decrypted fill waits for. */
    enum FillState {
        IDLE, INTERESTED, WAIT_FOR_FLUSH
    }

    /** What a decrypted flush waits for. */
    enum FlushState {
        IDLE, WRITING, WAIT_FOR_FILL
    }

    /** Where the initial handshake is. */
    enum Handshake {
        INITIAL, NOTIFYING, COMPLETE, FAILED
    }

    /** Why no more application bytes will be read. */
    enum Input {
        OPEN, CLOSE_NOTIFY, EOF
    }

    /** Where our close_notify is. */
    enum Output {
        OPEN, CLOSING, SHUT
    }

    /** What the fill side needs before it can progress. */
    private enum FillNeed {
        READY, NETWORK_READ, NETWORK_WRITE, LISTENERS
    }

    /** What the flush side needs before it can progress. */
    private enum FlushNeed {
        READY, NETWORK_READ, NETWORK_WRITE
    }

    // Actions decided under the lock and done after it is released.
    private static final int NOTIFY_FAILED = 1;
    private static final int NOTIFY_SUCCEEDED = 1 << 1;
    private static final int START_NETWORK_WRITE = 1 << 2;
    private static final int SHUT_NETWORK_OUTPUT = 1 << 3;
    private static final int REGISTER_NETWORK_READ = 1 << 4;
    private static final int DISPATCH_FLUSH = 1 << 5;
    private static final int DISPATCH_FILL = 1 << 6;
    private static final int CLOSE = 1 << 7;

    /** The work a locked section left to do: action bits, the buffer to write, the cause to close or report with. */
    private record Pending(int actions, ByteBuffer write, Throwable cause) {
        static final Pending NONE = new Pending(0, null, null);

        boolean has(int action) {
            return (actions & action) != 0;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final SslConnection connection;
    private final EndPoint network;
    private final SSLEngine engine;
    private final SslBuffers buffers;
    private final NetworkWriteCallback networkWrite = new NetworkWriteCallback();
    private SslEndPoint decrypted;
    private volatile FillState fillState = FillState.IDLE;
    private volatile FlushState flushState = FlushState.IDLE;
    private Handshake handshake = Handshake.INITIAL;
    private Input input = Input.OPEN;
    private Output output = Output.OPEN;
    private boolean closed;
    private int actions;
    private ByteBuffer lent;
    private Throwable failure;
    private String negotiatedProtocol;

    SslStateMachine(SslConnection connection, EndPoint network, SSLEngine engine, SslBuffers buffers) {
        this.connection = connection;
        this.network = network;
        this.engine = engine;
        this.buffers = buffers;
    }

    void attach(SslEndPoint decrypted) {
        this.decrypted = decrypted;
    }

    /** Starts the handshake; called once when the connection opens. */
    void open() throws SSLException {
        lock.lock();
        try {
            engine.beginHandshake();
        } finally {
            lock.unlock();
        }
    }

    // ---- fill ----

    /** The decrypted endpoint's fill. */
    int fill(ByteBuffer target) throws IOException {
        Connection reader = decrypted.getConnection();
        while (true) {
            int filled = 0;
            Throwable thrown = null;
            Pending pending;
            lock.lock();
            try {
                filled = fillLocked(target);
            } catch (Throwable x) {
                thrown = x;
                failLocked(x);
            } finally {
                pending = takePendingAndUnlock();
            }
            perform(pending);
            if (thrown != null) {
                throw asIOException(thrown);
            }
            if (filled < 0) {
                decrypted.inputEnded();
                return -1;
            }
            // This thread told the listeners; read on unless one of them upgraded the connection.
            if (filled == 0 && pending.has(NOTIFY_SUCCEEDED) && decrypted.getConnection() == reader) {
                continue;
            }
            return filled;
        }
    }

    private int fillLocked(ByteBuffer target) throws IOException {
        boolean intoTarget = target != null;
        while (true) {
            if (closed) {
                return -1;
            }
            if (handshake == Handshake.NOTIFYING) {
                // No application byte before the listeners were told of the handshake.
                return 0;
            }
            if (buffers.hasDecryptedInput()) {
                return buffers.takeDecrypted(target);
            }
            if (input != Input.OPEN) {
                return -1;
            }
            HandshakeStatus status = handshakeStatus();
            switch (status) {
                case NEED_TASK -> runDelegatedTasks();
                case NEED_WRAP -> {
                    if (flushState == FlushState.WRITING) {
                        return 0;
                    }
                    wrapAndFlush();
                }
                default -> {
                    if (buffers.needsNetworkBytes()) {
                        int filled = fillEncrypted();
                        if (filled == 0) {
                            return 0;
                        }
                        if (filled < 0) {
                            onNetworkEnd();
                            continue;
                        }
                    }
                    boolean direct = intoTarget && handshake == Handshake.COMPLETE;
                    ByteBuffer destination = direct ? target : buffers.decryptedInput(engine.getSession().getApplicationBufferSize());
                    SSLEngineResult result = unwrap(destination);
                    switch (result.getStatus()) {
                        case OK -> {
                            if (direct && result.bytesProduced() > 0) {
                                return result.bytesProduced();
                            }
                            noProgressMeansUnderflow(result, status);
                        }
                        case BUFFER_UNDERFLOW -> buffers.markUnderflow();
                        case BUFFER_OVERFLOW -> intoTarget = false;
                        case CLOSED -> onCloseNotify();
                    }
                }
            }
        }
    }

    /** A fill met NEED_WRAP with the encrypted output free: wraps and flushes, starting a network write for what is left. */
    private void wrapAndFlush() throws IOException {
        if (!flushEncrypted()) {
            startNetworkWrite();
            return;
        }
        SSLEngineResult result = wrap(NO_BUFFERS);
        if (result.getStatus() == SSLEngineResult.Status.CLOSED && result.bytesProduced() == 0) {
            throw new SSLException("TLS engine asks to wrap but its output is closed");
        }
        if (!flushEncrypted()) {
            startNetworkWrite();
        }
    }

    private int fillEncrypted() throws IOException {
        ByteBuffer in = buffers.encryptedInputForFill(engine.getSession().getPacketBufferSize());
        int filled = network.fill(in);
        if (filled > 0) {
            buffers.clearUnderflow();
        }
        return filled;
    }

    /** The network input ended without close_notify: the end of input, or a failure during the handshake. */
    private void onNetworkEnd() throws SSLHandshakeException {
        boolean truncated = buffers.hasEncryptedInput();
        input = Input.EOF;
        buffers.discardEncryptedInput();
        if (!isHandshaken()) {
            throw new SSLHandshakeException("The peer closed the connection during the TLS handshake");
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("Network EOF without close_notify{} {}", truncated ? " inside a record" : "", this);
        }
    }

    /** The peer's close_notify arrived: no more input; TLS 1.2 and earlier answer with ours and close the output too. */
    private void onCloseNotify() throws IOException {
        input = Input.CLOSE_NOTIFY;
        buffers.discardEncryptedInput();
        if (!isHandshaken()) {
            throw new SSLHandshakeException("The peer sent close_notify during the TLS handshake");
        }
        if (output == Output.OPEN && (engine.isOutboundDone() || engine.getHandshakeStatus() == HandshakeStatus.NEED_WRAP)) {
            output = Output.CLOSING;
            progressCloseLocked();
        }
    }

    // ---- flush ----

    /** The decrypted endpoint's flush: true when every source byte was wrapped and every encrypted byte reached the network. */
    boolean flush(ByteBuffer[] sources) throws IOException {
        boolean flushed = false;
        Throwable thrown = null;
        Pending pending;
        lock.lock();
        try {
            flushed = flushLocked(sources);
        } catch (Throwable x) {
            thrown = x;
            failLocked(x);
        } finally {
            pending = takePendingAndUnlock();
        }
        perform(pending);
        if (thrown != null) {
            throw asIOException(thrown);
        }
        return flushed;
    }

    private boolean flushLocked(ByteBuffer[] sources) throws IOException {
        while (true) {
            if (closed) {
                throw new EofException("TLS endpoint closed: " + decrypted);
            }
            if (output != Output.OPEN) {
                throw new EofException("TLS output shut: " + decrypted);
            }
            if (flushState == FlushState.WRITING || !flushEncrypted()) {
                return false;
            }
            boolean drained = !ByteBuffers.hasRemaining(sources);
            HandshakeStatus status = handshakeStatus();
            switch (status) {
                case NEED_TASK -> runDelegatedTasks();
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    if (drained && isHandshaken()) {
                        return true;
                    }
                    if (fillState == FillState.INTERESTED) {
                        // The fill side waits for network bytes: wait for the same read.
                        return false;
                    }
                    if (!unwrapForFlush()) {
                        return false;
                    }
                }
                case NEED_WRAP -> wrapSources(sources);
                default -> {
                    if (drained) {
                        return true;
                    }
                    wrapSources(sources);
                }
            }
        }
    }

    private void wrapSources(ByteBuffer[] sources) throws IOException {
        SSLEngineResult result = wrap(sources);
        if (result.getStatus() == SSLEngineResult.Status.CLOSED && result.bytesProduced() == 0) {
            throw new EofException("TLS output closed: " + ByteBuffers.remaining(sources) + " bytes not written");
        }
    }

    /** The handshake needs an unwrap to let a flush go on. @return false when the network has no bytes now */
    private boolean unwrapForFlush() throws IOException {
        if (input != Input.OPEN) {
            throw isHandshaken() ? new EofException("TLS input ended: " + decrypted)
                : new SSLHandshakeException("The peer closed the connection during the TLS handshake");
        }
        if (buffers.needsNetworkBytes()) {
            int filled = fillEncrypted();
            if (filled == 0) {
                return false;
            }
            if (filled < 0) {
                onNetworkEnd();
                return true;
            }
        }
        HandshakeStatus status = engine.getHandshakeStatus();
        SSLEngineResult result = unwrap(buffers.decryptedInput(engine.getSession().getApplicationBufferSize()));
        switch (result.getStatus()) {
            case OK -> noProgressMeansUnderflow(result, status);
            case BUFFER_UNDERFLOW -> buffers.markUnderflow();
            case BUFFER_OVERFLOW -> {
                // The decrypted input grows on the next call.
            }
            case CLOSED -> onCloseNotify();
        }
        return true;
    }

    /** The write could not complete: decides what it waits for. */
    void onIncompleteFlush() {
        Pending pending;
        lock.lock();
        try {
            if (flushState == FlushState.IDLE) {
                switch (flushNeed()) {
                    case NETWORK_WRITE -> startNetworkWrite();
                    case NETWORK_READ -> {
                        flushState = FlushState.WAIT_FOR_FILL;
                        actions |= REGISTER_NETWORK_READ;
                    }
                    case READY -> actions |= DISPATCH_FLUSH;
                }
            }
            // WRITING: the network write's callback continues the write; WAIT_FOR_FILL: the read's callback does.
        } finally {
            pending = takePendingAndUnlock();
        }
        perform(pending);
    }

    private FlushNeed flushNeed() {
        if (closed) {
            return FlushNeed.READY;
        }
        if (buffers.hasEncryptedOutput()) {
            return FlushNeed.NETWORK_WRITE;
        }
        if (input == Input.OPEN && isUnwrap(engine.getHandshakeStatus()) && buffers.needsNetworkBytes()) {
            return FlushNeed.NETWORK_READ;
        }
        return FlushNeed.READY;
    }

    // ---- fill interest ----

    /** The application registered fill interest on the decrypted endpoint: decides what it waits for. */
    void needsFillInterest() {
        Pending pending;
        lock.lock();
        try {
            switch (fillState) {
                case IDLE -> applyFillNeed();
                case INTERESTED -> actions |= REGISTER_NETWORK_READ;
                case WAIT_FOR_FLUSH -> {
                    // The network write's callback wakes the reader.
                }
            }
        } finally {
            pending = takePendingAndUnlock();
        }
        perform(pending);
    }

    /** With the fill side IDLE: wakes the reader now or makes it wait for what it needs. */
    private void applyFillNeed() {
        switch (fillNeed()) {
            case READY -> actions |= DISPATCH_FILL;
            case NETWORK_READ -> {
                fillState = FillState.INTERESTED;
                actions |= REGISTER_NETWORK_READ;
            }
            case NETWORK_WRITE -> fillState = FillState.WAIT_FOR_FLUSH;
            case LISTENERS -> {
                // The thread telling the listeners wakes the reader when they are done.
            }
        }
    }

    private FillNeed fillNeed() {
        if (closed || input != Input.OPEN) {
            return FillNeed.READY;
        }
        if (handshake == Handshake.NOTIFYING) {
            return FillNeed.LISTENERS;
        }
        if (buffers.hasDecryptedInput()) {
            return FillNeed.READY;
        }
        HandshakeStatus status = engine.getHandshakeStatus();
        if (status == HandshakeStatus.NEED_TASK) {
            return FillNeed.READY;
        }
        if (status == HandshakeStatus.NEED_WRAP) {
            return flushState == FlushState.WRITING ? FillNeed.NETWORK_WRITE : FillNeed.READY;
        }
        return buffers.needsNetworkBytes() ? FillNeed.NETWORK_READ : FillNeed.READY;
    }

    /**
     * Ends every locked section: a wait whose reason no longer holds is released and its waiter
     * woken (or set to wait for what it needs now).
     */
    private void reconcileLocked() {
        if (flushState == FlushState.WAIT_FOR_FILL && flushNeed() != FlushNeed.NETWORK_READ) {
            flushState = FlushState.IDLE;
            actions |= DISPATCH_FLUSH;
        }
        FillState current = fillState;
        if (current == FillState.IDLE) {
            return;
        }
        FillNeed need = fillNeed();
        boolean stillWaiting = current == FillState.INTERESTED ? need == FillNeed.NETWORK_READ : need == FillNeed.NETWORK_WRITE;
        if (!stillWaiting) {
            fillState = FillState.IDLE;
            applyFillNeed();
        }
    }

    // ---- network callbacks ----

    /** The network is readable: wakes the fill and the flush that waited for it. */
    void onNetworkFillable() {
        boolean wakeFill;
        boolean wakeFlush;
        Pending pending;
        lock.lock();
        try {
            wakeFill = fillState == FillState.INTERESTED;
            if (wakeFill) {
                fillState = FillState.IDLE;
            }
            wakeFlush = flushState == FlushState.WAIT_FOR_FILL;
            if (wakeFlush) {
                flushState = FlushState.IDLE;
            }
        } finally {
            pending = takePendingAndUnlock();
        }
        perform(pending);
        if (wakeFlush) {
            decrypted.wakeWrite();
        }
        if (wakeFill) {
            decrypted.wakeFill();
        }
    }

    /** @return the type of what the network read callback runs now */
    InvocationType networkReadInvocationType() {
        InvocationType type = InvocationType.NON_BLOCKING;
        if (fillState == FillState.INTERESTED) {
            type = decrypted.fillInvocationType();
        }
        if (flushState == FlushState.WAIT_FOR_FILL) {
            type = type.combine(decrypted.writeInvocationType());
        }
        return type;
    }

    /** The network endpoint closed; when this thread is inside a locked section, the close waits for its end. */
    void onNetworkClosed(Throwable cause) {
        if (lock.isHeldByCurrentThread()) {
            if (failure == null) {
                failure = cause;
            }
            actions |= CLOSE;
            return;
        }
        decrypted.close(cause);
    }

    /** Completes the network write of the encrypted output lent to it. */
    private final class NetworkWriteCallback implements Callback {
        @Override
        public void succeeded() {
            boolean wakeFill;
            Pending pending;
            lock.lock();
            try {
                lent = null;
                buffers.returnEncryptedOutput();
                flushState = FlushState.IDLE;
                wakeFill = fillState == FillState.WAIT_FOR_FLUSH;
                if (wakeFill) {
                    fillState = FillState.IDLE;
                }
                try {
                    progressCloseLocked();
                } catch (Throwable x) {
                    failLocked(x);
                }
            } finally {
                pending = takePendingAndUnlock();
            }
            perform(pending);
            decrypted.wakeWrite();
            if (wakeFill) {
                decrypted.wakeFill();
            }
        }

        @Override
        public void failed(Throwable cause) {
            lock.lock();
            try {
                lent = null;
                buffers.returnEncryptedOutput();
                buffers.releaseEncryptedOutput();
                flushState = FlushState.IDLE;
                if (fillState == FillState.WAIT_FOR_FLUSH) {
                    fillState = FillState.IDLE;
                }
            } finally {
                lock.unlock();
            }
            decrypted.close(cause);
        }

        @Override
        public InvocationType invocationType() {
            InvocationType type = decrypted.writeInvocationType();
            if (fillState == FillState.WAIT_FOR_FLUSH) {
                type = type.combine(decrypted.fillInvocationType());
            }
            return type;
        }

        @Override
        public String toString() {
            return "NetworkWrite@" + SslStateMachine.this;
        }
    }

    // ---- closing ----

    /** Sends close_notify, then shuts the network output (when the close_notify is out). */
    void shutdownOutput() {
        Pending pending;
        lock.lock();
        try {
            try {
                if (output == Output.OPEN && !closed) {
                    output = Output.CLOSING;
                    engine.closeOutbound();
                }
                progressCloseLocked();
            } catch (Throwable x) {
                failLocked(x);
            }
        } finally {
            pending = takePendingAndUnlock();
        }
        perform(pending);
    }

    /** Wraps and flushes the close_notify while the encrypted output is free; shuts the network output once it is out. */
    private void progressCloseLocked() throws IOException {
        while (output == Output.CLOSING && flushState != FlushState.WRITING && !closed) {
            if (!flushEncrypted()) {
                startNetworkWrite();
                return;
            }
            if (engine.isOutboundDone()) {
                output = Output.SHUT;
                actions |= SHUT_NETWORK_OUTPUT;
                return;
            }
            SSLEngineResult result = wrap(NO_BUFFERS);
            if (result.bytesProduced() == 0 && !buffers.hasEncryptedOutput() && result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW) {
                output = Output.SHUT;
                actions |= SHUT_NETWORK_OUTPUT;
                return;
            }
        }
    }

    /** The decrypted endpoint is closing: a best-effort close_notify, without waiting. */
    void closing() {
        lock.lock();
        try {
            closed = true;
            if (output == Output.OPEN) {
                output = Output.CLOSING;
                engine.closeOutbound();
            }
            if (output == Output.CLOSING && flushState != FlushState.WRITING && network.isOpen() && !network.isOutputShutdown()
                && flushEncrypted()) {
                for (int i = 0; i < 4 && !engine.isOutboundDone(); i++) {
                    if (wrap(NO_BUFFERS).bytesProduced() == 0) {
                        break;
                    }
                }
                flushEncrypted();
            }
        } catch (Throwable x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("No close_notify sent by {}", this, x);
            }
        } finally {
            output = Output.SHUT;
            fillState = FillState.IDLE;
            if (flushState == FlushState.WAIT_FOR_FILL) {
                flushState = FlushState.IDLE;
            }
            actions = 0;
            lock.unlock();
        }
    }

    /** The decrypted endpoint closed: returns the buffers, tells the listeners of a handshake that never completed, closes the network. */
    void closed(Throwable cause) {
        boolean tellFailed;
        lock.lock();
        try {
            closed = true;
            buffers.releaseAll();
            tellFailed = handshake == Handshake.INITIAL;
            if (tellFailed) {
                handshake = Handshake.FAILED;
            }
        } finally {
            lock.unlock();
        }
        if (tellFailed) {
            connection.notifyHandshakeFailed(cause != null ? cause : new EofException("Closed before the TLS handshake completed: " + decrypted));
        }
        network.close(cause);
    }

    // ---- engine steps (lock held) ----

    private SSLEngineResult wrap(ByteBuffer[] sources) throws SSLException {
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
            LOG.debug("wrap {}/{}/{}->{} {}", result.getStatus(), result.getHandshakeStatus(), result.bytesConsumed(), result.bytesProduced(), this);
        }
        if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW && !buffers.hasEncryptedOutput()) {
            buffers.enlargeEncryptedOutput(packetSize);
        }
        if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) {
            onHandshakeFinished();
        }
        return result;
    }

    private SSLEngineResult unwrap(ByteBuffer destination) throws SSLException {
        ByteBuffer source = buffers.encryptedInput();
        int position = ByteBuffers.flipToFill(destination);
        SSLEngineResult result;
        try {
            result = engine.unwrap(source, destination);
        } finally {
            ByteBuffers.flipToFlush(destination, position);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("unwrap {}/{}/{}->{} {}", result.getStatus(), result.getHandshakeStatus(), result.bytesConsumed(), result.bytesProduced(), this);
        }
        if (result.getHandshakeStatus() == HandshakeStatus.FINISHED) {
            onHandshakeFinished();
        }
        return result;
    }

    /** An unwrap that consumed and produced nothing without changing the handshake status waits for more bytes, never spins. */
    private void noProgressMeansUnderflow(SSLEngineResult result, HandshakeStatus before) {
        if (result.bytesConsumed() == 0 && result.bytesProduced() == 0 && result.getHandshakeStatus() == before) {
            buffers.markUnderflow();
        }
    }

    /** @return true when the encrypted output is empty: all of it reached the network */
    private boolean flushEncrypted() throws IOException {
        if (!buffers.hasEncryptedOutput()) {
            return true;
        }
        return network.flush(buffers.encryptedOutput());
    }

    private void startNetworkWrite() {
        flushState = FlushState.WRITING;
        lent = buffers.lendEncryptedOutput();
        actions |= START_NETWORK_WRITE;
    }

    /** Delegated tasks are CPU work (certificate checks, key agreement): run here, inline. */
    private void runDelegatedTasks() {
        Runnable task;
        while ((task = engine.getDelegatedTask()) != null) {
            task.run();
        }
    }

    private void onHandshakeFinished() {
        if (handshake == Handshake.INITIAL) {
            handshake = Handshake.NOTIFYING;
            negotiatedProtocol = engine.getSession().getProtocol();
            actions |= NOTIFY_SUCCEEDED;
        }
    }

    private boolean isHandshaken() {
        return handshake == Handshake.NOTIFYING || handshake == Handshake.COMPLETE;
    }

    /**
     * @return the engine's handshake status
     * @throws SSLHandshakeException when the peer started a new handshake after the first
     *     (TLS 1.2 renegotiation; TLS 1.3 has none, only post-handshake messages)
     */
    private HandshakeStatus handshakeStatus() throws SSLHandshakeException {
        HandshakeStatus status = engine.getHandshakeStatus();
        if (isHandshaken() && isRenegotiation(status)) {
            throw new SSLHandshakeException("TLS renegotiation is not allowed: the peer started a new "
                + negotiatedProtocol + " handshake on " + decrypted);
        }
        return status;
    }

    private boolean isRenegotiation(HandshakeStatus status) {
        if (status == HandshakeStatus.NOT_HANDSHAKING || status == HandshakeStatus.FINISHED || "TLSv1.3".equals(negotiatedProtocol)) {
            return false;
        }
        // Alerts and close_notify also ask for a wrap; only a handshake in progress has a handshake session.
        return status != HandshakeStatus.NEED_WRAP || engine.getHandshakeSession() != null;
    }

    private static boolean isUnwrap(HandshakeStatus status) {
        return status == HandshakeStatus.NEED_UNWRAP || status == HandshakeStatus.NEED_UNWRAP_AGAIN;
    }

    // ---- failure and actions ----

    /** A fill, flush or close step failed: tells a handshake in progress, sends the engine's alert if it can, closes. */
    private void failLocked(Throwable cause) {
        if (LOG.isDebugEnabled()) {
            LOG.debug("TLS failure {}", this, cause);
        }
        if (failure == null) {
            failure = cause;
        }
        if (handshake == Handshake.INITIAL) {
            handshake = Handshake.FAILED;
            actions |= NOTIFY_FAILED;
        }
        actions |= CLOSE;
        if (closed || flushState == FlushState.WRITING || !network.isOpen() || network.isOutputShutdown()) {
            return;
        }
        try {
            // After an SSLException the engine holds the alert that tells the peer why.
            if (flushEncrypted()) {
                for (int i = 0; i < 4 && !engine.isOutboundDone(); i++) {
                    if (wrap(NO_BUFFERS).bytesProduced() == 0) {
                        break;
                    }
                }
                flushEncrypted();
            }
        } catch (Throwable x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("No alert sent by {}", this, x);
            }
        }
    }

    /** Ends a locked section: reconciles the waits, returns empty buffers, takes the actions to do. */
    private Pending takePendingAndUnlock() {
        try {
            if (!closed) {
                reconcileLocked();
            }
            buffers.releaseEmpty();
            if (actions == 0) {
                return Pending.NONE;
            }
            Pending pending = new Pending(actions, lent, failure);
            actions = 0;
            return pending;
        } finally {
            lock.unlock();
        }
    }

    private void perform(Pending pending) {
        if (pending.actions == 0) {
            return;
        }
        if (pending.has(NOTIFY_FAILED)) {
            connection.notifyHandshakeFailed(pending.cause);
        }
        if (pending.has(NOTIFY_SUCCEEDED)) {
            notifySucceeded();
        }
        if (pending.has(START_NETWORK_WRITE)) {
            network.write(networkWrite, pending.write);
        }
        if (pending.has(SHUT_NETWORK_OUTPUT)) {
            network.shutdownOutput();
        }
        if (pending.has(REGISTER_NETWORK_READ)) {
            connection.tryFillInterested();
        }
        if (pending.has(DISPATCH_FLUSH)) {
            dispatch(decrypted::wakeWrite);
        }
        if (pending.has(DISPATCH_FILL)) {
            dispatch(decrypted::wakeFill);
        }
        if (pending.has(CLOSE)) {
            decrypted.close(pending.cause);
        }
    }

    /** Tells the listeners, then lets the reader have the application bytes. */
    private void notifySucceeded() {
        connection.notifyHandshakeSucceeded(SslHandshake.of(decrypted, engine));
        Pending pending;
        lock.lock();
        try {
            if (handshake == Handshake.NOTIFYING) {
                handshake = Handshake.COMPLETE;
            }
            if (!closed && fillState == FillState.IDLE && decrypted.isFillInterested()) {
                applyFillNeed();
            }
        } finally {
            pending = takePendingAndUnlock();
        }
        perform(pending);
    }

    /** Wake-ups that would otherwise recurse into the caller run on the executor. */
    private void dispatch(Runnable task) {
        try {
            connection.getExecutor().execute(task);
        } catch (RejectedExecutionException x) {
            decrypted.close(x);
        }
    }

    private static IOException asIOException(Throwable cause) {
        if (cause instanceof IOException io) {
            return io;
        }
        if (cause instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (cause instanceof Error error) {
            throw error;
        }
        return new IOException(cause);
    }

    /** @return how many pooled buffers this connection holds now, for tests and dumps */
    int heldBuffers() {
        lock.lock();
        try {
            return buffers.held();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return "SslStateMachine@" + Integer.toHexString(hashCode()) + "{fill=" + fillState + ",flush=" + flushState
            + ",handshake=" + handshake + ",input=" + input + ",output=" + output + (closed ? ",closed" : "")
            + "," + describeBuffers() + "}";
    }

    private String describeBuffers() {
        if (!lock.tryLock()) {
            return "buffers?";
        }
        try {
            return buffers.toString();
        } finally {
            lock.unlock();
        }
    }
}
