package io.wharf.bench;

import java.net.URI;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One HTTP client under test in the {@code client} macro run ({@link ClientMacroBenchmark}):
 * keeps {@code concurrency} GET requests in flight to one URI, each sent again as soon as its
 * response is complete (content read and dropped), until a deadline. The clients differ
 * only in {@link #send}; the loop, its counts and its end are here.
 *
 * <p>Threads: {@link #run} is called by the {@link ClientProcess} main thread; completions
 * arrive on the client's own threads, which send the next request.
 */
abstract class ClientLoad implements AutoCloseable {

    /** What one run achieved. */
    record Counts(long requests, long errors) {
    }

    private static final long MAX_FAILURES = 100;

    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();
    private volatile long deadlineNanos;
    private volatile CountDownLatch slots;
    private volatile URI target;

    /** @return a started client of the named kind: wharf, jetty or jdk, with room for {@code concurrency} connections */
    static ClientLoad of(String name, int concurrency) throws Exception {
        return switch (name) {
            case "wharf" -> new WharfClientLoad(concurrency);
            case "jetty" -> new JettyClientLoad(concurrency);
            case "jdk" -> new JdkClientLoad();
            default -> throw new IllegalArgumentException("unknown client '" + name + "'; known: wharf, jetty, jdk");
        };
    }

    /**
     * Sends one GET to {@code uri}, reads and drops its content, then calls {@link #done}
     * once, on any thread, with whether it succeeded with a 200.
     */
    protected abstract void send(URI uri);

    /** Keeps {@code concurrency} requests in flight for {@code seconds}, then waits for the last ones. */
    Counts run(URI uri, int concurrency, int seconds) throws InterruptedException {
        completed.set(0);
        failed.set(0);
        target = uri;
        slots = new CountDownLatch(concurrency);
        deadlineNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        for (int i = 0; i < concurrency; i++) {
            send(uri);
        }
        if (!slots.await(seconds + 30L, TimeUnit.SECONDS)) {
            throw new IllegalStateException(getClass().getSimpleName() + ": requests still in flight 30 s after the deadline");
        }
        return new Counts(completed.get(), failed.get());
    }

    /**
     * A request ended: count it, and send the next one while the run lasts. A slot whose
     * requests keep failing stops, so that failures completing inline cannot recurse without end.
     */
    protected final void done(boolean ok) {
        (ok ? completed : failed).incrementAndGet();
        if (System.nanoTime() - deadlineNanos < 0 && (ok || failed.get() < MAX_FAILURES)) {
            send(target);
        } else {
            slots.countDown();
        }
    }
}
