package io.wharf.io;

import java.io.Closeable;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;

import io.wharf.util.Callback;

/**
 * One end of a byte stream (a TCP socket, a Unix domain socket, a TLS session, an in-memory
 * pipe): it moves bytes and tells its {@link Connection} when bytes can be read.
 *
 * <h2>Reading</h2>
 * {@link #fill(ByteBuffer)} reads what is available now without waiting. When it returns 0,
 * the connection asks {@link #fillInterested(Callback)} and is called back once, on a thread
 * chosen by the selector's execution strategy, when bytes (or the end of input) arrive.
 *
 * <h2>Writing</h2>
 * {@link #write(Callback, ByteBuffer...)} writes <em>all</em> the bytes of the buffers and
 * then completes the callback once; only one write may be pending at a time, and a second
 * concurrent write throws {@link java.nio.channels.WritePendingException} rather than
 * interleaving bytes. {@link #flush(ByteBuffer...)} is the non-waiting primitive beneath.
 *
 * <h2>Closing</h2>
 * The end of input (the peer's half-close) shows as {@code fill()} returning -1 once and
 * {@link #isInputShutdown()} becoming true; the connection is also told through
 * {@link Connection#onInputShutdown()}. {@link #shutdownOutput()} half-closes our side;
 * when both halves are shut the endpoint closes. A close for any reason (local, remote
 * reset, idle timeout) fails any pending read or write and calls
 * {@link Connection#onClose(Throwable)} once.
 *
 * <h2>Buffers</h2>
 * The endpoint owns none of the caller's buffers: {@code fill} appends to the caller's
 * buffer (kept in flush mode) and {@code write} reads the caller's buffers, which the caller
 * must not touch until the callback completes.
 *
 * <h2>Idle timeout</h2>
 * Every endpoint has one: when no byte moved for that long, the connection is asked
 * ({@link Connection#onIdleExpired}) and, if it agrees, pending operations fail with a
 * {@link java.util.concurrent.TimeoutException} and the endpoint closes.
 */
public interface EndPoint extends Closeable {

    /** @return the local address, or null when not bound */
    SocketAddress getLocalSocketAddress();

    /** @return the remote address, or null when not connected */
    SocketAddress getRemoteSocketAddress();

    /** @return whether the endpoint is open in at least one direction */
    boolean isOpen();

    /** @return when the endpoint was created, in milliseconds since the epoch */
    long getCreatedTimeStamp();

    /** @return whether the end of input was seen */
    boolean isInputShutdown();

    /** @return whether our output is shut */
    boolean isOutputShutdown();

    /** Half-closes our side: the peer reads the end of input; closes fully when input is shut too. */
    void shutdownOutput();

    /** Closes the endpoint normally. */
    @Override
    default void close() {
        close(null);
    }

    /**
     * Closes the endpoint, failing pending operations with {@code cause} (or an
     * {@link EofException} when null), then tells the connection.
     */
    void close(Throwable cause);

    /**
     * Reads the bytes available now into {@code buffer}, after its limit.
     *
     * @param buffer a buffer in flush mode; bytes are appended after its limit
     * @return the number of bytes read, 0 when none are available, -1 at the end of input
     * @throws IOException when reading failed; the endpoint is then closed
     */
    int fill(ByteBuffer buffer) throws IOException;

    /**
     * Whether the last {@link #fill} took every byte there was at that moment: it did not fill
     * the buffer it was given, and this endpoint keeps no bytes back. A reader that has used
     * them all may then wait for fill interest instead of filling again at once, which would
     * nearly always find nothing and cost a system call; bytes that arrived meanwhile wake the
     * fill interest. Called by the reading thread after a fill.
     *
     * @return true when the last fill drained what there was; false when more may be there,
     *     or when the endpoint cannot tell (the default)
     */
    default boolean isDrained() {
        return false;
    }

    /**
     * Writes as many bytes as possible now, without waiting.
     *
     * @return true when every buffer was fully written
     * @throws IOException when writing failed; the endpoint is then closed
     */
    boolean flush(ByteBuffer... buffers) throws IOException;

    /**
     * Asks to be called back once when {@link #fill(ByteBuffer)} may return something other
     * than 0. The callback's {@link io.wharf.util.InvocationType} decides whether it may run
     * on the selector thread.
     *
     * @throws java.nio.channels.ReadPendingException when an interest is already registered
     */
    void fillInterested(Callback callback);

    /**
     * Like {@link #fillInterested(Callback)} but returns false instead of throwing when an
     * interest is already registered.
     */
    boolean tryFillInterested(Callback callback);

    /** @return whether a fill interest is registered */
    boolean isFillInterested();

    /**
     * Writes every byte of {@code buffers}, in order, then completes {@code callback} once.
     * Failure (close, reset, idle timeout) completes it with the cause.
     *
     * @throws java.nio.channels.WritePendingException when another write is in progress
     */
    void write(Callback callback, ByteBuffer... buffers);

    /** @return the connection reading this endpoint */
    Connection getConnection();

    /** Sets the connection; used once at creation and by {@link #upgrade(Connection)}. */
    void setConnection(Connection connection);

    /**
     * Replaces the current connection with {@code next} on this endpoint: bytes the current
     * connection read but did not use (see {@link Connection.UpgradeFrom}) are handed to
     * {@code next} (see {@link Connection.UpgradeTo}); the current one is closed; then
     * {@code next} is opened.
     */
    void upgrade(Connection next);

    /** @return the idle timeout in milliseconds; 0 or less means none */
    long getIdleTimeout();

    /** Sets the idle timeout in milliseconds; 0 or less disables it. */
    void setIdleTimeout(long idleTimeoutMillis);

    /** @return the object beneath (a channel, an SSL engine), for diagnostics and metadata */
    Object getTransport();

    /** @return whether the bytes are encrypted on the wire */
    default boolean isSecure() {
        return false;
    }

    /** Called once by the creator after the endpoint is set up, before the connection's onOpen. */
    void onOpen();
}
