package io.wharf.server.http1.internal;

import java.util.concurrent.TimeUnit;

import io.wharf.http.BadMessageException;
import io.wharf.http.HttpStatus;
import io.wharf.server.HttpConfiguration;
import io.wharf.util.thread.Scheduler;

/**
 * Guards one connection against clients that send a request slowly: a request head must
 * arrive within the header timeout, and a head or content that has been arriving for more
 * than a second must keep up the minimum data rate. Checked on the reading thread as bytes
 * arrive; a head that did not arrive whole in its first read also gets one scheduled check
 * at the header timeout, which closes the connection if the head is still incomplete then,
 * so a client sending a byte every few seconds is closed on time.
 *
 * <p>Part of a connection's {@link HttpCodec}: used by the connection's reading thread; the
 * scheduled check only closes the endpoint of the connection that scheduled it.
 */
final class SlowRequestGuard {

    private final HttpConfiguration configuration;
    /** When the last bytes of a head were read, or 0 when none were since the codec was lent. */
    private long arrivalNanos;
    private long startNanos;
    private long bytes;
    private Scheduler.Task headerCheck;

    SlowRequestGuard(HttpConfiguration configuration) {
        this.configuration = configuration;
    }

    /** @return whether no request is being timed: no byte of a head arrived since the last reset */
    boolean isIdle() {
        return startNanos == 0 && headerCheck == null;
    }

    /** Bytes of a request head arrived. @throws BadMessageException 408 when too slow */
    void headBytes(int count) {
        long now = System.nanoTime();
        arrivalNanos = now;
        if (startNanos == 0) {
            startNanos = now;
            bytes = 0;
        }
        bytes += count;
        long elapsed = now - startNanos;
        long timeout = configuration.getHeaderTimeout().toNanos();
        if (timeout > 0 && elapsed > timeout) {
            throw new BadMessageException(HttpStatus.REQUEST_TIMEOUT_408, "request header not received within " + configuration.getHeaderTimeout());
        }
        checkRate(elapsed, "request header");
    }

    /**
     * {@code connection} waits for more of a head that has started: schedules the one check
     * at the header timeout, on the connection's scheduler (a head that arrives whole in one
     * read never gets here).
     */
    void waitingForHead(HttpConnection connection) {
        long timeout = configuration.getHeaderTimeout().toNanos();
        if (startNanos != 0 && headerCheck == null && timeout > 0) {
            long left = timeout - (System.nanoTime() - startNanos);
            Scheduler scheduler = connection.getConnector().getScheduler();
            headerCheck = scheduler.schedule(connection::onHeaderTimeout, Math.max(1, left), TimeUnit.NANOSECONDS);
        }
    }

    /**
     * @return when the bytes being parsed were read: the time of the last read of head
     *     bytes (pipelined requests parsed from one read share it), or now when there was none
     *     since the codec was lent. One clock read per read serves the request's begin and
     *     head times.
     */
    long arrivalNanos() {
        long arrival = arrivalNanos;
        return arrival != 0 ? arrival : System.nanoTime();
    }

    /** The codec was lent to another connection: its reads are not the new owner's. */
    void forgetArrival() {
        arrivalNanos = 0;
    }

    /** The head is complete: stop timing it; content, if {@code withContent}, is timed from now. */
    void headComplete(boolean withContent) {
        cancelCheck();
        startNanos = withContent ? System.nanoTime() : 0;
        bytes = 0;
    }

    /** Bytes of request content arrived. @throws BadMessageException 408 when too slow */
    void contentBytes(int count) {
        if (startNanos == 0) {
            startNanos = System.nanoTime();
        }
        bytes += count;
        checkRate(System.nanoTime() - startNanos, "request content");
    }

    /** The exchange ended: reset for the next request. */
    void reset() {
        cancelCheck();
        startNanos = 0;
        bytes = 0;
    }

    private void checkRate(long elapsedNanos, String what) {
        long minimum = configuration.getMinRequestDataRate();
        if (minimum > 0 && elapsedNanos > TimeUnit.SECONDS.toNanos(1)) {
            long rate = bytes * TimeUnit.SECONDS.toNanos(1) / elapsedNanos;
            if (rate < minimum) {
                throw new BadMessageException(HttpStatus.REQUEST_TIMEOUT_408,
                        what + " arrived at " + rate + " bytes/s, below the minimum of " + minimum + " bytes/s");
            }
        }
    }

    private void cancelCheck() {
        Scheduler.Task check = headerCheck;
        if (check != null) {
            headerCheck = null;
            check.cancel();
        }
    }
}
