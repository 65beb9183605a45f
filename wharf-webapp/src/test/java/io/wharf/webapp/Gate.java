package io.wharf.webapp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Test helper shared by a test and the web applications it deploys: it is under {@code io.wharf},
 * so every application loader takes it from the parent and both sides see one copy. A request
 * {@linkplain #enter() enters} and waits until the test {@linkplain #open() opens} it; events are
 * recorded in order. Holds only strings and latches, never an application's object.
 */
public final class Gate {

    private static volatile CountDownLatch entered = new CountDownLatch(1);
    private static volatile CountDownLatch open = new CountDownLatch(1);
    private static final List<String> EVENTS = new CopyOnWriteArrayList<>();

    private Gate() {
    }

    /** Closes the gate and forgets the events. */
    public static void reset() {
        entered = new CountDownLatch(1);
        open = new CountDownLatch(1);
        EVENTS.clear();
    }

    /** Called by a request: says it is here, then waits (at most 30 s) for the gate to open. */
    public static void enter() {
        entered.countDown();
        try {
            open.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** @return whether a request entered within 10 s */
    public static boolean awaitEntered() throws InterruptedException {
        return entered.await(10, TimeUnit.SECONDS);
    }

    /** Lets the waiting requests go. */
    public static void open() {
        open.countDown();
    }

    /** Records an event. */
    public static void record(String event) {
        EVENTS.add(event);
    }

    /** @return the events so far, in order */
    public static List<String> events() {
        return List.copyOf(EVENTS);
    }
}
