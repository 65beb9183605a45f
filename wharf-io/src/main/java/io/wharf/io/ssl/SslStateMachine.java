package io.wharf.io.ssl;

import java.io.IOException;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;

import io.wharf.io.EndPoint;
import io.wharf.io.EofException;
import io.wharf.util.InvocationType;
import io.wharf.util.buffer.ByteBuffers;
import io.wharf.util.buffer.RetainableByteBuffer;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TLS state machine of one {@link SslConnection}: what the decrypted side's reads and
 * writes do with the engine, the buffers and the network, and what each waits for. It drives
 * the handshake from whichever side needs it.
 *
 * <h2>State</h2>
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
 * both waiters. Every locked section ends with {@link #takePending()}, which first
 * reconciles: a wait whose reason no longer holds (another thread read the bytes, wrapped the
 * record, finished the handshake) is released and its waiter woken, so no wake-up is lost to
 * a race. One limit is the engine's: during the handshake it does not unwrap while it has
 * records to wrap, so a fill waiting for a blocked flush does not read the network; two peers
 * blocked writing with neither reading would wait for each other, as plain TCP peers that
 * both write more than their socket buffers hold. Handshake flights (a few KiB) are far
 * smaller than any socket buffer.
 *
 * <h2>Threads</h2>
 * Not thread-safe: {@link SslConnection} calls every method with its lock held. No method
 * calls out (callbacks, listeners, the network's write, fill interest or close): each records
 * what to do next as action bits, which {@link #takePending()} hands to the connection to do
 * after unlocking. The network read and write callbacks declare the invocation type of what
 * they will wake ({@link #networkReadInvocationType()}, {@link #networkWriteInvocationType()}).
 *
 * <h2>Buffers</h2>
 * All from the pool through {@link SslBuffers}, held only while they hold bytes: every
 * locked section ends by returning the empty ones. The caller's buffers are only read (flush)
 * or appended to (fill).
 */
final class SslStateMachine {

    private static final Logger LOG = LoggerFactory.getLogger(SslStateMachine.class);
    private static final ByteBuffer[] NO_BUFFERS = SslRecordLayer.NO_BUFFERS;

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

    // Actions, done by SslConnection after unlocking, in this order.
    static final int NOTIFY_FAILED = 1;
    static final int NOTIFY_SUCCEEDED = 1 << 1;
    static final int START_NETWORK_WRITE = 1 << 2;
    static final int SHUT_NETWORK_OUTPUT = 1 << 3;
    static final int REGISTER_NETWORK_READ = 1 << 4;
    /** Continue the pending decrypted write on this thread. */
    static final int WAKE_FLUSH = 1 << 5;
    /** Complete the decrypted fill interest on this thread. */
    static final int WAKE_FILL = 1 << 6;
    /** Continue the pending decrypted write on the executor (the caller must not recurse into it). */
    static final int DISPATCH_FLUSH = 1 << 7;
    /** Complete the decrypted fill interest on the executor. */
    static final int DISPATCH_FILL = 1 << 8;
    static final int CLOSE = 1 << 9;

    /** The work a locked section left to do: action bits, the buffer to write, the cause to close or report with. */
    record Pending(int actions, ByteBuffer write, Throwable cause) {
        static final Pending NONE = new Pending(0, null, null);

        boolean has(int action) {
            return (actions & action) != 0;
        }
    }

    private final SSLEngine engine;
    private final SslBuffers buffers;
    private final SslRecordLayer records;
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

    SslStateMachine(SSLEngine engine, EndPoint network, SslBuffers buffers) {
        this.engine = engine;
        this.buffers = buffers;
        this.records = new SslRecordLayer(engine, network, buffers, this::onHandshakeFinished);
    }

    void attach(SslEndPoint decrypted) {
        this.decrypted = decrypted;
    }

    /** Bytes read from the network before this connection took it are the first to unwrap; before {@link #open()}. */
    void prefill(RetainableByteBuffer bytes) {
        buffers.prefillEncryptedInput(bytes);
    }

    /** Starts the handshake; once, when the connection opens. */
    void open() throws SSLException {
        engine.beginHandshake();
    }

    // ---- fill ----

    /**
     * The decrypted endpoint's fill.
     *
     * @return bytes appended to {@code target}; 0 when it must wait (or the listeners must be
     *     told first: see {@link #NOTIFY_SUCCEEDED}); -1 at the end of input
     */
    /** @return whether no byte of input waits here: none decrypted, none encrypted, the handshake done */
    boolean holdsNoInput() {
        return handshake == Handshake.COMPLETE && !buffers.hasDecryptedInput() && !buffers.hasEncryptedInput();
    }

    int fill(ByteBuffer target) throws IOException {
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
                case NEED_TASK -> records.runDelegatedTasks();
                case NEED_WRAP -> {
                    if (flushState == FlushState.WRITING) {
                        return 0;
                    }
                    wrapAndFlush();
                }
                default -> {
                    if (buffers.needsNetworkBytes()) {
                        int filled = records.fillEncrypted();
                        if (filled == 0) {
                            return 0;
                        }
                        if (filled < 0) {
                            onNetworkEnd();
                            continue;
                        }
                    }
                    boolean direct = intoTarget && handshake == Handshake.COMPLETE;
                    SSLEngineResult result = records.unwrap(direct ? target : records.decryptedInput());
                    switch (result.getStatus()) {
                        case OK -> {
                            if (direct && result.bytesProduced() > 0) {
                                return result.bytesProduced();
                            }
                            records.noProgressMeansUnderflow(result, status);
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
        if (!records.flushEncrypted()) {
            startNetworkWrite();
            return;
        }
        SSLEngineResult result = records.wrap(NO_BUFFERS);
        if (result.getStatus() == SSLEngineResult.Status.CLOSED && result.bytesProduced() == 0) {
            throw new SSLException("TLS engine asks to wrap but its output is closed");
        }
        if (!records.flushEncrypted()) {
            startNetworkWrite();
        }
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
        if (output == Output.OPEN && (engine.isOutboundDone() || records.status() == HandshakeStatus.NEED_WRAP)) {
            output = Output.CLOSING;
            progressClose();
        }
    }

    // ---- flush ----

    /** The decrypted endpoint's flush: true when every source byte was wrapped and every encrypted byte reached the network. */
    boolean flush(ByteBuffer[] sources) throws IOException {
        while (true) {
            if (closed) {
                throw new EofException("TLS endpoint closed: " + decrypted);
            }
            if (output != Output.OPEN) {
                throw new EofException("TLS output shut: " + decrypted);
            }
            if (flushState == FlushState.WRITING || !records.flushEncrypted()) {
                return false;
            }
            boolean drained = !ByteBuffers.hasRemaining(sources);
            HandshakeStatus status = handshakeStatus();
            switch (status) {
                case NEED_TASK -> records.runDelegatedTasks();
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
        SSLEngineResult result = records.wrap(sources);
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
            int filled = records.fillEncrypted();
            if (filled == 0) {
                return false;
            }
            if (filled < 0) {
                onNetworkEnd();
                return true;
            }
        }
        HandshakeStatus status = records.status();
        SSLEngineResult result = records.unwrap(records.decryptedInput());
        switch (result.getStatus()) {
            case OK -> records.noProgressMeansUnderflow(result, status);
            case BUFFER_UNDERFLOW -> buffers.markUnderflow();
            case BUFFER_OVERFLOW -> {
                // The decrypted input grows on the next call.
            }
            case CLOSED -> onCloseNotify();
        }
        return true;
    }

    /** The decrypted write could not complete: decides what it waits for. */
    void onIncompleteFlush() {
        if (flushState != FlushState.IDLE) {
            // WRITING: the network write's callback continues the write; WAIT_FOR_FILL: the read's callback does.
            return;
        }
        switch (flushNeed()) {
            case NETWORK_WRITE -> startNetworkWrite();
            case NETWORK_READ -> {
                flushState = FlushState.WAIT_FOR_FILL;
                actions |= REGISTER_NETWORK_READ;
            }
            case READY -> actions |= DISPATCH_FLUSH;
        }
    }

    private FlushNeed flushNeed() {
        if (closed) {
            return FlushNeed.READY;
        }
        if (buffers.hasEncryptedOutput()) {
            return FlushNeed.NETWORK_WRITE;
        }
        if (input == Input.OPEN && isUnwrap(records.status()) && buffers.needsNetworkBytes()) {
            return FlushNeed.NETWORK_READ;
        }
        return FlushNeed.READY;
    }

    // ---- fill interest ----

    /** The application registered fill interest on the decrypted endpoint: decides what it waits for. */
    void needsFillInterest() {
        switch (fillState) {
            case IDLE -> applyFillNeed();
            case INTERESTED -> actions |= REGISTER_NETWORK_READ;
            case WAIT_FOR_FLUSH -> {
                // The network write's callback wakes the reader.
            }
        }
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
                // handshakeNotified() wakes the reader when the listeners are done.
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
        HandshakeStatus status = records.status();
        if (status == HandshakeStatus.NEED_TASK) {
            return FillNeed.READY;
        }
        if (status == HandshakeStatus.NEED_WRAP) {
            return flushState == FlushState.WRITING ? FillNeed.NETWORK_WRITE : FillNeed.READY;
        }
        return buffers.needsNetworkBytes() ? FillNeed.NETWORK_READ : FillNeed.READY;
    }

    /** A wait whose reason no longer holds is released and its waiter woken (or set to wait for what it needs now). */
    private void reconcile() {
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

    // ---- network events ----

    /** The network is readable: wakes the fill and the flush that waited for it, on this thread. */
    void onNetworkReadable() {
        if (flushState == FlushState.WAIT_FOR_FILL) {
            flushState = FlushState.IDLE;
            actions |= WAKE_FLUSH;
        }
        if (fillState == FillState.INTERESTED) {
            fillState = FillState.IDLE;
            actions |= WAKE_FILL;
        }
    }

    /** The network wrote the lent encrypted output: the write goes on, a fill waiting for it wakes, a close goes on. */
    void onNetworkWritten() {
        lent = null;
        buffers.returnEncryptedOutput();
        flushState = FlushState.IDLE;
        actions |= WAKE_FLUSH;
        if (fillState == FillState.WAIT_FOR_FLUSH) {
            fillState = FillState.IDLE;
            actions |= WAKE_FILL;
        }
        try {
            progressClose();
        } catch (Throwable x) {
            fail(x);
        }
    }

    /** The network write failed (the network endpoint is closing): the lent output comes back to be released. */
    void onNetworkWriteFailed(Throwable cause) {
        lent = null;
        buffers.returnEncryptedOutput();
        buffers.releaseEncryptedOutput();
        flushState = FlushState.IDLE;
        if (fillState == FillState.WAIT_FOR_FLUSH) {
            fillState = FillState.IDLE;
        }
        if (failure == null) {
            failure = cause;
        }
        actions |= CLOSE;
    }

    /** The network endpoint closed inside a locked section (its fill or flush failed): close when it ends. */
    void deferClose(Throwable cause) {
        if (failure == null) {
            failure = cause;
        }
        actions |= CLOSE;
    }

    /** @return the type of what the network read callback wakes now */
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

    /** @return the type of what the network write callback wakes now */
    InvocationType networkWriteInvocationType() {
        InvocationType type = decrypted.writeInvocationType();
        if (fillState == FillState.WAIT_FOR_FLUSH) {
            type = type.combine(decrypted.fillInvocationType());
        }
        return type;
    }

    // ---- handshake ----

    /** The listeners were told of the handshake: application bytes may flow; a reader that waited for them is woken. */
    void handshakeNotified() {
        if (handshake == Handshake.NOTIFYING) {
            handshake = Handshake.COMPLETE;
        }
        if (!closed && fillState == FillState.IDLE && decrypted.isFillInterested()) {
            applyFillNeed();
        }
    }

    /** The record layer saw the first handshake FINISHED: the listeners are told before any application byte. */
    private void onHandshakeFinished() {
        if (handshake == Handshake.INITIAL) {
            handshake = Handshake.NOTIFYING;
            actions |= NOTIFY_SUCCEEDED;
        }
    }

    private boolean isHandshaken() {
        return handshake == Handshake.NOTIFYING || handshake == Handshake.COMPLETE;
    }

    /** @return the engine's handshake status, refusing a second handshake (see {@link SslRecordLayer#refuseRenegotiation}) */
    private HandshakeStatus handshakeStatus() throws SSLHandshakeException {
        HandshakeStatus status = records.status();
        if (isHandshaken()) {
            records.refuseRenegotiation(status, decrypted);
        }
        return status;
    }

    private static boolean isUnwrap(HandshakeStatus status) {
        return status == HandshakeStatus.NEED_UNWRAP || status == HandshakeStatus.NEED_UNWRAP_AGAIN;
    }

    // ---- closing ----

    /** Sends close_notify, then shuts the network output (when the close_notify is out). */
    void shutdownOutput() {
        try {
            if (output == Output.OPEN && !closed) {
                output = Output.CLOSING;
                engine.closeOutbound();
            }
            progressClose();
        } catch (Throwable x) {
            fail(x);
        }
    }

    /** Wraps and flushes the close_notify while the encrypted output is free; shuts the network output once it is out. */
    private void progressClose() throws IOException {
        while (output == Output.CLOSING && flushState != FlushState.WRITING && !closed) {
            if (!records.flushEncrypted()) {
                startNetworkWrite();
                return;
            }
            SSLEngineResult result = engine.isOutboundDone() ? null : records.wrap(NO_BUFFERS);
            if (result == null || (result.bytesProduced() == 0 && !buffers.hasEncryptedOutput()
                && result.getStatus() != SSLEngineResult.Status.BUFFER_OVERFLOW)) {
                output = Output.SHUT;
                actions |= SHUT_NETWORK_OUTPUT;
                return;
            }
        }
    }

    /** The decrypted endpoint is closing: a best-effort close_notify, without waiting; nothing else will be done. */
    void closing() {
        closed = true;
        try {
            if (output == Output.OPEN) {
                output = Output.CLOSING;
                engine.closeOutbound();
            }
            if (output == Output.CLOSING && flushState != FlushState.WRITING) {
                records.flushFinalRecords();
            }
        } catch (Throwable x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("No close_notify sent by {}", this, x);
            }
        }
        output = Output.SHUT;
        fillState = FillState.IDLE;
        if (flushState == FlushState.WAIT_FOR_FILL) {
            flushState = FlushState.IDLE;
        }
        actions = 0;
    }

    /**
     * The decrypted endpoint closed: returns every buffer (but an encrypted output lent to a
     * network write, which its callback returns).
     *
     * @return whether the handshake never completed, so the listeners must be told it failed
     */
    boolean closed() {
        closed = true;
        buffers.releaseAll();
        actions = 0;
        if (handshake != Handshake.INITIAL) {
            return false;
        }
        handshake = Handshake.FAILED;
        return true;
    }

    /** A step failed: tells a handshake in progress, sends the engine's alert if it can, closes. */
    void fail(Throwable cause) {
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
        if (closed || flushState == FlushState.WRITING) {
            return;
        }
        try {
            // After an SSLException the engine holds the alert that tells the peer why.
            records.flushFinalRecords();
        } catch (Throwable x) {
            if (LOG.isDebugEnabled()) {
                LOG.debug("No alert sent by {}", this, x);
            }
        }
    }

    // ---- end of a locked section ----

    private void startNetworkWrite() {
        flushState = FlushState.WRITING;
        lent = buffers.lendEncryptedOutput();
        actions |= START_NETWORK_WRITE;
    }

    /** Ends every locked section: reconciles the waits, returns the empty buffers, takes the actions to do. */
    Pending takePending() {
        if (!closed) {
            reconcile();
        }
        buffers.releaseEmpty();
        if (actions == 0) {
            return Pending.NONE;
        }
        Pending pending = new Pending(actions, lent, failure);
        actions = 0;
        return pending;
    }

    /** @return how many pooled buffers are held now */
    int heldBuffers() {
        return buffers.held();
    }

    @Override
    public String toString() {
        return "SslStateMachine@" + Integer.toHexString(hashCode()) + "{fill=" + fillState + ",flush=" + flushState
            + ",handshake=" + handshake + ",input=" + input + ",output=" + output + (closed ? ",closed" : "") + "}";
    }
}
