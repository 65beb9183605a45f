package io.wharf.util;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test helper: an {@link IteratingCallback} whose steps are written by the test as
 * {@link #step()}, and which records every hook in {@link #events}, counts them, notes the
 * threads that ran them, and records any hook that ran concurrently with process().
 */
abstract class RecordingIteratingCallback extends IteratingCallback {

    final List<String> events = Collections.synchronizedList(new ArrayList<>());
    final List<String> processThreads = Collections.synchronizedList(new ArrayList<>());
    final List<String> violations = Collections.synchronizedList(new ArrayList<>());
    final AtomicInteger processCalls = new AtomicInteger();
    final AtomicInteger successes = new AtomicInteger();
    final AtomicInteger completeSuccesses = new AtomicInteger();
    final AtomicInteger failures = new AtomicInteger();
    final AtomicInteger completeFailures = new AtomicInteger();
    final CountDownLatch completed = new CountDownLatch(1);
    volatile Throwable completeFailureCause;
    volatile String completeThread;
    private final AtomicBoolean inProcess = new AtomicBoolean();

    /** The body of process(). */
    abstract Action step() throws Throwable;

    @Override
    protected final Action process() throws Throwable {
        if (!inProcess.compareAndSet(false, true)) {
            violations.add("process() entered twice");
        }
        processCalls.incrementAndGet();
        processThreads.add(Thread.currentThread().getName());
        events.add("process");
        try {
            return step();
        } finally {
            inProcess.set(false);
        }
    }

    @Override
    protected void onSuccess() {
        checkNotInProcess("onSuccess");
        successes.incrementAndGet();
        events.add("onSuccess");
    }

    @Override
    protected void onCompleteSuccess() {
        checkNotInProcess("onCompleteSuccess");
        completeSuccesses.incrementAndGet();
        completeThread = Thread.currentThread().getName();
        events.add("onCompleteSuccess");
        completed.countDown();
    }

    @Override
    protected void onFailure(Throwable cause) {
        failures.incrementAndGet();
        events.add("onFailure:" + cause.getMessage());
    }

    @Override
    protected void onCompleteFailure(Throwable cause) {
        checkNotInProcess("onCompleteFailure");
        if (failures.get() != 1) {
            violations.add("onCompleteFailure before onFailure");
        }
        completeFailures.incrementAndGet();
        completeFailureCause = cause;
        completeThread = Thread.currentThread().getName();
        events.add("onCompleteFailure:" + cause.getMessage());
        completed.countDown();
    }

    private void checkNotInProcess(String hook) {
        if (inProcess.get()) {
            violations.add(hook + " ran while process() ran");
        }
    }
}
