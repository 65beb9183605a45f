package io.wharf.loadgen;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToLongFunction;

import io.wharf.server.Handler;
import io.wharf.server.Request;
import io.wharf.server.Response;
import io.wharf.util.Callback;
import io.wharf.util.InvocationType;

/**
 * Test fixture: answers every request with {@code 200 ok} after a delay a function of its path
 * gives (in nanoseconds, 0 for at once), without blocking the server's thread (a timer thread
 * answers late ones). Counts the requests and keeps the order in which paths arrived and were
 * answered ({@code "> /path"}, {@code "< /path"}). {@link #close()} stops the timer.
 */
public final class DelayingHandler implements AutoCloseable {

    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor();
    private final ToLongFunction<String> delays;
    public final AtomicLong requests = new AtomicLong();
    public final Queue<String> events = new ConcurrentLinkedQueue<>();

    public DelayingHandler(ToLongFunction<String> delays) {
        this.delays = delays;
    }

    /** @return a handler that stalls every request arriving in the last {@code stallNanos} of each {@code periodNanos} until that period ends */
    public static DelayingHandler stalling(long periodNanos, long stallNanos) {
        long origin = System.nanoTime();
        return new DelayingHandler(path -> {
            long phase = (System.nanoTime() - origin) % periodNanos;
            return phase >= periodNanos - stallNanos ? periodNanos - phase : 0;
        });
    }

    public Handler handler() {
        return Handler.of(InvocationType.NON_BLOCKING, this::handle);
    }

    private boolean handle(Request request, Response response, Callback callback) {
        requests.incrementAndGet();
        String path = request.getHttpURI().getPath();
        events.add("> " + path);
        long delay = delays.applyAsLong(path);
        if (delay <= 0) {
            answer(path, response, callback);
        } else {
            timer.schedule(() -> answer(path, response, callback), delay, TimeUnit.NANOSECONDS);
        }
        return true;
    }

    private void answer(String path, Response response, Callback callback) {
        events.add("< " + path);
        Response.write(response, true, "ok", callback);
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
