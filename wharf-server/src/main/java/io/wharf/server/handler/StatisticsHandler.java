package io.wharf.server.handler;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.DoubleAdder;
import java.util.concurrent.atomic.LongAdder;

import io.wharf.io.Content;
import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * A handler that counts what passes through it to its child: requests (total, active now,
 * most active at once, and those the child did not take), responses by status class (1xx to
 * 5xx), request content bytes the child read, response content bytes it wrote, how long
 * requests took (from their first byte to the completion of their callback: mean, max,
 * standard deviation) and failures (the child threw or failed its callback).
 *
 * <p>A request is counted when it enters; its response when its callback completes, with the
 * status then set (a failure before commit counts as 5xx, since the server will answer 500).
 * Bytes are content bytes, without headers or chunk framing. A request the child does not take
 * counts in {@link #getRequestsNotTaken()} and nowhere else but {@link #getRequests()}.
 *
 * <p><b>Threads.</b> Counters are {@link LongAdder}s and atomics, updated by whatever thread
 * handles, reads, writes or completes; the getters may be called from any thread and are
 * each exact once the requests they count are complete (a set of getters read while requests
 * run is not one snapshot). {@link #reset()} starts a new period. The invocation type is the
 * child's.
 */
public class StatisticsHandler extends Handler.Wrapper {

    private final LongAdder requests = new LongAdder();
    private final LongAdder notTaken = new LongAdder();
    private final AtomicLong active = new AtomicLong();
    private final AtomicLong maxActive = new AtomicLong();
    private final LongAdder[] responsesByClass = {new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder()};
    private final LongAdder bytesRead = new LongAdder();
    private final LongAdder bytesWritten = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final LongAdder timedRequests = new LongAdder();
    private final LongAdder totalNanos = new LongAdder();
    private final DoubleAdder totalSquaredMillis = new DoubleAdder();
    private final AtomicLong maxNanos = new AtomicLong();
    private volatile long periodStartMillis = System.currentTimeMillis();

    public StatisticsHandler() {
    }

    public StatisticsHandler(Handler handler) {
        super(handler);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler child = getHandler();
        if (child == null) {
            return false;
        }
        requests.increment();
        long now = active.incrementAndGet();
        maxActive.accumulateAndGet(now, Math::max);
        Exchange exchange = new Exchange(request, response, callback);
        boolean taken;
        try {
            taken = child.handle(exchange.request, exchange.response, exchange);
        } catch (Throwable x) {
            exchange.complete(x);
            throw x;
        }
        if (!taken) {
            active.decrementAndGet();
            notTaken.increment();
        }
        return taken;
    }

    /** Clears every counter and starts a new period; the max active restarts from the active now. */
    public void reset() {
        requests.reset();
        notTaken.reset();
        maxActive.set(active.get());
        for (LongAdder adder : responsesByClass) {
            adder.reset();
        }
        bytesRead.reset();
        bytesWritten.reset();
        failures.reset();
        timedRequests.reset();
        totalNanos.reset();
        totalSquaredMillis.reset();
        maxNanos.set(0);
        periodStartMillis = System.currentTimeMillis();
    }

    /** @return how long since this handler was made or last reset */
    public Duration getPeriod() {
        return Duration.ofMillis(System.currentTimeMillis() - periodStartMillis);
    }

    /** @return the requests that entered, taken or not */
    public long getRequests() {
        return requests.sum();
    }

    /** @return the requests the child did not take */
    public long getRequestsNotTaken() {
        return notTaken.sum();
    }

    /** @return the requests taken and not yet complete */
    public long getRequestsActive() {
        return active.get();
    }

    /** @return the most requests active at once in this period */
    public long getRequestsActiveMax() {
        return maxActive.get();
    }

    /**
     * @param statusClass 1 to 5, for 1xx to 5xx
     * @return the responses completed with a status of that class
     * @throws IllegalArgumentException when the class is not 1 to 5
     */
    public long getResponses(int statusClass) {
        if (statusClass < 1 || statusClass > 5) {
            throw new IllegalArgumentException("status class must be 1 to 5, not " + statusClass);
        }
        return responsesByClass[statusClass - 1].sum();
    }

    /** @return the responses completed, of every class */
    public long getResponses() {
        long total = 0;
        for (LongAdder adder : responsesByClass) {
            total += adder.sum();
        }
        return total;
    }

    /** @return the request content bytes the child read */
    public long getBytesRead() {
        return bytesRead.sum();
    }

    /** @return the response content bytes the child wrote */
    public long getBytesWritten() {
        return bytesWritten.sum();
    }

    /** @return the requests whose handling threw or whose callback failed */
    public long getFailures() {
        return failures.sum();
    }

    /** @return the mean time of completed requests, zero when none */
    public Duration getRequestTimeMean() {
        long count = timedRequests.sum();
        return count == 0 ? Duration.ZERO : Duration.ofNanos(totalNanos.sum() / count);
    }

    /** @return the longest time of a completed request */
    public Duration getRequestTimeMax() {
        return Duration.ofNanos(maxNanos.get());
    }

    /** @return the standard deviation of the times of completed requests, zero when fewer than two */
    public Duration getRequestTimeStdDev() {
        long count = timedRequests.sum();
        if (count < 2) {
            return Duration.ZERO;
        }
        double meanMillis = totalNanos.sum() / 1e6 / count;
        double variance = Math.max(0, totalSquaredMillis.sum() / count - meanMillis * meanMillis);
        return Duration.ofNanos(Math.round(Math.sqrt(variance) * 1e6));
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "@" + Integer.toHexString(hashCode())
                + "{requests=" + getRequests() + ", active=" + getRequestsActive() + ", maxActive=" + getRequestsActiveMax()
                + ", notTaken=" + getRequestsNotTaken()
                + ", 1xx=" + getResponses(1) + ", 2xx=" + getResponses(2) + ", 3xx=" + getResponses(3)
                + ", 4xx=" + getResponses(4) + ", 5xx=" + getResponses(5)
                + ", bytesRead=" + getBytesRead() + ", bytesWritten=" + getBytesWritten() + ", failures=" + getFailures()
                + ", meanMs=" + getRequestTimeMean().toNanos() / 1e6 + ", maxMs=" + getRequestTimeMax().toNanos() / 1e6
                + ", stdDevMs=" + getRequestTimeStdDev().toNanos() / 1e6 + "}";
    }

    private void recordCompletion(Request request, int status, Throwable failure) {
        long nanos = Math.max(0, System.nanoTime() - request.getBeginNanoTime());
        timedRequests.increment();
        totalNanos.add(nanos);
        double millis = nanos / 1e6;
        totalSquaredMillis.add(millis * millis);
        maxNanos.accumulateAndGet(nanos, Math::max);
        int statusClass = status / 100;
        if (statusClass >= 1 && statusClass <= 5) {
            responsesByClass[statusClass - 1].increment();
        }
        if (failure != null) {
            failures.increment();
        }
        active.decrementAndGet();
    }

    /**
     * One request through this handler: the counting request and response the child sees,
     * and the callback it completes, which records the completion once.
     */
    private final class Exchange implements Callback {
        private final AtomicBoolean completed = new AtomicBoolean();
        private final Request request;
        private final Response response;
        private final Callback callback;

        Exchange(Request request, Response response, Callback callback) {
            this.request = new CountingRequest(request);
            this.response = new CountingResponse(this.request, response);
            this.callback = callback;
        }

        /** Records the completion the first time; later calls (a throw after completing) change nothing. */
        void complete(Throwable failure) {
            if (completed.compareAndSet(false, true)) {
                int status = failure != null && !response.isCommitted() ? 500 : response.getStatus();
                recordCompletion(request, status, failure);
            }
        }

        @Override
        public void succeeded() {
            complete(null);
            callback.succeeded();
        }

        @Override
        public void failed(Throwable cause) {
            complete(cause);
            callback.failed(cause);
        }

        @Override
        public InvocationType invocationType() {
            return callback.invocationType();
        }
    }

    /** Counts the content bytes the child reads. */
    private final class CountingRequest extends Request.Wrapper {
        CountingRequest(Request wrapped) {
            super(wrapped);
        }

        @Override
        public Content.Chunk read() {
            Content.Chunk chunk = super.read();
            if (chunk != null && chunk.getFailure() == null) {
                bytesRead.add(chunk.remaining());
            }
            return chunk;
        }
    }

    /** Counts the content bytes the child writes, as each write is issued. */
    private final class CountingResponse extends Response.Wrapper {
        CountingResponse(Request request, Response wrapped) {
            super(request, wrapped);
        }

        @Override
        public void write(boolean last, ByteBuffer buffer, Callback callback) {
            if (buffer != null) {
                bytesWritten.add(buffer.remaining());
            }
            super.write(last, buffer, callback);
        }
    }
}
