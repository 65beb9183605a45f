package io.wharf.io;

import java.io.Closeable;
import java.util.concurrent.TimeoutException;

import io.wharf.util.Invocable;
import io.wharf.util.buffer.RetainableByteBuffer;

/**
 * A protocol spoken over an {@link EndPoint}: HTTP/1.1, HTTP/2, TLS, WebSocket, or an echo.
 *
 * <p>The endpoint calls {@link #onOpen()} once, then the connection reads when it was told
 * the endpoint is fillable (see {@link AbstractConnection#fillInterested()}), and finally the
 * endpoint calls {@link #onClose(Throwable)} once. {@link #invocationType()} declares whether
 * the read callback may run on a selector thread; a connection that never blocks says
 * NON_BLOCKING and then runs hot on the thread that selected it.
 */
public interface Connection extends Invocable, Closeable {

    /** @return the endpoint this connection speaks over */
    EndPoint getEndPoint();

    /** Called once when the connection starts; typically registers fill interest. Must not block. */
    void onOpen();

    /**
     * Called once when the endpoint closed.
     *
     * @param cause why, or null for a normal close
     */
    void onClose(Throwable cause);

    /**
     * The peer half-closed (its end of input arrived) while our output is still open. Told
     * once, on a pool thread, after the {@code fill()} that returned -1. By default nothing:
     * most connections act on the -1 itself.
     */
    default void onInputShutdown() {
    }

    /**
     * The endpoint was idle for its timeout.
     *
     * @return true to close the endpoint (the default), false to keep it open
     */
    default boolean onIdleExpired(TimeoutException timeout) {
        return true;
    }

    /** Closes the endpoint of this connection. */
    @Override
    default void close() {
        getEndPoint().close();
    }

    /**
     * A connection that carries another protocol's connection on an inner endpoint of its
     * own, which it made and which lives as long as it does: TLS carries the application's
     * connection on its decrypted endpoint. Whoever asks the protocol on a network endpoint
     * for something (a graceful shutdown, see {@link GracefulConnection#shutdown(EndPoint)})
     * passes through a carrier to the connection on its carried endpoint. A connection that
     * replaces itself instead (a PROXY header reader upgrading the endpoint to the next
     * protocol) is no carrier: after the upgrade the endpoint's connection is the next one.
     */
    interface Carrier {
        /** @return the inner endpoint, on which the carried connection runs (possibly not set yet) */
        EndPoint getCarriedEndPoint();
    }

    /** A connection that can hand the bytes it read but did not use to its successor. */
    interface UpgradeFrom {
        /**
         * @return the unused bytes, owned by the caller from now on, or null when none
         */
        RetainableByteBuffer onUpgradeFrom();
    }

    /** A connection that can start from bytes its predecessor already read. */
    interface UpgradeTo {
        /**
         * Called before {@link Connection#onOpen()}.
         *
         * @param prefilled bytes to parse first; ownership passes to this connection
         */
        void onUpgradeTo(RetainableByteBuffer prefilled);
    }
}
